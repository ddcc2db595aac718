#include <string>

#include "cadastre/query.hpp"
#include "query/params.hpp"

namespace cadastre::query {

std::optional<BBox> parse_bbox(const QueryParams& params) {
  return BBox::from_query([&params](std::string_view name) -> std::optional<std::string> {
    auto found = detail::single(params, {name});  // a repeated key is an error
    if (!found) return std::nullopt;
    return std::string(found->value);
  });
}

}  // namespace cadastre::query
