// Private: tile edges in lon/lat and the edge-exact column/row of a coordinate.
//
// Every lon/lat tile edge in the module is computed by tile_lon/tile_lat, so neighbouring
// tiles share bit-identical edges and "is this point on the edge" comparisons agree with
// the squares handed to GEOS.
#pragma once

#include <cstdint>

namespace cadastre::tiles::edges {

/// Longitude of the west edge of column x at zoom z (x = 2^z gives 180). Exact.
double tile_lon(std::int64_t x, int z) noexcept;
/// Latitude of the north edge of row y at zoom z (y = 2^z gives -max_latitude).
double tile_lat(std::int64_t y, int z) noexcept;
/// Column owning `lon` (in [-180, 180]): west edges belong to their column, 180 to the last.
int column_for(double lon, int z) noexcept;
/// Row owning `lat` (clamped to ±max_latitude): north edges belong to their row, the
/// southern limit to the last row.
int row_for(double lat, int z) noexcept;

}  // namespace cadastre::tiles::edges
