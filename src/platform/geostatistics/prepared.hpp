// A layer's samples ready for the variogram and kriging: the geometries with a value in the
// field (and the check field true), ln(value) for a log model, projected to the UTM zone of
// their centroid (cadastre::geostat::project_to_utm) or to a stored model's zone.
#pragma once

#include <optional>
#include <string>

#include "cadastre/geostat.hpp"
#include "platform/geostatistics/samples.hpp"

namespace cadastre::platform::geostatistics {

struct Prepared {
  geostat::ProjectedSamples projected;
  std::vector<std::int64_t> geometries;  ///< the sample's geometry, in the order of the samples
};

/// Fewer than 3 samples → 422; a non-positive value with `log` → 400 naming the field's
/// parameter and the first geometries with one. Without `epsg` the samples go to the UTM
/// zone of their centroid; with it (a model's zone) to that CRS, each checked by
/// check_in_zone (422 naming the farthest geometry).
Prepared prepare_samples(const service::Caller& s, std::int64_t layer, const FieldParam& field,
                         const std::optional<FieldParam>& check, bool log, std::optional<int> epsg = std::nullopt);

/// How far (degrees of longitude) a sample or a kriging domain may lie from the central
/// meridian of the model's UTM zone. A zone is 6° wide (±3°); UTM's formulas stay exact
/// well beyond, but its scale error grows with the square of the distance: at 6° it is
/// about +0.5% (k ≈ 1.005 at the equator, less south), so ranges and cells in metres are
/// still those the model was fitted with; past it the error grows fast (≈ +1.4% at 10°)
/// and the samples belong to another zone's model.
constexpr double kMaxDegreesFromMeridian = 6.0;

/// The central meridian of a SIRGAS 2000 / UTM CRS (31978–31985: zones 18–25; 5396: 26).
double central_meridian(int epsg);

/// 422 (field `field`) when `lon` lies more than kMaxDegreesFromMeridian from the central
/// meridian of `epsg`; `what` names the place in the message ("a amostra 12").
void check_in_zone(double lon, int epsg, const std::string& what, const std::string& field);

}  // namespace cadastre::platform::geostatistics
