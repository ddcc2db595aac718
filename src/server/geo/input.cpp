#include "server/geo/input.hpp"

#include <cmath>
#include <cstdio>
#include <set>

#include <simdjson.h>

#include "cadastre/bbox.hpp"
#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"

namespace cadastre::server {
namespace {

// A query geometry is matched against every feature of a layer: a bound on its size keeps
// one request from tying up a database connection with a million-vertex polygon.
constexpr std::size_t kMaxPoints = 100000;

std::string where(const geom::Point& p) {
  char buf[64];
  std::snprintf(buf, sizeof buf, " em (%.7f %.7f)", p.x, p.y);
  return buf;
}

// Parse errors keep the library's message and name the parameter the text came from.
template <class Parse>
geom::Geometry parse(std::string_view field, Parse&& fn) {
  try {
    return fn();
  } catch (const Error& e) {
    throw Error(errc::invalid_geometry, std::string(e.what()) + " em '" + std::string(field) + "'", std::string(field));
  }
}

}  // namespace

QueryGeometry prepare_geometry(geom::Geometry g, std::string_view field) {
  const std::string f(field);
  if (g.is_empty()) throw Error(errc::invalid_geometry, "geometria vazia em '" + f + "'", f);
  if (g.num_points() > kMaxPoints)
    throw Error(errc::invalid_geometry,
                "geometria com pontos demais em '" + f + "' (máximo " + std::to_string(kMaxPoints) + ")", f);
  auto v = g.validity();
  if (!v.valid) {
    throw Error(errc::invalid_geometry,
                "geometria inválida em '" + f + "': " + v.reason + (v.location ? where(*v.location) : std::string()), f);
  }
  int srid = g.srid();
  if (srid == 0 || srid == geom::epsg_wgs84 || srid == geom::epsg_sirgas2000) {
    g.set_srid(geom::epsg_sirgas2000);  // lon/lat; SIRGAS 2000 and WGS 84 coincide at this scale
  } else {
    try {
      g = geom::transform(g, geom::epsg_sirgas2000);
    } catch (const Error& e) {
      throw Error(errc::invalid_geometry, "não foi possível converter a geometria de '" + f + "' (SRID " +
                                              std::to_string(srid) + ") para SIRGAS 2000: " + e.what(), f);
    }
  }
  geom::BBox b = g.bbox();
  if (!(b.min_lon >= -180 && b.max_lon <= 180 && b.min_lat >= -90 && b.max_lat <= 90)) {
    throw Error(errc::invalid_geometry,
                "coordenadas fora de longitude/latitude em '" + f + "': envie lon/lat (EPSG:4674 ou 4326)", f);
  }
  QueryGeometry out{std::move(g), {}};
  out.ewkb_hex = out.geometry.to_hex_wkb(true);
  return out;
}

QueryGeometry geometry_from_geojson(std::string_view geojson, std::string_view field) {
  return prepare_geometry(parse(field, [&] { return geom::Geometry::from_geojson(geojson, geom::epsg_sirgas2000); }), field);
}

QueryGeometry geometry_from_query(const http::Request& req) {
  auto wkt = req.query_value("wkt");
  auto geojson = req.query_value("geojson");
  auto bbox = geom::BBox::from_query([&](std::string_view n) { return req.query_value(n); });
  int given = (wkt ? 1 : 0) + (geojson ? 1 : 0) + (bbox ? 1 : 0);
  if (given == 0)
    throw Error(errc::missing_field,
                "informe a geometria: 'wkt', 'geojson' ou a bbox (minLongitude, minLatitude, maxLongitude, maxLatitude)",
                "wkt");
  if (given > 1)
    throw Error(errc::invalid_argument, "informe só uma geometria: 'wkt', 'geojson' ou a bbox, não mais de uma", "wkt");
  if (wkt) return prepare_geometry(parse("wkt", [&] { return geom::Geometry::from_wkt(*wkt); }), "wkt");
  if (geojson) return geometry_from_geojson(*geojson, "geojson");
  // A degenerate box (min == max) is a point or a line: its polygon would have zero area
  // and be invalid, so the envelope (a Point or LineString) stands for it.
  geom::Geometry polygon = bbox->to_polygon(geom::epsg_sirgas2000);
  if (bbox->min_lon == bbox->max_lon || bbox->min_lat == bbox->max_lat) polygon = polygon.envelope();
  return prepare_geometry(std::move(polygon), "minLongitude");
}

}  // namespace cadastre::server

namespace cadastre::server::geo {

namespace {
constexpr std::size_t kBodyMaxLayers = 20;
}

LayersBody LayersBody::parse(const std::string& body) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  for (auto [key, value] : o) {
    if (key != "geometria" && key != "camadas" && key != "limite")
      throw Error(errc::unknown_field, "campo desconhecido no corpo: '" + std::string(key) + "'", std::string(key));
  }
  auto g = jsonin::find(o, "geometria");
  if (!g) throw Error(errc::missing_field, "campo obrigatório ausente: 'geometria' (geometria GeoJSON)", "geometria");
  if (!g->is_object()) throw Error(errc::invalid_geometry, "'geometria' deve ser um objeto GeoJSON", "geometria");
  LayersBody out{geometry_from_geojson(simdjson::minify(*g), "geometria"), {}, 100};
  auto list = jsonin::find(o, "camadas");
  if (!list) throw Error(errc::missing_field, "campo obrigatório ausente: 'camadas' (lista de nomes)", "camadas");
  std::set<std::string, std::less<>> seen;
  for (auto e : jsonin::as_array(*list, "camadas")) {
    std::string name = jsonin::to_string(e, "camadas");
    if (!seen.insert(name).second) throw Error(errc::invalid_argument, "camada repetida: " + name, "camadas");
    out.layers.push_back(std::move(name));
  }
  if (out.layers.empty() || out.layers.size() > kBodyMaxLayers)
    throw Error(errc::invalid_argument, "'camadas' deve ter de 1 a " + std::to_string(kBodyMaxLayers) + " nomes",
                "camadas");
  if (auto l = jsonin::opt_integer(o, "limite")) {
    if (*l < 1 || *l > query::max_page_size)
      throw Error(errc::invalid_argument, "'limite' deve estar entre 1 e " + std::to_string(query::max_page_size),
                  "limite");
    out.limit = *l;
  }
  return out;
}

RelationMode parse_relation_mode(std::string_view text) {
  if (text == "chave") return RelationMode::key;
  if (text == "espacial") return RelationMode::spatial;
  throw Error(errc::invalid_argument, "modo deve ser 'chave' ou 'espacial'", "modo");
}

std::string_view to_string(RelationMode mode) noexcept { return mode == RelationMode::key ? "chave" : "espacial"; }

}  // namespace cadastre::server::geo
