#include <limits>
#include <string>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "query/params.hpp"

namespace cadastre::query {

Paging normalize_paging(const QueryParams& params) {
  constexpr auto int64_max = std::numeric_limits<std::int64_t>::max();
  auto page = detail::single(params, {"page", "pageNumber"});
  auto size = detail::single(params, {"limit", "page_size", "pageSize"});
  auto offset = detail::single(params, {"offset"});

  Paging p;
  if (size) p.size = parse_integer(size->value, size->name, 1, max_page_size);
  if (page && offset) {
    throw Error(errc::invalid_argument,
                "informe '" + std::string(page->name) + "' ou 'offset', não ambos", "offset");
  }
  if (offset) {
    p.offset = parse_integer(offset->value, "offset", 0, int64_max - p.size);
    p.page = p.offset / p.size + 1;
  } else if (page) {
    // The last row of the page, offset + size, must stay representable.
    p.page = parse_integer(page->value, page->name, 1, int64_max / p.size);
    p.offset = (p.page - 1) * p.size;
  }
  return p;
}

}  // namespace cadastre::query
