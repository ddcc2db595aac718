// Vector tiles of the platform's layers (Mapbox Vector Tiles, Web Mercator XYZ), after the
// cadastre's tile route (src/server/tiles): one ST_AsMVT statement prepared per pooled
// connection, binary bytea out, an ETag from the layer's generation (projeto.camadas.
// geracao, bumped by every write of its geometries, values and style) with 304 on
// If-None-Match, 204 for a tile without features. CORS is the server's (every answer).
//
//   /vt/{z}/{x}/{y}?camada=            the geometries (feature id = geometry id)
//   /vt2/{z}/{x}/{y}?camada=           the same with the style's attributes (store.hpp)
//   /especifico/vector-tiles/{camada}/{z}/{x}/{y}   /vt with the layer in the path
//   /svt/{idTenant}/{idCamada}/{z}/{x}/{y}          no session: a published project's
//                                                  public, active layer; anything else 404
//
// The MVT layer is "camada_<id>". Session tiles are "private, no-cache" (a shared cache
// must not hand them to another user); public ones "public, no-cache". Both revalidate,
// so an edit shows at the next request. /vt's and /svt's tiles are also kept in this
// process (cache.hpp), checked against the layer's generation at every request.
#include "http/etag.hpp"
#include "platform/app.hpp"
#include "platform/tiles/input.hpp"
#include "platform/tiles/store.hpp"

namespace cadastre::platform::tiles {
namespace {

using http::Request;
using http::Response;

constexpr const char* kMvt = "application/vnd.mapbox-vector-tile";
constexpr const char* kTag = "Tiles vetoriais";

Response answer(store::Pool& db, TileCache& tiles, const TileRequest& t, const Request& req, const char* cache) {
  TileAnswer out = render(db, tiles, t, http::etag_list(req));
  Response r;
  if (out.not_modified) {
    r.status = 304;
    r.content_type.clear();
  } else if (out.mvt.empty()) {
    r = Response::no_content();
  } else {
    r = Response::text(std::move(out.mvt), kMvt);
  }
  r.headers.set("ETag", out.etag);
  r.headers.set("Cache-Control", cache);
  return r;
}

// The layer was resolved by the guard (leitura on it) as the route's grant.
http::Handler session_tile(std::shared_ptr<TileCache> tiles, bool attributes) {
  return service::scoped([tiles, attributes](const service::Scope& s, Request& req) {
    TileRequest t{.tenant = s.tenant.id,
                  .layer = s.grant().id,
                  .tile = parse_tile(req),
                  .attributes = attributes,
                  .published_only = false};
    return answer(*s.db, *tiles, t, req, "private, no-cache");
  });
}

// No session: the tenant is named by id. An unknown or inactive tenant answers like an
// unpublished layer, so ids cannot be probed.
http::Handler public_tile(std::shared_ptr<TileCache> tiles, const service::Tenancy* tenancy,
                          store::Identity* identity) {
  return [tiles, tenancy, identity](Request& req) {
    const std::int64_t tenant_id = path_id(req, "idTenant");
    TileRequest t{.tenant = tenant_id,
                  .layer = path_id(req, "idCamada"),
                  .tile = parse_tile(req),
                  .attributes = false,
                  .published_only = true};
    auto tenant = identity->tenant_by_id(tenant_id);
    if (!tenant || !tenant->ativo)
      throw Error(errc::not_found, "camada " + std::to_string(t.layer) + " não encontrada",
                  "idCamada");
    return answer(tenancy->pool(*tenant), *tiles, t, req, "public, no-cache");
  };
}

}  // namespace
}  // namespace cadastre::platform::tiles

namespace cadastre::platform {

void add_tile_routes(App& app) {
  using namespace tiles;
  using http::on;
  auto& srv = app.server();
  // /vt's and /svt's rendered tiles, shared by the routes (cache.hpp).
  auto tiles = std::make_shared<TileCache>(app.options().tile_cache_bytes);
  const http::Param layer{.name = "camada",
                          .in = "query",
                          .type = "integer",
                          .required = true,
                          .description = "id da camada",
                          .values = {}};
  const http::Param if_none_match{
      .name = "If-None-Match",
      .in = "header",
      .type = "string",
      .required = false,
      .description = "ETag de uma resposta anterior: 304 sem corpo enquanto a camada não mudar",
      .values = {}};
  const std::string tile =
      " (z de 0 a 24; y pode terminar em .pbf); 204 quando o tile não tem feições; a camada "
      "MVT é camada_<id> e o id de cada feição é o da geometria";

  srv.add({.method = "GET",
           .pattern = "/vt/{z}/{x}/{y}",
           .auth = "sessao",
           .access = on("camada", "camada", "leitura"),
           .tag = kTag,
           .summary = "Mapbox Vector Tile das geometrias da camada" + tile,
           .params = {layer, if_none_match},
           .answers = kMvt,
           .handler = session_tile(tiles, false)});
  srv.add(
      {.method = "GET",
       .pattern = "/vt2/{z}/{x}/{y}",
       .auth = "sessao",
       .access = on("camada", "camada", "leitura"),
       .tag = kTag,
       .summary =
           "Mapbox Vector Tile com atributos para estilo temático: os valores dos campos que a "
           "categorização e o rótulo da camada usam (até 16), com o nome da chave do campo, e o "
           "rótulo próprio da geometria (_rotulo, _rotacao)" +
           tile,
       .params = {layer, if_none_match},
       .answers = kMvt,
       .handler = session_tile(tiles, true)});
  srv.add({.method = "GET",
           .pattern = "/especifico/vector-tiles/{camada}/{z}/{x}/{y}",
           .auth = "sessao",
           .access = on("camada", "{camada}", "leitura"),
           .tag = kTag,
           .summary = "Mapbox Vector Tile das geometrias da camada do caminho (como /vt)" + tile,
           .params = {if_none_match},
           .answers = kMvt,
           .handler = session_tile(tiles, false)});
  srv.add(
      {.method = "GET",
       .pattern = "/svt/{idTenant}/{idCamada}/{z}/{x}/{y}",
       .auth = "none",
       .tag = kTag,
       .summary =
           "Mapbox Vector Tile público, sem sessão: só de camada ativa e não privada de projeto "
           "publicado e ativo (senão 404)" +
           tile,
       .params = {if_none_match},
       .answers = kMvt,
       .handler = public_tile(tiles, &app.tenancy(), &app.identity())});
}

}  // namespace cadastre::platform
