// A tenant's published projects in the platform's catalog of maps (plataforma.wikimap_mapas,
// migration platform/0006), which the wiki map shows to every tenant: the projects area
// refreshes it when a project's publication or state changes, so a map published in one
// tenant is in every other tenant's catalog at once.
#pragma once

#include "service/caller.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::projects {

/// Brings the caller's tenant's catalog entries in line with its published, active
/// projects: new ones created (title and description from the project, organisation the
/// tenant's name), unpublished ones hidden, the others' title and description refreshed
/// unless their owner edited them. `platform` is the platform database.
void refresh_catalog(store::Pool& platform, const service::Caller& caller);

}  // namespace cadastre::platform::projects
