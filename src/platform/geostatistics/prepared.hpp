// A layer's samples ready for the variogram and kriging: the geometries with a value in the
// field (and the check field true), ln(value) for a log model, projected to the UTM zone of
// their centroid (cadastre::geostat::project_to_utm).
#pragma once

#include "cadastre/geostat.hpp"
#include "platform/geostatistics/samples.hpp"

namespace cadastre::platform::geostatistics {

struct Prepared {
  geostat::ProjectedSamples projected;
  std::vector<std::int64_t> geometries;  ///< the sample's geometry, in the order of the samples
};

/// Fewer than 3 samples → 422; a non-positive value with `log` → 400 naming the field's
/// parameter and the first geometries with one.
Prepared prepare_samples(const service::Scope& s, std::int64_t layer, const FieldParam& field,
                         const std::optional<FieldParam>& check, bool log);

}  // namespace cadastre::platform::geostatistics
