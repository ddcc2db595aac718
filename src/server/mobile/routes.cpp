// Field application (/aplicativo): the data package of a lot (characterization's lot
// package in the app's form), the features of a layer in a bounding box, the XYZ tiles to
// download for offline use around a set of lots, and the edit logs the app recorded
// offline (input.hpp, store.hpp). The external issue route of the same section lives
// elsewhere.
#include <soci/soci.h>

#include <map>

#include "cadastre/geom.hpp"
#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "cadastre/tiles.hpp"
#include "server/app.hpp"
#include "server/characterization/lot_package.hpp"
#include "server/mobile/input.hpp"
#include "server/mobile/store.hpp"
#include "service/geojson.hpp"

namespace cadastre::server::mobile {
namespace {

using http::Request;
using http::Response;
using service::Scope;

constexpr const char* kProcessLogsBody =
    "{\"dispositivo\": \"id do aparelho\", \"logs\": [{\"id_cliente\": \"uuid\", \"timestamp\": \"RFC 3339\", "
    "\"camada\": \"lote\", \"operacao\": \"inserir|atualizar|remover\", \"registro_id\": id, \"dados\": {campos}, "
    "\"versao_base\": \"RFC 3339\"}] (1 a 1000 entradas)}";

// ---------------------------------------------------------------- data/{id_lote}

Response lot_data(const Scope& s, Request& req) {
  return Response::json(
      characterization::lot_package(s, req.param("id_lote"), characterization::LotPackageForm::mobile));
}

// ---------------------------------------------------------------- intersect/bounding-box

Response bbox_features(const Scope& s, Request& req) {
  const store::Layer& layer = *s.layer();
  if (layer.geometry_column.empty())
    throw Error(errc::invalid_argument, "a camada " + layer.name + " não tem geometria para interseção", "camada");
  geom::BBox box = parse_bbox_body(req.body);
  auto q = query::parse_list_query(query_params(req));
  if (q.bbox) throw Error(errc::invalid_argument, "a bbox vai no corpo, não na query string", "minLongitude");
  auto fq = store::resolve(layer, q);  // paging capped at query::max_page_size, as every /geo list
  fq.bbox = box;
  BoxPage page = s.db->with([&](soci::session& ss) { return bbox_page(ss, fq); });
  return feature_collection(req, page.features, page.returned, fq.paging,
                            [&](JsonWriter& w) { w.key("numberMatched").raw(page.total); });
}

// ---------------------------------------------------------------- get-tiles-from-lote

// The tiles of each zoom that the lots' geometry (not its bbox) touches, computed by the
// tile library over the union of the lots: shared tiles come out once, and the library
// stops at the cap instead of materialising a huge cover.
std::vector<tiles::Tile> covering(const std::string& hex, const tiles::ZoomRange& zooms) {
  try {
    return tiles::tiles_covering(geom::Geometry::from_hex_wkb(hex), zooms, tiles::default_max_tiles);
  } catch (const Error& e) {
    if (e.code() != errc::invalid_argument) throw;
    throw Error(errc::invalid_argument,
                "os lotes pedidos cobrem mais de " + std::to_string(tiles::default_max_tiles) +
                    " tiles entre os zooms " + std::to_string(zooms.min_z) + " e " + std::to_string(zooms.max_z) +
                    ": reduza 'zoom_max' ou o número de lotes",
                "zoom_max");
  }
}

// Unknown ids → 404 naming them; lots without geometry cover no tile.
Response lot_tiles(const Scope& s, Request& req) {
  service::LayerRef lote = s.layer("lote", false);
  TilesBody body = parse_tiles_body(req.body);
  LotsGeometry lots = s.db->with([&](soci::session& ss) { return lots_geometry(ss, *lote, body.lots); });
  if (lots.missing) throw Error(errc::not_found, "lotes não encontrados: " + *lots.missing, "lotes");
  std::vector<tiles::Tile> found = lots.hex ? covering(*lots.hex, body.zooms) : std::vector<tiles::Tile>{};
  JsonWriter w;
  w.begin_object().key("tiles").begin_array();
  for (const auto& t : found) w.begin_array().value(t.x).value(t.y).value(t.z).end_array();
  w.end_array().end_object();
  return Response::json(std::move(w).str());
}

// ---------------------------------------------------------------- process-logs-v2

// {"dispositivo", "total", "aplicados", "conflitos", "erros", "ja_processados",
//  "resultados": [{"id_cliente", "status", "camada", "operacao", "registro_id"?, "codigo"?,
//  "mensagem"?, "atual"?, "alterado_em"?, "status_original" (ja_processado only)}, ...]}
std::string logs_answer(const LogBatch& batch, const std::vector<Outcome>& outcomes) {
  std::map<std::string, std::int64_t> counts;
  for (const auto& o : outcomes) ++counts[o.status];
  JsonWriter w;
  w.begin_object().key("dispositivo").value(batch.dispositivo);
  w.key("total").value(static_cast<std::int64_t>(outcomes.size()));
  w.key("aplicados").value(counts["aplicado"]).key("conflitos").value(counts["conflito"]);
  w.key("erros").value(counts["erro"]).key("ja_processados").value(counts["ja_processado"]);
  w.key("resultados").begin_array();
  for (const auto& o : outcomes) w.raw(o.json);
  w.end_array().end_object();
  return std::move(w).str();
}

Response process_logs(const Scope& s, Request& req) {
  LogBatch batch = parse_logs(s, req.body);
  std::vector<Outcome> outcomes = apply_logs(*s.db, batch, s.user);
  return Response::json(logs_answer(batch, outcomes));
}

}  // namespace
}  // namespace cadastre::server::mobile

