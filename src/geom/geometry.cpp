// Geometry: lifetime, parsing, output and simple properties.
#include <cctype>
#include <charconv>
#include <cstring>

#include "cadastre/error.hpp"
#include "geom/geos.hpp"

namespace cadastre::geom {
namespace {

using GeosString = std::unique_ptr<char, GeosFree>;
using GeosBytes = std::unique_ptr<unsigned char, GeosFree>;

bool iequals_prefix(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
  }
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

// ---- lifetime -------------------------------------------------------------------------

Geometry::Geometry() : g_(GEOSGeom_createEmptyCollection_r(geos(), GEOS_GEOMETRYCOLLECTION)) {
  if (!g_) throw_geos("falha ao criar geometria vazia");
}

Geometry::Geometry(const Geometry& other) : g_(GEOSGeom_clone_r(geos(), other.get())) {
  if (!g_) throw_geos("falha ao copiar geometria");
}

Geometry::Geometry(Geometry&& other) noexcept : g_(other.g_) { other.g_ = nullptr; }

Geometry& Geometry::operator=(const Geometry& other) {
  if (this != &other) *this = Geometry(other);
  return *this;
}

Geometry& Geometry::operator=(Geometry&& other) noexcept {
  if (this != &other) {
    if (g_) GEOSGeom_destroy_r(geos(), g_);
    g_ = other.g_;
    other.g_ = nullptr;
  }
  return *this;
}

Geometry::~Geometry() {
  if (g_) GEOSGeom_destroy_r(geos(), g_);
}

GEOSGeom_t* Geometry::get() const {
  if (!g_) throw Error(errc::internal, "geometria usada depois de movida");
  return g_;
}

// ---- parsing ----------------------------------------------------------------------------

Geometry Geometry::from_wkt(std::string_view wkt) {
  wkt = trim(wkt);
  int srid = 0;
  // PostGIS EWKT: "SRID=4674;POLYGON(...)". GEOS 3.11 does not read the prefix itself.
  if (iequals_prefix(wkt, "srid=")) {
    auto semi = wkt.find(';');
    auto digits = wkt.substr(5, semi == std::string_view::npos ? 0 : semi - 5);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), srid);
    if (semi == std::string_view::npos || digits.empty() || ec != std::errc() ||
        end != digits.data() + digits.size()) {
      throw Error(errc::invalid_geometry, "EWKT inválido: prefixo SRID malformado");
    }
    wkt = trim(wkt.substr(semi + 1));
  }
  if (wkt.empty()) throw Error(errc::invalid_geometry, "WKT inválido: texto vazio");
  std::string text(wkt);  // GEOS wants a NUL-terminated string
  take_geos_message();
  return GeometryAccess::adopt(GEOSWKTReader_read_r(geos(), wkt_reader(), text.c_str()), srid, "WKT inválido");
}

Geometry Geometry::from_wkb(std::span<const std::uint8_t> wkb) {
  if (wkb.empty()) throw Error(errc::invalid_geometry, "WKB inválido: vazio");
  take_geos_message();
  GEOSGeometry* g = GEOSWKBReader_read_r(geos(), wkb_reader(), wkb.data(), wkb.size());
  return GeometryAccess::adopt(g, "WKB inválido");
}

Geometry Geometry::from_wkb(std::string_view wkb) {
  return from_wkb(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(wkb.data()), wkb.size()));
}

Geometry Geometry::from_hex_wkb(std::string_view hex) {
  hex = trim(hex);
  if (hex.size() >= 2 && hex[0] == '\\' && (hex[1] == 'x' || hex[1] == 'X')) hex.remove_prefix(2);
  if (hex.empty()) throw Error(errc::invalid_geometry, "WKB hexadecimal inválido: vazio");
  take_geos_message();
  GEOSGeometry* g = GEOSWKBReader_readHEX_r(geos(), wkb_reader(),
                                            reinterpret_cast<const unsigned char*>(hex.data()), hex.size());
  return GeometryAccess::adopt(g, "WKB hexadecimal inválido");
}

Geometry Geometry::from_geojson(std::string_view geojson, int srid) {
  if (trim(geojson).empty()) throw Error(errc::invalid_geometry, "GeoJSON inválido: texto vazio");
  std::string text(geojson);
  take_geos_message();
  GEOSGeometry* g = GEOSGeoJSONReader_readGeometry_r(geos(), geojson_reader(), text.c_str());
  return GeometryAccess::adopt(g, srid, "GeoJSON inválido");
}

Geometry Geometry::point(double x, double y, int srid) {
  return GeometryAccess::adopt(GEOSGeom_createPointFromXY_r(geos(), x, y), srid, "falha ao criar ponto");
}

