// What other areas call to keep the wiki map's catalog in line with the projects: the
// projects area refreshes it when a project's publication or state changes, so a map
// published in one tenant is in the catalog of every other tenant at once.
#pragma once

#include "service/caller.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::wikimap {

/// Brings the caller's tenant's catalog entries in line with its published, active
/// projects (new ones created, unpublished ones hidden). `platform` is the platform database.
void refresh_catalog(store::Pool& platform, const service::Caller& scope);

}  // namespace cadastre::platform::wikimap
