// GDAL handles shared by the platform's areas that read and write rasters (layers, files,
// rasters): a dataset that closes itself, and a scope in which GDAL's error handler stays
// quiet. Each area initialises GDAL itself (its configuration options differ).
#pragma once

#include <cpl_error.h>
#include <gdal.h>

#include <memory>

namespace cadastre::platform::gdal {

/// GDAL reports errors through a per-thread handler: quiet for the scope of a call; when a
/// call fails, CPLGetLastErrorMsg() holds its message.
struct Quiet {
  Quiet() {
    CPLPushErrorHandler(CPLQuietErrorHandler);
    CPLErrorReset();
  }
  ~Quiet() { CPLPopErrorHandler(); }
  Quiet(const Quiet&) = delete;
  Quiet& operator=(const Quiet&) = delete;
};

struct Closer {
  void operator()(void* ds) const { GDALClose(ds); }
};
/// An open GDAL dataset (GDALDatasetH), closed when it goes out of scope.
using Dataset = std::unique_ptr<void, Closer>;

}  // namespace cadastre::platform::gdal