// ---- output -----------------------------------------------------------------------------

std::string Geometry::to_wkt(int decimals) const {
  GEOSWKTWriter* w = wkt_writer();
  GEOSWKTWriter_setRoundingPrecision_r(geos(), w, decimals < 0 ? -1 : decimals);
  GeosString s(GEOSWKTWriter_write_r(geos(), w, get()));
  if (!s) throw_geos("falha ao escrever WKT");
  return s.get();
}

std::vector<std::uint8_t> Geometry::to_wkb(bool include_srid) const {
  GEOSWKBWriter* w = wkb_writer();
  GEOSWKBWriter_setIncludeSRID_r(geos(), w, include_srid ? 1 : 0);
  std::size_t size = 0;
  GeosBytes bytes(GEOSWKBWriter_write_r(geos(), w, get(), &size));
  if (!bytes) throw_geos("falha ao escrever WKB");
  return {bytes.get(), bytes.get() + size};
}

std::string Geometry::to_hex_wkb(bool include_srid) const {
  GEOSWKBWriter* w = wkb_writer();
  GEOSWKBWriter_setIncludeSRID_r(geos(), w, include_srid ? 1 : 0);
  std::size_t size = 0;
  GeosBytes hex(GEOSWKBWriter_writeHEX_r(geos(), w, get(), &size));
  if (!hex) throw_geos("falha ao escrever WKB hexadecimal");
  return {reinterpret_cast<const char*>(hex.get()), size};
}

std::string Geometry::to_geojson(int indent) const {
  GeosString s(GEOSGeoJSONWriter_writeGeometry_r(geos(), geojson_writer(), get(), indent < 0 ? -1 : indent));
  if (!s) throw_geos("falha ao escrever GeoJSON");
  return s.get();
}

// ---- properties -------------------------------------------------------------------------

int Geometry::srid() const { return GEOSGetSRID_r(geos(), get()); }

void Geometry::set_srid(int srid) { GEOSSetSRID_r(geos(), get(), srid); }

bool Geometry::is_empty() const {
  char r = GEOSisEmpty_r(geos(), get());
  if (r == 2) throw_geos("falha ao testar geometria vazia");
  return r == 1;
}

std::string Geometry::type_name() const {
  GeosString s(GEOSGeomType_r(geos(), get()));
  if (!s) throw_geos("falha ao obter o tipo da geometria");
  return s.get();
}

int Geometry::dimension() const { return GEOSGeom_getDimensions_r(geos(), get()); }

std::size_t Geometry::num_points() const {
  int n = GEOSGetNumCoordinates_r(geos(), get());
  if (n < 0) throw_geos("falha ao contar pontos");
  return static_cast<std::size_t>(n);
}

std::size_t Geometry::num_geometries() const {
  int n = GEOSGetNumGeometries_r(geos(), get());
  if (n < 0) throw_geos("falha ao contar componentes");
  return static_cast<std::size_t>(n);
}

Geometry Geometry::geometry_n(std::size_t i) const {
  if (i >= num_geometries()) {
    throw Error(errc::invalid_argument, "componente " + std::to_string(i) + " não existe na geometria");
  }
  // GEOSGetGeometryN returns a pointer into this geometry: clone it.
  const GEOSGeometry* part = GEOSGetGeometryN_r(geos(), get(), static_cast<int>(i));
  if (!part) throw_geos("falha ao obter componente");
  return GeometryAccess::adopt(GEOSGeom_clone_r(geos(), part), srid(), "falha ao copiar componente");
}

Point Geometry::as_point() const {
  if (GEOSGeomTypeId_r(geos(), get()) != GEOS_POINT || is_empty()) {
    throw Error(errc::invalid_geometry, "esperado um ponto não vazio, recebido " + type_name());
  }
  Point p;
  if (!GEOSGeomGetX_r(geos(), get(), &p.x) || !GEOSGeomGetY_r(geos(), get(), &p.y)) {
    throw_geos("falha ao ler coordenadas do ponto");
  }
  return p;
}

BBox Geometry::bbox() const {
  if (is_empty()) throw Error(errc::invalid_geometry, "geometria vazia não tem envelope");
  BBox b;
  auto h = geos();
  if (!GEOSGeom_getXMin_r(h, get(), &b.min_lon) || !GEOSGeom_getYMin_r(h, get(), &b.min_lat) ||
      !GEOSGeom_getXMax_r(h, get(), &b.max_lon) || !GEOSGeom_getYMax_r(h, get(), &b.max_lat)) {
    throw_geos("falha ao calcular envelope");
  }
  return b;
}

}  // namespace cadastre::geom
