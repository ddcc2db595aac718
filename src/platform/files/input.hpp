// Requests of the files and photos routes, read and checked before any SQL or disk access.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http/http.hpp"
#include "platform/common/request_schema.hpp"
#include "service/ids.hpp"

namespace cadastre::platform::files {

using service::path_id;  // the path parameter named: service/ids.hpp

/// A multipart upload: part `file` (required, with a file name: the record's display name,
/// last path component, control characters dropped) and, when `id_field` is given, a
/// required text part of that name holding a positive id (POST /fotos: idGeometria).
/// `descricao` (text, optional) is accepted everywhere; any other part → 400.
struct Upload {
  std::string nome;
  std::optional<std::string> descricao;
  const std::string* bytes = nullptr;  ///< the part's content, inside the request
  std::int64_t id = 0;                 ///< the id_field's value
};
Upload parse_upload(const http::Request& req, std::string_view id_field = {});

/// ?tipo= of POST /arquivos/:id/files/upload: "camada" or "geometria" (required).
std::string parse_target(const http::Request& req);

/// ?tipo= of the logo and the user's photo: the image format expected ("png", "jpeg",
/// "gif", "webp"); nullopt when absent. The content must then be that format (415).
std::optional<std::string> parse_image_format(const http::Request& req);

/// PUT /arquivos/:id: {"nome"?, "descricao"?} (metadata only; at least one).
struct Changes {
  std::optional<std::string> nome;
  std::optional<std::optional<std::string>> descricao;  ///< set to null clears it
};
Changes parse_changes(std::string_view body);

/// A stored key in a query field (`url`): the key itself, or a link that ends in
/// "url=<key>"; 400 when it is not a key this platform issues.
std::string parse_key_query(const http::Request& req, std::string_view field);

/// DELETE /fotos/nome/:fileName: a stored key, validated strictly (separators, "..",
/// anything but the key's syntax → 400).
std::string parse_key_param(const http::Request& req, std::string_view name);

/// The signature of a presigned link: both `expira` and `assinatura`, or neither.
struct Signature {
  std::int64_t expira = 0;
  std::string assinatura;
};
std::optional<Signature> parse_signature(const http::Request& req);

/// GET /arquivos/fotos/:id: ?miniatura=true (256 px) or ?tamanho=<16..1024>; 0 = the
/// original.
int parse_thumbnail_side(const http::Request& req);

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::files
