// The platform's paging: pageNumber (1-based), pageSize (default 10, at most 1000),
// orderBy (one of the columns the route declares) and direction (asc|desc). The route
// table declares them with page_params(), so an undeclared column or direction is a 400
// before the handler runs; answers share one envelope.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cadastre/query.hpp"
#include "http/http.hpp"
#include "store/sql.hpp"

namespace cadastre::platform {

/// The four paging parameters of a route whose lists may be ordered by `columns`.
std::vector<http::Param> page_params(std::vector<std::string> columns);

struct Page {
  query::Paging paging;
  std::string order_by;  ///< one of the route's columns
  bool descending = false;
};

/// The request's page (400 for a page or size out of range), ordered by `default_order`
/// unless orderBy names another declared column; descending when `direction` says so, or
/// by default when `newest_first`.
Page parse_page(const http::Request& req, std::string_view default_order, bool newest_first = false);

/// {"content": [...], "pageNumber", "pageSize", "totalElements", "totalPages"}.
std::string page_json(const store::PageRows& rows, const Page& page);

}  // namespace cadastre::platform
