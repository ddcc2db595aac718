// Pages of records: the SQL that cuts one page and the envelope every paged answer shares,
// {"total","pagina","limite",<member>:[...]}, optionally after a {"camada": ...} member.
#pragma once

#include <string>
#include <string_view>

#include "cadastre/query.hpp"
#include "store/sql.hpp"

namespace cadastre::service {

/// Appends " limit <size> offset <offset>" for `paging` (numbers, never request text).
void append_page(store::Sql& sql, const query::Paging& paging);

/// One page of records as PostgreSQL returned it: the count of all matching records and
/// the page's records as a JSON array.
struct PageRows {
  std::int64_t total = 0;
  std::string records = "[]";
};

/// Reads the two text columns (total, records array) of the single row that `sql` returns.
PageRows fetch_page(soci::session& s, const store::Sql& sql);

/// {"camada"?: layer, "total", "pagina", "limite", member: records}; `layer` is left out when empty.
std::string page_envelope(const PageRows& page, const query::Paging& paging, std::string_view member,
                          std::string_view layer = {});

}  // namespace cadastre::service
