// Thumbnails of stored photos (GET /arquivos/fotos/:id?miniatura=true): the image scaled
// down with GDAL (already linked for the raster layers) so its larger side is at most
// `side` pixels, keeping its proportions (never scaled up), as PNG.
#pragma once

#include <string>
#include <string_view>

namespace cadastre::platform::files {

/// The PNG thumbnail of a PNG, JPEG, GIF or WebP image; 422 when GDAL cannot read it or
/// it has more than 100 megapixels.
std::string thumbnail(std::string_view image, int side);

}  // namespace cadastre::platform::files