namespace cadastre::server {

void add_mobile_routes(App& app) {
  using namespace mobile;
  auto& srv = app.server();
  const std::string tag = "Aplicativo de campo";
  srv.add({.method = "GET",
           .pattern = "/aplicativo/{municipio}/aplicativo/data/{id_lote}",
           .auth = "bearer",
           .access = http::reads("lote"),
           .tag = tag,
           .summary =
               "Pacote de dados de um lote para o aplicativo: {lote: Feature, edificacoes: "
               "[Feature], unidades: [Feature "
               "com pessoas], midia: [arquivos com link /midia/get?file_url=...], sem_permissao, gerado_em}. "
               "gerado_em é a versão base a "
               "enviar nos logs offline. Seções de camadas sem permissão "
               "de leitura (edificacao, "
               "imobiliario, pessoa, midia) ficam de fora e são listadas em sem_permissao. "
               "Lote inexistente → 404; id não inteiro → 400.",
           .handler = service::scoped(&lot_data)});
  srv.add({.method = "POST",
           .pattern = "/aplicativo/{municipio}/{camada}/intersect/bounding-box/",
           .auth = "bearer",
           .access = http::reads("{camada}"),
           .tag = tag,
           .summary = "Feições da camada que intersectam a bbox do corpo (lon/lat, "
                      "EPSG:4674/4326), como FeatureCollection "
                      "paginada (page/limit na query string, no máximo 1000 por página; filtros "
                      "campo=valor e sort como nas "
                      "listas) com numberMatched.",
           .params = with_paging(),
           .body = {.description = "{\"minLongitude\": n, \"minLatitude\": n, \"maxLongitude\": n, "
                                   "\"maxLatitude\": n} (números)"},
           .answers = kGeoJson,
           .handler = service::scoped(&bbox_features)});
  srv.add(
      {.method = "POST",
       .pattern = "/aplicativo/{municipio}/aplicativo/get-tiles-from-lote/",
       .auth = "bearer",
       .access = http::reads("lote"),
       .tag = tag,
       .summary = "Tiles XYZ que cobrem a geometria dos lotes (não a bbox) em cada zoom do "
                  "intervalo, sem repetição, "
                  "ordenados por z, x, y: {tiles: [[x, y, z], ...]}. No máximo 10.000 tiles (acima "
                  "→ 400). Lotes "
                  "inexistentes → 404 com os ids.",
       .body =
           {.description =
                "{\"lotes\": [ids] (1 a 1000), \"zoom_min\": 0..22, \"zoom_max\": zoom_min..22}"},
       .handler = service::scoped(&lot_tiles)});
  // The spec names the tenant segment {city} here; the router only uses the name to fill
  // Request::params, and the main bearer scheme reads "municipio", so that is its name.
  srv.add({.method = "POST",
           .pattern = "/aplicativo/{municipio}/aplicativo/process-logs-v2/",
           .auth = "bearer",
           .access = http::members("escrita na camada de cada log (verificada pelo guarda)"),
           .tag = tag,
           .summary = "Aplica os logs de edição offline do aplicativo, em ordem, de forma "
                      "idempotente: cada entrada é "
                      "identificada por (dispositivo, id_cliente) e uma entrada já processada não "
                      "é reaplicada (status "
                      "ja_processado, com o resultado gravado). Uma edição cuja versao_base é "
                      "anterior a uma alteração do "
                      "servidor não é aplicada: volta como conflito, com o registro atual. Corpo "
                      "malformado → 400 sem gravar "
                      "nada. Cada camada dos logs exige escrita. Ver server/mobile/input.hpp.",
           .body = {.description = kProcessLogsBody},
           .handler = service::scoped(&process_logs)});
}

}  // namespace cadastre::server
