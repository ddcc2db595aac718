#include "server/users/permissions.hpp"

namespace cadastre::server::users {

void write_permissions(JsonWriter& w, const service::Scope& s) {
  auto perms = s.permissions();
  // The layer list comes from the tenant's cached catalog: no query on the hot path.
  auto catalog = s.catalog();
  w.key("regras").begin_array();
  for (const auto& p : perms) {
    w.begin_object().key("camada").value(p.camada).key("leitura").value(p.leitura).key("escrita").value(p.escrita);
    w.end_object();
  }
  w.end_array().key("camadas").begin_array();
  for (const auto& [layer, _] : catalog->layers()) {
    w.begin_object().key("camada").value(layer);
    w.key("leitura").value(s.may(layer, false)).key("escrita").value(s.may(layer, true)).end_object();
  }
  w.end_array();
}

}  // namespace cadastre::server::users
