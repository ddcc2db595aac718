// Advanced geospatial (/geo) beyond the read routes of the layers section: intersection of
// a layer with a query geometry (GET .../{camada}/intersect), of several layers with a
// GeoJSON body (POST .../camadas/intersect/), and the records of other layers related to a
// lot (GET .../filtro_relacionamentos/...). Design of the last one:
// docs/api/filtro_relacionamentos.md. SQL: store.cpp; bodies and query geometries: input.cpp.
#include <soci/soci.h>

#include <algorithm>
#include <optional>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "server/app.hpp"
#include "server/geo/input.hpp"
#include "server/geo/store.hpp"
#include "service/geojson.hpp"
#include "store/features.hpp"

namespace cadastre::server::geo {
namespace {

using http::Request;
using http::Response;
using service::Scope;

// The request's query fields without the ones a route reads itself (so they are not taken
// for field filters).
query::QueryParams list_params(const Request& req, std::initializer_list<std::string_view> own) {
  auto params = query_params(req);
  std::erase_if(params, [&](const auto& kv) {
    return std::find(own.begin(), own.end(), std::string_view(kv.first)) != own.end();
  });
  return params;
}

// ---------------------------------------------------------------- intersect

Response intersect(const Scope& s, Request& req) {
  QueryGeometry area = geometry_from_query(req);
  auto q = query::parse_list_query(list_params(req, {"wkt", "geojson"}));
  q.bbox.reset();  // the bbox parameters were the query geometry
  auto fq = store::resolve(*s.layer(), q);
  auto r = s.db->with([&](soci::session& ss) { return intersect_layer(ss, fq, area.ewkb_hex); });
  return feature_collection(req, r.features, r.returned, fq.paging,
                            [&](JsonWriter& w) { w.key("numberMatched").value(static_cast<std::int64_t>(r.total)); });
}

// Every name, permission and geometry column is checked before the first query runs.
std::vector<service::LayerRef> intersect_layers(const Scope& s, const LayersBody& body) {
  std::vector<service::LayerRef> refs;
  for (const auto& name : body.layers) {
    refs.push_back(s.layer(name, false));
    if (refs.back()->geometry_column.empty())
      throw Error(errc::invalid_argument, "a camada " + name + " não tem geometria para interseção", "camadas");
  }
  return refs;
}

std::string layers_answer(const std::vector<service::LayerRef>& refs, const std::vector<IntersectResult>& results,
                          std::int64_t limit) {
  JsonWriter w;
  w.begin_object().key("camadas").begin_object();
  for (std::size_t i = 0; i < refs.size(); ++i) {
    w.key(refs[i]->name).begin_object();
    w.key("total").value(static_cast<std::int64_t>(results[i].total));
    w.key("numberReturned").value(static_cast<std::int64_t>(results[i].returned));
    w.key("features").raw(results[i].features).end_object();
  }
  w.end_object().key("limite").value(limit).end_object();
  return std::move(w).str();
}

Response layers_intersect(const Scope& s, Request& req) {
  LayersBody body = LayersBody::parse(req.body);
  std::vector<service::LayerRef> refs = intersect_layers(s, body);
  auto results = s.db->with([&](soci::session& ss) {
    std::vector<IntersectResult> out;
    for (const auto& ref : refs) {
      store::FeatureQuery fq;
      fq.layer = ref.layer;
      fq.paging = {1, body.limit, 0};
      out.push_back(intersect_layer(ss, fq, body.area.ewkb_hex));
    }
    return out;
  });
  return Response::json(layers_answer(refs, results, body.limit));
}

// ---------------------------------------------------------------- filtro_relacionamentos

// {lote, camadas: {camada: {modo, total}}}.
std::string summary_answer(const store::Layer& lote, const std::string& id, const std::vector<Related>& related,
                           const std::vector<long long>& counts) {
  JsonWriter w;
  w.begin_object().key("lote");
  if (lote.column(lote.primary_key)->numeric()) w.value(static_cast<std::int64_t>(std::stoll(id)));
  else w.value(id);
  w.key("camadas").begin_object();
  for (std::size_t i = 0; i < related.size(); ++i) {
    w.key(related[i].layer->name).begin_object().key("modo").value(to_string(related[i].relation.mode));
    w.key("total").value(static_cast<std::int64_t>(counts[i])).end_object();
  }
  w.end_object().end_object();
  return std::move(w).str();
}

// The summary for every layer the caller may read that relates to the lot (unreadable
// layers are left out).
Response relation_summary(const Scope& s, const service::LayerRef& lote, const std::string& id_text,
                          std::optional<RelationMode> forced) {
  std::string id = service::record_id(*lote, id_text);
  std::vector<Related> related;
  for (const auto& [name, layer] : lote.catalog->layers()) {
    if (!s.may(name, false)) continue;
    if (auto r = lot_relation(*lote, layer, forced)) related.push_back({&layer, std::move(*r)});
  }
  auto counts = s.db->with([&](soci::session& ss) { return relation_counts(ss, *lote, id, related); });
  return Response::json(summary_answer(*lote, id, related, counts));
}

LotRelation relation_of(const store::Layer& lote, const store::Layer& layer, std::optional<RelationMode> forced) {
  if (auto relation = lot_relation(lote, layer, forced)) return std::move(*relation);
  const std::string& camada = layer.name;
  std::string why = !forced ? "não se relaciona ao lote por chave (lote_id) nem por geometria"
                    : *forced == RelationMode::key
                        ? "não tem chave para o lote (coluna lote_id ou lote." + camada + "_id)"
                        : "não tem geometria para relacionar ao lote";
  throw Error(errc::invalid_argument, "a camada " + camada + " " + why, forced ? "modo" : "camada");
}

// The records of `camada` related to the lot, as a paged FeatureCollection.
Response related_records(const Scope& s, Request& req, const service::LayerRef& lote, const std::string& camada,
                         const std::string& id_text, std::optional<RelationMode> forced) {
  auto layer = s.layer(camada, false);
  LotRelation relation = relation_of(*lote, *layer, forced);
  std::string id = service::record_id(*lote, id_text);
  auto fq = store::resolve(*layer, query::parse_list_query(list_params(req, {"modo"})));
  fq.extra_where = relation.condition;
  auto [features, returned] = s.db->with([&](soci::session& ss) { return related_page(ss, *lote, id, fq); });
  return feature_collection(req, features, returned, fq.paging,
                            [&](JsonWriter& w) { w.key("modo").value(to_string(relation.mode)); });
}

Response lot_relations(const Scope& s, Request& req) {
  std::vector<std::string> parts;
  for (auto p : http::split_path(req.param("path"))) parts.emplace_back(p);
  std::optional<RelationMode> forced;
  if (auto m = req.query_value("modo")) forced = parse_relation_mode(*m);
  auto lote = s.layer("lote", false);
  if (parts.size() == 1) return relation_summary(s, lote, parts[0], forced);
  if (parts.size() == 2) return related_records(s, req, lote, parts[0], parts[1], forced);
  throw Error(errc::route_not_found,
              "use /geo/{municipio}/filtro_relacionamentos/{id_lote} ou "
              "/geo/{municipio}/filtro_relacionamentos/{camada}/{id_lote}");
}

}  // namespace
}  // namespace cadastre::server::geo

