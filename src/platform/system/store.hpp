// The statements of the platform's system routes: migration level and the PostGIS half of
// /teste/geom.
#pragma once

#include <string>

#include "store/pool.hpp"

namespace cadastre::platform::system {

/// The newest migration applied to the database behind `pool` for `set` ("platform").
std::string migration_level(store::Pool& pool, const std::string& set);

/// PostGIS's reading of `wkt` (SIRGAS 2000): its text back, validity and area on the
/// spheroid in m².
struct PostgisRoundTrip {
  std::string wkt;
  bool valid = false;
  double area_m2 = 0;
  std::string postgis_version;
};
PostgisRoundTrip postgis_round_trip(store::Pool& pool, const std::string& wkt);

}  // namespace cadastre::platform::system
