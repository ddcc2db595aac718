// The vector tile service (the destination of the gateway's /tiles/*): Mapbox Vector Tiles
// of a tenant's layers rendered by PostGIS in one statement, TileJSON 3.0.0 per layer and
// an index of the tileable layers. Tiles carry an ETag from the layer's generation
// (auditoria.geracao_camada, bumped by every write) with Cache-Control: no-cache, so map
// clients revalidate and get 304 until the layer changes.
#include <soci/soci.h>

#include <cctype>
#include <cstdint>
#include <string_view>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "cadastre/tiles.hpp"
#include "server/layer_access.hpp"
#include "server/tiles/pg_prepared.hpp"
#include "server/tiles/store.hpp"
#include "store/sql.hpp"

namespace cadastre::server {
namespace {

using http::Request;
using http::Response;

constexpr const char* kMvt = "application/vnd.mapbox-vector-tile";
constexpr std::string_view kTileSuffix = ".pbf";
constexpr std::string_view kTileJsonSuffix = ".json";

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// z, x and "<y>.pbf" of the path, checked against the tile pyramid (400 naming the part).
tiles::Tile tile_of(const Request& req) {
  const std::string& last = req.param("y");
  if (!ends_with(last, kTileSuffix) || last.size() == kTileSuffix.size())
    throw Error(errc::invalid_argument, "o último segmento deve ser <y>.pbf, por exemplo 37053.pbf",
                "y");
  tiles::Tile t;
  t.z = static_cast<int>(query::parse_integer(req.param("z"), "z", 0, tiles::max_zoom));
  const std::int64_t last_index = tiles::tiles_per_side(t.z) - 1;
  t.x = static_cast<int>(query::parse_integer(req.param("x"), "x", 0, last_index));
  t.y = static_cast<int>(query::parse_integer(
      std::string_view(last).substr(0, last.size() - kTileSuffix.size()), "y", 0, last_index));
  if (!t.is_valid()) throw Error(errc::invalid_argument, "tile fora da pirâmide XYZ", "z");
  return t;
}

// If-None-Match holds one or more entity tags (or "*"); weak and strong forms compare equal
// (RFC 9110 weak comparison, which is what If-None-Match uses).
bool etag_matches(const Request& req, const std::string& etag) {
  const std::string* header = req.header("If-None-Match");
  if (!header) return false;
  std::string_view rest = *header;
  while (!rest.empty()) {
    auto comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    if (item.starts_with("W/")) item.remove_prefix(2);
    if (item == "*" || item == etag) return true;
  }
  return false;
}

// Scheme and host the client used, for the absolute URLs of TileJSON; an absent or odd
// Host header yields root-relative URLs instead of echoing it.
std::string public_base(const Request& req) {
  const std::string* host = req.header("Host");
  if (!host || host->empty() || host->size() > 255) return {};
  for (unsigned char c : *host)
    if (!std::isalnum(c) && c != '.' && c != '-' && c != ':' && c != '[' && c != ']') return {};
  const std::string* proto = req.header("X-Forwarded-Proto");
  return std::string(proto && *proto == "https" ? "https" : "http") + "://" + *host;
}

std::string tilejson_url(const Request& req, const std::string& layer) {
  return public_base(req) + "/tiles/" + context(req).tenant.slug + "/" + layer +
         std::string(kTileJsonSuffix);
}

Response tile(App& app, Request& req) {
  const tiles::Tile t = tile_of(req);
  auto layer = layer_for(app, req, req.param("layer"), false);
  require_tileable(*layer);
  const std::string sql = tile_sql(*layer);
  struct Outcome {
    std::string etag;
    bool not_modified = false;
    std::string mvt;
  };
  auto out = context(req).db->with([&](soci::session& s) {
    Outcome o;
    // The layer generation (bumped by every write) and the statement digest (a new
    // column changes the tiles) make the ETag.
    auto generation = run_prepared_binary(s, generation_sql(), {layer->name});
    o.etag = "\"" + generation.at(0).at(0).value_or("0") + "-" + digest(sql).substr(0, 8) + "\"";
    if (etag_matches(req, o.etag)) {
      o.not_modified = true;
      return o;
    }
    auto rows = run_prepared_binary(s, sql,
                                    {std::to_string(t.z), std::to_string(t.x), std::to_string(t.y),
                                     layer->name, layer->geometry_column});
    if (!rows.empty() && rows[0][0]) o.mvt = std::move(*rows[0][0]);
    return o;
  });
  Response r;
  if (out.not_modified) {
    r.status = 304;
    r.content_type.clear();
  } else if (out.mvt.empty()) {
    r = Response::no_content();  // no feature in this tile
  } else {
    r = Response::text(std::move(out.mvt), kMvt);
  }
  r.headers.set("ETag", out.etag);
  r.headers.set("Cache-Control", "no-cache");
  return r;
}

Response tilejson(App& app, Request& req) {
  const std::string& file = req.param("file");
  if (!ends_with(file, kTileJsonSuffix) || file.size() == kTileJsonSuffix.size())
    throw Error(errc::invalid_argument,
                "use /tiles/{municipio}/{camada}.json para o TileJSON de uma camada", "file");
  auto layer = layer_for(
      app, req, std::string_view(file).substr(0, file.size() - kTileJsonSuffix.size()), false);
  require_tileable(*layer);
  auto extent = context(req).db->with(
      [&](soci::session& s) { return store::fetch(s, store::Sql(extent_sql(*layer))); });

  JsonWriter w;
  w.begin_object().key("tilejson").value("3.0.0").key("name").value(layer->name);
  w.key("description").value("Camada " + layer->name + " do município " + context(req).tenant.nome);
  w.key("scheme").value("xyz").key("tiles").begin_array();
  w.value(public_base(req) + "/tiles/" + context(req).tenant.slug + "/" + layer->name +
          "/{z}/{x}/{y}" + std::string(kTileSuffix));
  w.end_array().key("minzoom").value(0).key("maxzoom").value(tiles::max_zoom);
  const auto& e = extent.empty() ? store::Row{} : extent[0];
  if (e.size() == 4 && e[0] && e[1] && e[2] && e[3]) {
    double b[4] = {std::stod(*e[0]), std::stod(*e[1]), std::stod(*e[2]), std::stod(*e[3])};
    w.key("bounds").begin_array().value(b[0]).value(b[1]).value(b[2]).value(b[3]).end_array();
    w.key("center")
        .begin_array()
        .value((b[0] + b[2]) / 2)
        .value((b[1] + b[3]) / 2)
        .value(16)
        .end_array();
  } else {
    // An empty layer: the whole Web Mercator world (the TileJSON default).
    w.key("bounds")
        .begin_array()
        .value(-180.0)
        .value(-tiles::max_latitude)
        .value(180.0)
        .value(tiles::max_latitude);
    w.end_array();
  }
  w.key("vector_layers").begin_array().begin_object().key("id").value(layer->name);
  w.key("description").value("geometria " + layer->column(layer->geometry_column)->geometry_type);
  w.key("minzoom").value(0).key("maxzoom").value(tiles::max_zoom).key("fields").begin_object();
  for (const auto& [name, type] : tile_fields(*layer)) w.key(name).value(type);
  w.end_object().end_object().end_array().end_object();
  Response r = Response::json(std::move(w).str());
  r.headers.set("Cache-Control", "no-cache");
  return r;
}

// The tenant's layers with geometry that the caller may read, with their TileJSON URLs.
Response index(App& app, Request& req) {
  const Context& ctx = context(req);
  auto catalog = app.catalogs().get(ctx.tenant, *ctx.db);
  auto perms = app.identity().permissions(ctx.user.user_id);
  JsonWriter w;
  w.begin_object().key("municipio").value(ctx.tenant.slug).key("camadas").begin_array();
  for (const auto& [name, layer] : catalog->layers()) {
    if (layer.geometry_column.empty() || !query::is_valid_identifier(name)) continue;
    if (!store::layer_allowed(perms, name, false, ctx.user.admin)) continue;
    const store::Column& g = *layer.column(layer.geometry_column);
    if (g.srid == 0) continue;
    w.begin_object()
        .key("id")
        .value(name)
        .key("geometria")
        .value(g.geometry_type)
        .key("srid")
        .value(g.srid);
    w.key("tilejson").value(tilejson_url(req, name)).end_object();
  }
  w.end_array().end_object();
  Response r = Response::json(std::move(w).str());
  r.headers.set("Cache-Control", "no-cache");
  return r;
}

}  // namespace

void add_tile_routes(App& app) {
  auto& srv = app.server();
  const std::string tag = "Tiles vetoriais";
  const http::Param if_none_match{
      "If-None-Match", "header", "string", false,
      "ETag de uma resposta anterior: 304 sem corpo enquanto a camada não mudar"};
  srv.add({.method = "GET",
           .pattern = "/tiles/{municipio}/{layer}/{z}/{x}/{y}",
           .auth = "bearer",
           .tag = tag,
           .summary = "Mapbox Vector Tile da camada (z de 0 a 24; o último segmento é <y>.pbf); "
                      "204 quando o tile não tem feições",
           .params = {if_none_match},
           .answers = kMvt,
           .handler = [&app](Request& r) { return tile(app, r); }});
  srv.add({.method = "GET",
           .pattern = "/tiles/{municipio}/index.json",
           .auth = "bearer",
           .tag = tag,
           .summary = "Camadas com geometria que o usuário pode ler, com as URLs dos seus TileJSON",
           .handler = [&app](Request& r) { return index(app, r); }});
  // A layer named "index" would be shadowed by the literal route above.
  srv.add({.method = "GET",
           .pattern = "/tiles/{municipio}/{file}",
           .auth = "bearer",
           .tag = tag,
           .summary = "TileJSON 3.0.0 da camada: o segmento é <camada>.json (URL dos tiles, zooms, "
                      "limites e campos)",
           .handler = [&app](Request& r) { return tilejson(app, r); }});
}

}  // namespace cadastre::server
