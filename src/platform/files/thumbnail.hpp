// Thumbnails of stored photos (GET /arquivos/fotos/:id?miniatura=true): the image scaled
// down with GDAL (already linked for the raster layers) so its larger side is at most
// `side` pixels, keeping its proportions (never scaled up), as PNG.
//
// Decoding a photo costs in proportion to its pixels (an interlaced PNG is even decoded
// whole into memory), so it happens once and never in a request: when the image is
// stored, a job of the previews lane (jobs.hpp, Lane::previews: one worker per process)
// makes a preview of kPreviewSide pixels and keeps it beside it (Storage::put_preview),
// and every thumbnail a request asks for is scaled from that preview. What the image
// declares is checked against the limits before GDAL decodes a pixel.
#pragma once

#include <string>
#include <string_view>

#include "cadastre/limits.hpp"

namespace cadastre::platform::files {

/// The larger side of an image's stored preview, and so of any thumbnail (?tamanho ≤ 1024).
inline constexpr int kPreviewSide = 1024;

/// The PNG thumbnail of a PNG, JPEG, GIF or WebP image. 413 (field "file") when what it
/// declares is over `limits` (an interlaced PNG counts four times its pixels: it is
/// decoded whole); 422 when GDAL cannot read it.
std::string thumbnail(std::string_view image, int side, const limits::RasterLimits& limits);

}  // namespace cadastre::platform::files
