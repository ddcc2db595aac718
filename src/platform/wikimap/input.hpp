// Bodies and queries of the wiki map routes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http/http.hpp"
#include "platform/common/request_schema.hpp"
#include "service/ids.hpp"

namespace cadastre::platform::wikimap {

/// PUT /wikimap/:id: any of {"titulo","descricao","temaGeral","temaEspecifico","organizacao"}
/// (the two themes together; null clears descricao or the themes).
struct EntryFields {
  std::optional<std::string> titulo, organizacao;
  std::optional<std::optional<std::string>> descricao, tema_geral, tema_especifico;
};
EntryFields parse_entry(std::string_view body);

/// POST /wikimap/avaliar: {"nota": 1..5}.
int parse_rating(std::string_view body);

/// POST /wikimap/:id/comentario: {"texto"} (1 to 2000 characters).
std::string parse_comment(std::string_view body);

/// GET /wikimap/consulta's filters.
struct Search {
  std::optional<std::int64_t> id;
  std::string q, tema_geral, tema_especifico, organizacao;  ///< empty: no filter
};
Search parse_search(const http::Request& req);

/// The map id of the query parameter `id` (required: 400 naming it otherwise).
std::int64_t required_id(const http::Request& req);
/// The optional query parameter `id`.
std::optional<std::int64_t> optional_id(const http::Request& req);
using service::path_id;  // the path parameter named: service/ids.hpp

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::wikimap
