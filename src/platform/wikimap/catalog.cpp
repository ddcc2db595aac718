#include "platform/wikimap/catalog.hpp"

#include "platform/wikimap/store.hpp"

namespace cadastre::platform::wikimap {

void refresh_catalog(store::Pool& platform, const service::Caller& scope) {
  sync_tenant(platform, scope.tenant.id, scope.tenant.nome, published_projects(*scope.db));
}

}  // namespace cadastre::platform::wikimap
