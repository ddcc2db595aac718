#include "platform/paging.hpp"

#include <cstdint>

#include "cadastre/json.hpp"

namespace cadastre::platform {

std::vector<http::Param> page_params(std::vector<std::string> columns) {
  return {{.name = "pageNumber", .type = "integer", .description = "página, a partir de 1"},
          {.name = "pageSize", .type = "integer", .description = "registros por página (padrão 10, no máximo 1000)"},
          {.name = "orderBy", .description = "coluna da ordenação", .values = std::move(columns)},
          {.name = "direction", .description = "sentido da ordenação", .values = {"asc", "desc"}}};
}

Page parse_page(const http::Request& req, std::string_view default_order, bool newest_first) {
  Page p;
  if (auto n = req.query_value("pageNumber")) p.paging.page = query::parse_integer(*n, "pageNumber", 1, INT32_MAX);
  if (auto s = req.query_value("pageSize"))
    p.paging.size = query::parse_integer(*s, "pageSize", 1, query::max_page_size);
  p.paging.offset = (p.paging.page - 1) * p.paging.size;
  p.order_by = req.query_value("orderBy").value_or(std::string(default_order));
  p.descending = req.query_value("direction").value_or(newest_first ? "desc" : "asc") == "desc";
  return p;
}

std::string page_json(const store::PageRows& rows, const Page& page) {
  std::int64_t pages = (rows.total + page.paging.size - 1) / page.paging.size;
  JsonWriter w;
  w.begin_object().key("content").raw(rows.records).key("pageNumber").value(page.paging.page);
  w.key("pageSize").value(page.paging.size).key("totalElements").value(rows.total);
  w.key("totalPages").value(pages).end_object();
  return std::move(w).str();
}

}  // namespace cadastre::platform
