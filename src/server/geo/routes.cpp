// Advanced geospatial (/geo) beyond the read routes of routes_layers.cpp: intersection of a
// layer with a query geometry (GET .../{camada}/intersect), of several layers with a GeoJSON
// body (POST .../camadas/intersect/), and the records of other layers related to a lot
// (GET .../filtro_relacionamentos/...). Design of the last one: docs/api/filtro_relacionamentos.md.
#include <soci/soci.h>

#include <algorithm>
#include <optional>
#include <set>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "server/geo/input.hpp"
#include "server/geo/intersect.hpp"
#include "server/geo/lot_relations.hpp"
#include "server/layer_access.hpp"
#include "service/geojson.hpp"
#include "store/features.hpp"

namespace cadastre::server {
namespace {

using http::Param;
using http::Request;
using http::Response;

constexpr std::int64_t kBodyDefaultLimit = 100;  // features per layer of camadas/intersect
constexpr std::size_t kBodyMaxLayers = 20;

// The request's query fields without the ones a route reads itself (so they are not taken
// for field filters).
query::QueryParams list_params(const Request& req, std::initializer_list<std::string_view> own) {
  auto params = query_params(req);
  std::erase_if(params, [&](const auto& kv) {
    return std::find(own.begin(), own.end(), std::string_view(kv.first)) != own.end();
  });
  return params;
}

// Adds members to a JSON object answer: `members` is `"k":v,...` text written by us.
Response with_members(Response res, const std::string& members) {
  if (!res.body.empty() && res.body.back() == '}') {
    res.body.pop_back();
    res.body += "," + members + "}";
  }
  return res;
}

// ---------------------------------------------------------------- intersect

Response intersect(App& app, Request& req) {
  auto layer = layer_for(app, req, req.param("camada"), false);
  QueryGeometry area = geometry_from_query(req);
  auto q = query::parse_list_query(list_params(req, {"wkt", "geojson"}));
  q.bbox.reset();  // the bbox parameters were the query geometry
  auto fq = store::resolve(*layer, q);
  auto r = context(req).db->with(
      [&](soci::session& s) { return intersect_layer(s, fq, area.ewkb_hex); });
  return with_members(feature_collection(req, r.features, r.returned, fq.paging),
                      "\"numberMatched\":" + std::to_string(r.total));
}

struct LayersBody {
  QueryGeometry area;
  std::vector<std::string> layers;
  std::int64_t limit = kBodyDefaultLimit;
};

LayersBody parse_layers_body(const std::string& body) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  for (auto [key, value] : o) {
    if (key != "geometria" && key != "camadas" && key != "limite")
      throw Error(errc::unknown_field, "campo desconhecido no corpo: '" + std::string(key) + "'",
                  std::string(key));
  }
  auto g = jsonin::find(o, "geometria");
  if (!g)
    throw Error(errc::missing_field, "campo obrigatório ausente: 'geometria' (geometria GeoJSON)",
                "geometria");
  if (!g->is_object())
    throw Error(errc::invalid_geometry, "'geometria' deve ser um objeto GeoJSON", "geometria");
  LayersBody out{geometry_from_geojson(simdjson::minify(*g), "geometria"), {}, kBodyDefaultLimit};
  auto list = jsonin::find(o, "camadas");
  if (!list)
    throw Error(errc::missing_field, "campo obrigatório ausente: 'camadas' (lista de nomes)",
                "camadas");
  std::set<std::string, std::less<>> seen;
  for (auto e : jsonin::as_array(*list, "camadas")) {
    std::string name = jsonin::to_string(e, "camadas");
    if (!seen.insert(name).second)
      throw Error(errc::invalid_argument, "camada repetida: " + name, "camadas");
    out.layers.push_back(std::move(name));
  }
  if (out.layers.empty() || out.layers.size() > kBodyMaxLayers)
    throw Error(errc::invalid_argument,
                "'camadas' deve ter de 1 a " + std::to_string(kBodyMaxLayers) + " nomes",
                "camadas");
  if (auto l = jsonin::opt_integer(o, "limite")) {
    if (*l < 1 || *l > query::max_page_size)
      throw Error(errc::invalid_argument,
                  "'limite' deve estar entre 1 e " + std::to_string(query::max_page_size),
                  "limite");
    out.limit = *l;
  }
  return out;
}

Response layers_intersect(App& app, Request& req) {
  LayersBody body = parse_layers_body(req.body);
  // Every name, permission and geometry column is checked before the first query runs.
  std::vector<LayerRef> refs;
  for (const auto& name : body.layers) {
    refs.push_back(layer_for(app, req, name, false));
    if (refs.back()->geometry_column.empty())
      throw Error(errc::invalid_argument, "a camada " + name + " não tem geometria para interseção",
                  "camadas");
  }
  std::vector<IntersectResult> results = context(req).db->with([&](soci::session& s) {
    std::vector<IntersectResult> out;
    for (const auto& ref : refs) {
      store::FeatureQuery fq;
      fq.layer = ref.layer;
      fq.paging = {1, body.limit, 0};
      out.push_back(intersect_layer(s, fq, body.area.ewkb_hex));
    }
    return out;
  });
  JsonWriter w;
  w.begin_object().key("camadas").begin_object();
  for (std::size_t i = 0; i < refs.size(); ++i) {
    w.key(refs[i]->name).begin_object();
    w.key("total").value(static_cast<std::int64_t>(results[i].total));
    w.key("numberReturned").value(static_cast<std::int64_t>(results[i].returned));
    w.key("features").raw(results[i].features).end_object();
  }
  w.end_object().key("limite").value(body.limit).end_object();
  return Response::json(std::move(w).str());
}

// ---------------------------------------------------------------- filtro_relacionamentos

void require_lot(soci::session& s, const store::Layer& lote, const std::string& id) {
  store::Sql sql("select 1 from ");
  sql << lote.qualified() << " where " << query::quote_identifier(lote.primary_key) << " = ";
  sql.bind(id, lote.column(lote.primary_key)->type);
  if (!store::fetch_value(s, sql))
    throw Error(errc::not_found, "lote " + id + " não encontrado", "id_lote");
}

// {camada: {modo, total}} for every layer the caller may read that relates to the lot.
Response relation_summary(App& app, Request& req, const LayerRef& lote, const std::string& id_text,
                          std::optional<RelationMode> forced) {
  std::string id = record_id(*lote, id_text);
  const Context& ctx = context(req);
  auto perms = app.identity().permissions(ctx.user.user_id);
  struct Related {
    const store::Layer* layer;
    LotRelation relation;
  };
  std::vector<Related> related;
  for (const auto& [name, layer] : lote.catalog->layers()) {
    if (!store::layer_allowed(perms, name, false, ctx.user.admin))
      continue;  // unreadable layers are left out
    if (auto r = lot_relation(*lote, layer, forced)) related.push_back({&layer, std::move(*r)});
  }
  auto rows = ctx.db->with([&](soci::session& s) {
    require_lot(s, *lote, id);
    std::vector<store::Row> out;
    if (related.empty()) return out;
    store::Sql sql;
    append_lot_cte(sql, *lote, id);
    for (std::size_t i = 0; i < related.size(); ++i) {
      if (i) sql << " union all ";
      sql << "select " << std::to_string(i) << ", (select count(*) from "
          << related[i].layer->qualified() << " t where " << related[i].relation.condition
          << ")::text";
    }
    return store::fetch(s, sql);
  });
  JsonWriter w;
  w.begin_object().key("lote");
  if (lote->column(lote->primary_key)->numeric())
    w.value(static_cast<std::int64_t>(std::stoll(id)));
  else
    w.value(id);
  w.key("camadas").begin_object();
  for (const auto& row : rows) {
    const Related& r = related.at(std::stoul(row[0].value_or("0")));
    w.key(r.layer->name).begin_object().key("modo").value(to_string(r.relation.mode));
    w.key("total").value(static_cast<std::int64_t>(std::stoll(row[1].value_or("0")))).end_object();
  }
  w.end_object().end_object();
  return Response::json(std::move(w).str());
}

// The records of `camada` related to the lot, as a paged FeatureCollection.
Response related_records(App& app, Request& req, const LayerRef& lote, const std::string& camada,
                         const std::string& id_text, std::optional<RelationMode> forced) {
  auto layer = layer_for(app, req, camada, false);
  auto relation = lot_relation(*lote, *layer, forced);
  if (!relation) {
    std::string why = !forced ? "não se relaciona ao lote por chave (lote_id) nem por geometria"
                      : *forced == RelationMode::key
                          ? "não tem chave para o lote (coluna lote_id ou lote." + camada + "_id)"
                          : "não tem geometria para relacionar ao lote";
    throw Error(errc::invalid_argument, "a camada " + camada + " " + why,
                forced ? "modo" : "camada");
  }
  std::string id = record_id(*lote, id_text);
  auto fq = store::resolve(*layer, query::parse_list_query(list_params(req, {"modo"})));
  fq.extra_where = relation->condition;
  auto rows = context(req).db->with([&](soci::session& s) {
    require_lot(s, *lote, id);
    store::Sql sql;
    append_lot_cte(sql, *lote, id);
    store::append_feature_page(sql, fq);
    return store::fetch(s, sql);
  });
  std::string features = rows.empty() ? "[]" : rows[0][0].value_or("[]");
  long long returned = rows.empty() ? 0 : std::stoll(rows[0][1].value_or("0"));
  return with_members(feature_collection(req, features, returned, fq.paging),
                      "\"modo\":" + json_quote(to_string(relation->mode)));
}

Response lot_relations(App& app, Request& req) {
  std::vector<std::string> parts;
  for (auto p : http::split_path(req.param("path"))) parts.emplace_back(p);
  std::optional<RelationMode> forced;
  if (auto m = req.query_value("modo")) forced = parse_relation_mode(*m);
  auto lote = layer_for(app, req, "lote", false);
  if (parts.size() == 1) return relation_summary(app, req, lote, parts[0], forced);
  if (parts.size() == 2) return related_records(app, req, lote, parts[0], parts[1], forced);
  throw Error(errc::route_not_found,
              "use /geo/{municipio}/filtro_relacionamentos/{id_lote} ou "
              "/geo/{municipio}/filtro_relacionamentos/{camada}/{id_lote}");
}

}  // namespace

