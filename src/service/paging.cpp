#include "service/paging.hpp"

#include "cadastre/json.hpp"

namespace cadastre::service {

void append_page(store::Sql& sql, const query::Paging& paging) {
  sql << " limit " << std::to_string(paging.size) << " offset " << std::to_string(paging.offset);
}

PageRows fetch_page(soci::session& s, const store::Sql& sql) {
  auto rows = store::fetch(s, sql);
  PageRows page;
  if (rows.empty()) return page;
  page.total = std::stoll(rows[0].at(0).value_or("0"));
  page.records = rows[0].at(1).value_or("[]");
  return page;
}

std::string page_envelope(const PageRows& page, const query::Paging& paging, std::string_view member,
                          std::string_view layer) {
  JsonWriter w;
  w.begin_object();
  if (!layer.empty()) w.key("camada").value(layer);
  w.key("total").value(page.total).key("pagina").value(paging.page).key("limite").value(paging.size);
  w.key(member).raw(page.records).end_object();
  return std::move(w).str();
}

}  // namespace cadastre::service
