// The envelope every paged answer shares, {"total","pagina","limite",<member>:[...]},
// optionally after a {"camada": ...} member. The SQL side is store::append_page/fetch_page.
#pragma once

#include <string>
#include <string_view>

#include "cadastre/query.hpp"
#include "store/sql.hpp"  // store::PageRows

namespace cadastre::service {

/// {layer_key?: layer, "total", "pagina", "limite", member: records}; the first member is
/// left out when `layer` is empty (layer_key: "camada", or "tabela" for domain tables).
std::string page_envelope(const store::PageRows& page, const query::Paging& paging,
                          std::string_view member, std::string_view layer = {},
                          std::string_view layer_key = "camada");

}  // namespace cadastre::service
