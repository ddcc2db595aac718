// Portal: the query fields of /portal, checked before any SQL.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cadastre/query.hpp"
#include "http/http.hpp"

namespace cadastre::server::portal {

/// The unit a valuation is about: exactly one of id, inscricao_cartografica and
/// numero_cadastro (400 for none or several, an empty value or a bad id).
struct PropertyKey {
  std::string field;  ///< one of the three names (a fixed column name, never request text)
  std::string value;
};
PropertyKey parse_property_key(const http::Request& req);

/// ano_referencia of the query (1..9999; 400 otherwise), nullopt when absent.
std::optional<int> parse_reference_year(const http::Request& req);

/// The filters of the property search: exact ones on a column, and names matched
/// case- and accent-insensitively.
struct SearchFilter {
  const char* column;  ///< fixed SQL column
  std::string value;
  bool by_name = false;  ///< unaccent(column) ilike %value%
};
struct Search {
  std::vector<SearchFilter> filters;
  query::Paging paging;
};
/// inscricao_cartografica, numero_cadastro, inscricao_lote and uso match exactly;
/// logradouro and bairro match names. Paging from pagina/limite.
Search parse_search(const http::Request& req);

}  // namespace cadastre::server::portal