namespace cadastre::server {

void add_geo_routes(App& app) {
  using namespace geo;
  auto& srv = app.server();
  const std::string tag = "Geoespacial avançado";
  srv.add({.method = "GET",
           .pattern = "/geo/{municipio}/{camada}/intersect",
           .auth = "bearer",
           .access = http::reads("{camada}"),
           .tag = tag,
           .summary =
               "Feições da camada que intersectam uma geometria (wkt, geojson ou bbox, em lon/lat "
               "EPSG:4674/4326; outro SRID "
               "via EWKT é convertido). Cada feição traz area_intersecao_m2 (área geodésica da "
               "interseção) e percentual_coberto "
               "(0–100: por área em polígonos, por comprimento em linhas, 100 em pontos); numberMatched "
               "é o total. Geometria "
               "inválida → 400 com o motivo do GEOS.",
           .params = with_paging({{"wkt", "query", "string", false, "geometria em WKT ou EWKT (SRID=...;)"},
                                  {"geojson", "query", "string", false, "geometria GeoJSON (lon/lat)"},
                                  {"minLongitude", "query", "number", false, "bbox: oeste"},
                                  {"minLatitude", "query", "number", false, "bbox: sul"},
                                  {"maxLongitude", "query", "number", false, "bbox: leste"},
                                  {"maxLatitude", "query", "number", false, "bbox: norte"}}),
           .answers = kGeoJson,
           .handler = service::scoped(&intersect)});
  srv.add({.method = "POST",
           .pattern = "/geo/{municipio}/camadas/intersect/",
           .auth = "bearer",
           .access = http::members("leitura em cada camada que o corpo nomeia (verificada pelo guarda)"),
           .tag = tag,
           .summary = "Interseção de uma geometria GeoJSON com várias camadas: responde {camadas: "
                      "{<camada>: {total, "
                      "numberReturned, features}}, limite}, com area_intersecao_m2 e "
                      "percentual_coberto em cada feição. Cada camada exige leitura; "
                      "camada desconhecida → 404.",
           .body = {.description = "{\"geometria\": <geometria GeoJSON em lon/lat>, \"camadas\": "
                                   "[\"lote\", \"edificacao\", ...] (1 a 20), "
                                   "\"limite\": feições por camada (1 a 1000, padrão 100)}"},
           .handler = service::scoped(&layers_intersect)});
  srv.add({.method = "GET",
           .pattern = "/geo/{municipio}/filtro_relacionamentos/{path*}",
           .auth = "bearer",
           .access = http::reads("lote"),
           .tag = tag,
           .summary = "Registros relacionados a um lote. {path} = {id_lote}: resumo {lote, "
                      "camadas: {<camada>: {modo, total}}} de "
                      "todas as camadas relacionadas que o usuário pode ler. {path} = "
                      "{camada}/{id_lote}: FeatureCollection "
                      "(GeoJSON, paginada, com filtros campo=valor) dos registros da camada "
                      "ligados ao lote por chave (coluna "
                      "lote_id da camada, ou <camada>_id do lote) ou, sem chave, espacialmente "
                      "(geometria com pontos interiores em "
                      "comum com o lote). ?modo=chave|espacial força um dos dois. A {camada} também "
                      "exige leitura; lote "
                      "inexistente → 404. Ver docs/api/filtro_relacionamentos.md.",
           .params = with_paging({{"modo", "query", "string", false, "padrão: chave quando houver", {"chave", "espacial"}}}),
           .handler = service::scoped(&lot_relations)});
}

}  // namespace cadastre::server
