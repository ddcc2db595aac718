// The PVG profile: see pvg.hpp.
#include "platform/imports/pvg.hpp"

#include <simdjson.h>

#include <chrono>
#include <regex>
#include <set>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "core/json_in.hpp"
#include "platform/imports/input.hpp"

namespace cadastre::platform::imports {
namespace {

using simdjson::dom::element;
using simdjson::dom::object;

constexpr std::string_view kUnit = "R$/m²";

Error refused(const std::string& what, std::string_view field = "file") {
  return Error(errc::invalid_argument, "PVG: " + what, std::string(field));
}

std::string family(std::string_view type) {
  if (type == "LineString" || type == "MultiLineString") return "faces";
  if (type == "Polygon" || type == "MultiPolygon") return "zonas";
  return {};
}

void check_header(object h, std::string_view field) {
  auto text = [&](std::string_view key) {
    auto v = jsonin::find(h, key);
    if (!v || !v->is_string() || std::string_view(*v).empty())
      throw refused("pvg." + std::string(key) + " deve ser um texto não vazio", field);
    return std::string(std::string_view(*v));
  };
  text("municipio");
  text("versao");
  static const std::regex kDate(R"(\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]))");
  if (!std::regex_match(text("data"), kDate)) throw refused("pvg.data deve ser AAAA-MM-DD", field);
  if (text("unidade") != kUnit) throw refused("pvg.unidade deve ser \"R$/m²\"", field);
}

// Checks the features; `each` sees every one (geometry element, codigo, valor_m2).
template <class F>
void check_features(object root, std::string_view field, F&& each) {
  auto features = jsonin::find(root, "features");
  if (!features || !features->is_array()) throw refused("falta o membro features (uma lista)", field);
  std::set<std::string> codes;
  std::string kind;
  std::int64_t n = 0;
  for (element f : simdjson::dom::array(*features)) {
    ++n;
    std::string at = "feição " + std::to_string(n) + ": ";
    if (n > kMaxFeatures) throw Error(errc::payload_too_large, "PVG: mais de " + std::to_string(kMaxFeatures) + " feições", std::string(field));
    if (!f.is_object()) throw refused(at + "não é um objeto", field);
    object fo = f;
    auto geom = jsonin::find(fo, "geometry");
    if (!geom || !geom->is_object()) throw refused(at + "sem geometria", field);
    auto type = jsonin::find(object(*geom), "type");
    std::string fam = type && type->is_string() ? family(std::string_view(*type)) : "";
    if (fam.empty()) throw refused(at + "a geometria deve ser LineString/MultiLineString (faces) ou Polygon/MultiPolygon (zonas)", field);
    if (kind.empty()) kind = fam;
    if (fam != kind) throw refused(at + "faces e zonas misturadas: um PVG é de faces ou de zonas", field);
    auto props = jsonin::find(fo, "properties");
    if (!props || !props->is_object()) throw refused(at + "sem properties", field);
    auto codigo = jsonin::find(object(*props), "codigo");
    if (!codigo || !codigo->is_string() || std::string_view(*codigo).empty())
      throw refused(at + "properties.codigo deve ser um texto não vazio", field);
    std::string code{std::string_view(*codigo)};
    if (!codes.insert(code).second) throw refused(at + "codigo repetido: " + code, field);
    auto valor = jsonin::find(object(*props), "valor_m2");
    if (!valor || !valor->is_number()) throw refused(at + "properties.valor_m2 deve ser um número", field);
    double v = jsonin::to_number(*valor, "valor_m2");
    if (!(v > 0) || v > 1e9) throw refused(at + "valor_m2 deve ser positivo", field);
    each(*geom, code, v);
  }
  if (n == 0) throw refused("nenhuma feição", field);
}

// The positions under a GeoJSON "coordinates" value (a position is an array of numbers).
std::uint64_t positions(element e) {
  if (!e.is_array()) return 0;
  simdjson::dom::array a = e;
  auto first = a.begin();
  if (first != a.end() && (*first).is_number()) return 1;
  std::uint64_t n = 0;
  for (element child : a) n += positions(child);
  return n;
}

// The vertices of every geometry under `e` (features, collections, geometries).
std::uint64_t vertices_in(element e) {
  if (e.is_array()) {
    std::uint64_t n = 0;
    for (element child : simdjson::dom::array(e)) n += vertices_in(child);
    return n;
  }
  if (!e.is_object()) return 0;
  object o = e;
  std::uint64_t n = 0;
  for (auto [key, value] : o) {
    if (key == "coordinates") n += positions(value);
    else if (key == "geometry" || key == "geometries" || key == "features") n += vertices_in(value);
  }
  return n;
}

void refuse_vertices(std::uint64_t n, std::string_view field) {
  if (n > kMaxGeoJsonVertices)
    throw Error(errc::payload_too_large,
                "o GeoJSON tem " + std::to_string(n) + " vértices; o limite é " + std::to_string(kMaxGeoJsonVertices),
                std::string(field));
}

object root_of(simdjson::dom::parser& parser, std::string_view doc, std::string_view field) {
  element root;
  try {
    root = jsonin::parse(parser, doc);
  } catch (const Error&) {
    throw refused("não é um JSON legível", field);
  }
  if (!root.is_object()) throw refused("deve ser um objeto FeatureCollection", field);
  object o = root;
  auto type = jsonin::find(o, "type");
  if (!type || !type->is_string() || std::string_view(*type) != "FeatureCollection")
    throw refused("type deve ser FeatureCollection", field);
  return o;
}

}  // namespace

void check_pvg(std::string_view doc) {
  simdjson::dom::parser parser;
  object root = root_of(parser, doc, "file");
  auto h = jsonin::find(root, "pvg");
  if (!h || !h->is_object()) throw refused("falta o membro pvg {municipio, versao, data, unidade}");
  check_header(*h, "file");
  std::uint64_t n = 0;
  check_features(root, "file", [&](element geom, const std::string&, double) { n += vertices_in(geom); });
  refuse_vertices(n, "file");
}

void check_geojson_vertices(std::string_view doc, std::string_view field) {
  simdjson::dom::parser parser;
  element root;
  try {
    root = jsonin::parse(parser, doc);
  } catch (const Error&) {
    throw refused("não é um JSON legível", field);
  }
  refuse_vertices(vertices_in(root), field);
}

std::string pvg_header(std::string_view doc) {
  simdjson::dom::parser parser;
  object root = root_of(parser, doc, "file");
  auto h = jsonin::find(root, "pvg");
  return h ? simdjson::minify(*h) : "{}";
}

std::string export_pvg(std::string_view geojson, const std::string& municipio) {
  simdjson::dom::parser parser;
  object root = root_of(parser, geojson, "corpo");
  JsonWriter w;
  w.begin_object().key("type").value("FeatureCollection").key("pvg");
  if (auto h = jsonin::find(root, "pvg")) {
    if (!h->is_object()) throw refused("pvg deve ser um objeto", "pvg");
    check_header(*h, "pvg");
    w.raw(simdjson::minify(*h));
  } else {
    auto today = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
    std::chrono::year_month_day ymd{today};
    char date[16];
    std::snprintf(date, sizeof date, "%04d-%02u-%02u", static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                  static_cast<unsigned>(ymd.day()));
    w.begin_object().key("municipio").value(municipio).key("versao").value("1").key("data").value(date);
    w.key("unidade").value(kUnit).end_object();
  }
  w.key("features").begin_array();
  check_features(root, "corpo", [&](element geom, const std::string& codigo, double valor) {
    w.begin_object().key("type").value("Feature").key("geometry").raw(simdjson::minify(geom));
    w.key("properties").begin_object().key("codigo").value(codigo).key("valor_m2").value(valor).end_object();
    w.end_object();
  });
  w.end_array().end_object();
  return std::move(w).str();
}

}  // namespace cadastre::platform::imports
