// A GeoTIFF import: the check at once (the request answers 400 naming why), then a job of
// the platform's runner (jobs.hpp, tipo 'tiff') that converts the file to a Cloud Optimized
// GeoTIFF and creates the tiff layer. All or nothing: the layer's row, its file and the
// job's final row commit together; a failure leaves no layer and no file (the uploaded
// bytes wait in <tenant>/importacoes/tiff/ of the file store until the job ends, then go).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "platform/jobs/jobs.hpp"
#include "cadastre/limits.hpp"
#include "platform/common/files.hpp"

namespace cadastre::platform::rasters {

struct Upload {
  std::int64_t projeto = 0;
  std::string nome;                   ///< the layer to create
  std::string arquivo;                ///< the uploaded file's name (shown in the job's parameters)
  std::optional<std::string> codigo;  ///< idempotency key (jobs.hpp)
  limits::RasterLimits limits;        ///< what the file may declare (413 above it, before the job)
};

/// Checks `bytes` and submits the job as `scope`'s user; the caller has checked admin on
/// the project. Returns the job's JSON (its id in "idImportacao").
std::string submit(jobs::Runner& runner, const common::FileStore& files, const service::Scope& scope,
                   const Upload& up, const std::string& bytes);
/// The same for a file already in the store (`file`, relative to its root: an upload that
/// came in parts): it is moved into the staging folder, so it is the job's (or gone, when
/// the check refuses it).
std::string submit_file(jobs::Runner& runner, const common::FileStore& files, const service::Scope& scope,
                        const Upload& up, const std::string& file);
/// The job of tipo 'tiff' on whichever instance claimed it (register it with
/// Runner::handle): the layer's file is reserved against the quota (`platform`) until its
/// row commits.
void run(jobs::Context& ctx, const common::FileStore& files, store::Pool& platform);
/// "<slug>/importacoes/tiff" (relative to the store's root), with the uploads older than a
/// day swept away.
std::string staging_folder(const common::FileStore& files, const std::string& slug);

}  // namespace cadastre::platform::rasters
