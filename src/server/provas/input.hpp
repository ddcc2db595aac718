// The input of /cad/provas-digitais: the digital proof record (provas.prova_digital) as the
// API writes it (the writable fields of a JSON body), the exact-match filters of
// `?filtros=` with the paging, and the {id} of a path.
//
//   id (read only), numero_cadastro, tipo, descricao, arquivo_url, sha256, data,
//   criado_em and atualizado_em (read only)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cadastre/query.hpp"
#include "http/http.hpp"

namespace cadastre::server::provas {

/// One column and its value as bound text (nullopt: SQL null), with the column's type
/// ("text", "date" or "bigint") for the placeholder cast.
struct ProvaField {
  std::string column;
  std::optional<std::string> value;
  std::string type;
};

/// The fields of a POST/PUT body, validated: known names only (unknown → 400
/// campo_desconhecido, read-only ones → 400), numero_cadastro/tipo non-empty text,
/// descricao text or null, arquivo_url an http(s) URL, sha256 64 hex characters (stored
/// lowercase), data YYYY-MM-DD. `create` requires every field but descricao; an update
/// needs at least one.
std::vector<ProvaField> prova_fields(const std::string& body, bool create);

/// The filters of `filtros` (a JSON object: column → value, compared with =): columns
/// id, numero_cadastro, tipo, descricao, arquivo_url, sha256 and data. Malformed JSON →
/// 400 json_invalido; not an object, a non-scalar value → 400; unknown column → 400
/// campo_desconhecido.
std::vector<ProvaField> prova_filters(const std::string& filtros);

/// The query of the list: pagina/limite and the filters of `filtros` (none when absent).
struct ListQuery {
  std::vector<ProvaField> filters;
  query::Paging paging;
};
ListQuery parse_list(const http::Request& req);

/// The {id} of a path: an integer from 1 (400 otherwise), as text.
std::string parse_id(const std::string& text);

}  // namespace cadastre::server::provas
