#include "service/paging.hpp"

#include "cadastre/json.hpp"

namespace cadastre::service {

std::string page_envelope(const store::PageRows& page, const query::Paging& paging,
                          std::string_view member, std::string_view layer,
                          std::string_view layer_key) {
  JsonWriter w;
  w.begin_object();
  if (!layer.empty()) w.key(layer_key).value(layer);
  w.key("total")
      .value(page.total)
      .key("pagina")
      .value(paging.page)
      .key("limite")
      .value(paging.size);
  w.key(member).raw(page.records).end_object();
  return std::move(w).str();
}

}  // namespace cadastre::service
