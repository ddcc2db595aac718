#include <string>

#include "cadastre/query.hpp"
#include "query/params.hpp"

namespace cadastre::query {

ListQuery parse_list_query(const QueryParams& params) {
  ListQuery q;
  q.paging = normalize_paging(params);
  q.filters = parse_filters(params);
  q.sort = parse_sort(params);
  q.bbox = parse_bbox(params);
  if (auto f = detail::single(params, {"format"})) q.format = std::string(f->value);
  return q;
}

}  // namespace cadastre::query
