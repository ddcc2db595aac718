// A WMS capabilities document (1.1.1 or 1.3.0) read into what the platform needs: the
// service's title, where GetMap goes, the image formats it serves and its named layers with
// their coordinate systems and lon/lat extent (both inherited from parent layers, as the
// standard says). Parsed with GDAL's small XML parser (CPLParseXMLString), which never
// fetches anything; a document with a DTD or entity declarations is refused outright, so
// no entity expansion can be smuggled in ("billion laughs", external entities).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cadastre::platform::wms {

struct Layer {
  std::string nome, titulo;
  std::vector<std::string> crs;                ///< "EPSG:4674", "CRS:84"... (with the inherited ones)
  std::optional<std::array<double, 4>> bbox;   ///< minlon, minlat, maxlon, maxlat
};

struct Capabilities {
  std::string versao;   ///< "1.1.1" or "1.3.0"
  std::string titulo;   ///< the service's title
  std::string url_mapa; ///< GetMap's online resource (empty when the document names none)
  std::vector<std::string> formatos;  ///< GetMap formats ("image/png"...)
  std::vector<Layer> camadas;         ///< named layers, in document order

  const Layer* find(std::string_view nome) const;
};

/// Throws Error(errc::upstream_failed) naming what is wrong: not XML, a DTD or entity
/// declaration, not a WMS capabilities document, another version, too many layers or too
/// deep a nesting.
Capabilities parse(std::string_view xml);

/// [{"nome","titulo","crs":[...],"bbox":[minlon,minlat,maxlon,maxlat]|null}, ...]
std::string layers_json(const std::vector<Layer>& layers);
/// ["image/png", ...]
std::string strings_json(const std::vector<std::string>& items);
/// {"versao","titulo","urlMapa","formatos":[...],"camadas":[...]}
std::string to_json(const Capabilities& c);

}  // namespace cadastre::platform::wms
