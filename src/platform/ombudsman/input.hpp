// Bodies and queries of the ombudsman routes (public and staff).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http/http.hpp"
#include "platform/common/request_schema.hpp"

namespace cadastre::platform::ombudsman {

/// The statuses of a request, in the order they usually follow.
inline const std::vector<std::string> kStatuses = {"aberto", "em_analise", "em_atendimento", "concluido", "recusado"};

/// The largest photo a citizen may attach (decoded bytes).
constexpr std::size_t kMaxPhotoBytes = 2u << 20;

/// POST /ouv/contato, as JSON {"descricao","categoria","longitude","latitude","nome"?,
/// "email"?,"telefone"?,"foto"?: base64} or as multipart/form-data with the same parts (the
/// photo as the file part "foto").
struct Report {
  std::string descricao, categoria;
  double longitude = 0, latitude = 0;
  std::optional<std::string> nome, email, telefone;
  std::optional<std::string> foto;  ///< the photo's bytes
  std::string foto_tipo;            ///< its media type, read from the bytes
};
Report parse_report(const http::Request& req);

/// POST /ouv/pedir/:id: {"token", "mensagem"?}.
struct FollowUp {
  std::string token;
  std::optional<std::string> mensagem;
};
FollowUp parse_follow_up(std::string_view body);

/// How a public caller names a request: its protocol ("OUV-2026-000001") or its id.
struct RequestKey {
  std::optional<std::int64_t> id;
  std::optional<std::string> protocolo;
};
RequestKey parse_request_key(const std::string& text);

/// The municipality a public route is about: the query parameter `cidade` (a tenant slug).
std::string city_param(const http::Request& req);

/// POST /importar/add/ouv?codigo=&idCamada=&xdzs=: the import's code (its idempotency key
/// on the layer) and the statuses of the requests to copy (xdzs: comma-separated, or "todos").
struct ImportParams {
  std::string codigo;
  std::vector<std::string> statuses;
};
ImportParams parse_import(const http::Request& req);

/// Whether a tenant's configuration (plataforma.tenants.config, PUT /tenants/config) enables
/// the ombudsman: "ouvidoria" among its "modulos".
bool ombudsman_enabled(std::string_view config_json);

/// The `q` of GET /ouv/ (at most 200 characters; empty when absent).
std::string parse_search(const http::Request& req);

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::ombudsman
