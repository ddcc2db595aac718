// The vector tile service (the destination of the gateway's /tiles/*): Mapbox Vector Tiles
// of a tenant's layers rendered by PostGIS in one statement, TileJSON 3.0.0 per layer and
// an index of the tileable layers. Tiles carry an ETag from the layer's generation
// (auditoria.geracao_camada, bumped by every write) with Cache-Control: no-cache, so map
// clients revalidate and get 304 until the layer changes.
#include <cctype>
#include <string_view>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "http/etag.hpp"
#include "server/app.hpp"
#include "server/tiles/input.hpp"
#include "server/tiles/store.hpp"
#include "service/scope.hpp"

namespace cadastre::server::tiles {
namespace {

using http::Request;
using http::Response;
using service::Scope;

constexpr const char* kMvt = "application/vnd.mapbox-vector-tile";

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

Response no_cache(Response r) {
  r.headers.set("Cache-Control", "no-cache");
  return r;
}

// TileJSON 3.0.0 of `layer`; `base` is the URL of the tenant's tiles.
std::string tilejson_body(const Scope& s, const store::Layer& layer, const std::string& base,
                          const std::optional<std::array<double, 4>>& b) {
  using cadastre::tiles::max_latitude, cadastre::tiles::max_zoom;
  JsonWriter w;
  w.begin_object().key("tilejson").value("3.0.0").key("name").value(layer.name);
  w.key("description").value("Camada " + layer.name + " do município " + s.tenant.nome);
  w.key("scheme").value("xyz").key("tiles").begin_array();
  w.value(base + "/" + layer.name + "/{z}/{x}/{y}" + std::string(kTileSuffix));
  w.end_array().key("minzoom").value(0).key("maxzoom").value(max_zoom);
  if (b) {
    const auto& e = *b;
    w.key("bounds").begin_array().value(e[0]).value(e[1]).value(e[2]).value(e[3]).end_array();
    w.key("center").begin_array().value((e[0] + e[2]) / 2).value((e[1] + e[3]) / 2).value(16).end_array();
  } else {
    // An empty layer: the whole Web Mercator world (the TileJSON default).
    w.key("bounds").begin_array().value(-180.0).value(-max_latitude).value(180.0).value(max_latitude).end_array();
  }
  w.key("vector_layers").begin_array().begin_object().key("id").value(layer.name);
  w.key("description").value("geometria " + layer.column(layer.geometry_column)->geometry_type);
  w.key("minzoom").value(0).key("maxzoom").value(max_zoom).key("fields").begin_object();
  for (const auto& [name, type] : tile_fields(layer)) w.key(name).value(type);
  w.end_object().end_object().end_array().end_object();
  return std::move(w).str();
}

Response tile(const Scope& s, Request& req) {
  const cadastre::tiles::Tile t = parse_tile(req);
  require_tileable(*s.layer());
  auto out = render_tile(*s.db, *s.layer(), t, [&](const std::string& etag) { return http::etag_matches(req, etag); });
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
  return no_cache(std::move(r));
}

Response tilejson(const Scope& s, Request& req) {
  auto layer = s.layer(parse_tilejson_layer(req), false);
  require_tileable(*layer);
  const std::string base = public_base(req) + "/tiles/" + s.tenant.slug;
  return no_cache(Response::json(tilejson_body(s, *layer, base, extent(*s.db, *layer))));
}

// The tenant's layers with geometry that the caller may read, with their TileJSON URLs.
Response index(const Scope& s, Request& req) {
  auto catalog = s.catalog();
  JsonWriter w;
  w.begin_object().key("municipio").value(s.tenant.slug).key("camadas").begin_array();
  for (const auto& [name, layer] : catalog->layers()) {
    if (layer.geometry_column.empty() || !query::is_valid_identifier(name)) continue;
    if (!s.may(name, false)) continue;
    const store::Column& g = *layer.column(layer.geometry_column);
    if (g.srid == 0) continue;
    w.begin_object().key("id").value(name).key("geometria").value(g.geometry_type).key("srid").value(g.srid);
    const std::string url = public_base(req) + "/tiles/" + s.tenant.slug + "/" + name + std::string(kTileJsonSuffix);
    w.key("tilejson").value(url).end_object();
  }
  w.end_array().end_object();
  return no_cache(Response::json(std::move(w).str()));
}

}  // namespace
}  // namespace cadastre::server::tiles

namespace cadastre::server {

void add_tile_routes(App& app) {
  using service::scoped;
  auto& srv = app.server();
  const std::string tag = "Tiles vetoriais";
  const http::Param if_none_match{"If-None-Match", "header", "string", false,
                                  "ETag de uma resposta anterior: 304 sem corpo enquanto a camada não mudar"};
  srv.add({.method = "GET",
           .pattern = "/tiles/{municipio}/{layer}/{z}/{x}/{y}",
           .auth = "bearer",
           .access = http::reads("{layer}"),
           .tag = tag,
           .summary = "Mapbox Vector Tile da camada (z de 0 a 24; o último segmento é <y>.pbf); "
                      "204 quando o tile não tem feições",
           .params = {if_none_match},
           .answers = tiles::kMvt,
           .handler = scoped(&tiles::tile)});
  srv.add({.method = "GET",
           .pattern = "/tiles/{municipio}/index.json",
           .auth = "bearer",
           .access = http::members("só as camadas que o usuário pode ler"),
           .tag = tag,
           .summary = "Camadas com geometria que o usuário pode ler, com as URLs dos seus TileJSON",
           .handler = scoped(&tiles::index)});
  // A layer named "index" would be shadowed by the literal route above.
  srv.add({.method = "GET",
           .pattern = "/tiles/{municipio}/{file}",
           .auth = "bearer",
           .access = http::members("leitura na camada de {file} (verificada pelo guarda)"),
           .tag = tag,
           .summary = "TileJSON 3.0.0 da camada: o segmento é <camada>.json (URL dos tiles, zooms, "
                      "limites e campos)",
           .handler = scoped(&tiles::tilejson)});
}

}  // namespace cadastre::server
