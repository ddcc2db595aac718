// The statement of the health probes.
#pragma once

#include <string>

#include "store/pool.hpp"

namespace cadastre::server::health {

/// "ok" when `pool` answers a trivial query; otherwise why not (the catalog message of a
/// translated error, "falha" for any other failure, whose text is for the log only).
std::string ping(store::Pool& pool);

}  // namespace cadastre::server::health
