// Bodies and queries of the project routes: parsed, checked, every refusal naming its field.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http/http.hpp"
#include "platform/common/request_schema.hpp"
#include "service/ids.hpp"

namespace cadastre::platform::projects {

/// POST /projetos {"nome", "descricao"?, "tipo"?: "geral"|"cadastro_imobiliario"};
/// PUT /projetos/:id {"nome"?, "descricao"?} (the state and the type have their own moves).
struct ProjectFields {
  std::optional<std::string> nome, descricao, tipo;
};
ProjectFields parse_project(std::string_view body, bool creating);

/// {"idProjeto": n} (nova-versao).
std::int64_t parse_project_ref(std::string_view body);

/// POST /projetos/copiar-projeto {"idProjeto", "nome", "geometrias"?, "valores"?}; values
/// need their geometries.
struct CopyRequest {
  std::int64_t id = 0;
  std::string nome;
  bool geometrias = false, valores = false;
};
CopyRequest parse_copy(std::string_view body);

/// PUT /projetos/:id/notas {"notas": "<p>...</p>"}: the raw HTML, at most kMaxNotes bytes
/// (413 above; the sanitiser runs in the handler).
inline constexpr std::size_t kMaxNotes = 200000;
std::string parse_notes(std::string_view body);

/// POST /projetos/usuarios {"idProjeto", "idUsuario", "papel": "leitura"|"edicao"|"admin"}.
struct Share {
  std::int64_t project = 0, user = 0;
  std::string papel;
};
Share parse_share(std::string_view body);

/// GET /projetos/transferir ?id=&tenant=&idUsuario= (tenant: slug or id).
struct TransferRequest {
  std::int64_t id = 0, user = 0;
  std::string tenant;
};
TransferRequest parse_transfer(const http::Request& req);

/// ?dominio=: an e-mail domain, lowercased ("prefeitura.sp.gov.br").
std::string parse_domain(const http::Request& req);

/// ?ativo= of the lists: absent → active ones only.
bool parse_active(const http::Request& req);

using service::path_id;  // the path parameter named: service/ids.hpp

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::projects