void add_geo_routes(App& app) {
  auto& srv = app.server();
  const std::string tag = "Geoespacial avançado";

  http::Route intersect_route{
      .method = "GET",
      .pattern = "/geo/{municipio}/{camada}/intersect",
      .auth = "bearer",
      .tag = tag,
      .summary =
          "Feições da camada que intersectam uma geometria (wkt, geojson ou bbox, em lon/lat "
          "EPSG:4674/4326; outro SRID "
          "via EWKT é convertido). Cada feição traz area_intersecao_m2 (área geodésica da "
          "interseção) e percentual_coberto "
          "(0–100: por área em polígonos, por comprimento em linhas, 100 em pontos); numberMatched "
          "é o total. Geometria "
          "inválida → 400 com o motivo do GEOS. Requer leitura na camada.",
      .params =
          with_paging({{"wkt", "query", "string", false, "geometria em WKT ou EWKT (SRID=...;)"},
                       {"geojson", "query", "string", false, "geometria GeoJSON (lon/lat)"},
                       {"minLongitude", "query", "number", false, "bbox: oeste"},
                       {"minLatitude", "query", "number", false, "bbox: sul"},
                       {"maxLongitude", "query", "number", false, "bbox: leste"},
                       {"maxLatitude", "query", "number", false, "bbox: norte"}}),
      .answers = kGeoJson,
      .handler = [&app](Request& r) { return intersect(app, r); }};
  srv.add(std::move(intersect_route));

  srv.add({.method = "POST",
           .pattern = "/geo/{municipio}/camadas/intersect/",
           .auth = "bearer",
           .tag = tag,
           .summary = "Interseção de uma geometria GeoJSON com várias camadas: responde {camadas: "
                      "{<camada>: {total, "
                      "numberReturned, features}}, limite}, com area_intersecao_m2 e "
                      "percentual_coberto em cada feição. Requer "
                      "leitura em cada camada; camada desconhecida → 404.",
           .body = {.description = "{\"geometria\": <geometria GeoJSON em lon/lat>, \"camadas\": "
                                   "[\"lote\", \"edificacao\", ...] (1 a 20), "
                                   "\"limite\": feições por camada (1 a 1000, padrão 100)}"},
           .handler = [&app](Request& r) { return layers_intersect(app, r); }});

  srv.add({.method = "GET",
           .pattern = "/geo/{municipio}/filtro_relacionamentos/{path*}",
           .auth = "bearer",
           .tag = tag,
           .summary = "Registros relacionados a um lote. {path} = {id_lote}: resumo {lote, "
                      "camadas: {<camada>: {modo, total}}} de "
                      "todas as camadas relacionadas que o usuário pode ler. {path} = "
                      "{camada}/{id_lote}: FeatureCollection "
                      "(GeoJSON, paginada, com filtros campo=valor) dos registros da camada "
                      "ligados ao lote por chave (coluna "
                      "lote_id da camada, ou <camada>_id do lote) ou, sem chave, espacialmente "
                      "(geometria com pontos interiores em "
                      "comum com o lote). ?modo=chave|espacial força um dos dois. Requer leitura "
                      "em lote e na camada; lote "
                      "inexistente → 404. Ver docs/api/filtro_relacionamentos.md.",
           .params = with_paging({{"modo",
                                   "query",
                                   "string",
                                   false,
                                   "padrão: chave quando houver",
                                   {"chave", "espacial"}}}),
           .handler = [&app](Request& r) { return lot_relations(app, r); }});
}

}  // namespace cadastre::server
