// Field application (/aplicativo): the data package of a lot, the features of a layer in a
// bounding box, the XYZ tiles to download for offline use around a set of lots, and the
// edit logs the app recorded offline (mobile_logs.cpp). The external issue route of the
// same section lives elsewhere.
#include <soci/soci.h>

#include <algorithm>
#include <set>

#include "cadastre/geom.hpp"
#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "cadastre/tiles.hpp"
#include "core/json_in.hpp"
#include "server/layer_access.hpp"
#include "server/mobile/logs.hpp"
#include "service/geojson.hpp"
#include "store/features.hpp"
#include "store/sql.hpp"

namespace cadastre::server {
namespace {

using http::Param;
using http::Request;
using http::Response;

constexpr std::size_t kMaxTileLots = 1000;
constexpr int kMaxTileZoom = 22;

// ---------------------------------------------------------------- data/{id_lote}

bool readable(App& app, const Request& req, const store::Catalog& catalog, std::string_view name) {
  const Context& ctx = context(req);
  return catalog.find(name) && store::layer_allowed(app.identity().permissions(ctx.user.user_id),
                                                    name, false, ctx.user.admin);
}

// The lot, its buildings, its units with their people and the media of the lot and its
// units, built by PostgreSQL in one statement. Sections of layers the caller may not read
// (edificacao, imobiliario, pessoa) are left out of the answer rather than refused, so one
// package serves users with partial permissions.
Response lot_data(App& app, Request& req) {
  auto lote = layer_for(app, req, "lote", false);
  std::string id = record_id(*lote, req.param("id_lote"));
  const store::Catalog& cat = *lote.catalog;
  const bool buildings = readable(app, req, cat, "edificacao");
  const bool units = readable(app, req, cat, "imobiliario");
  const bool people = units && readable(app, req, cat, "pessoa");

  store::Sql sql("with l as (select * from " + lote->qualified() + " t where t." +
                 query::quote_identifier(lote->primary_key) + " = ");
  sql.bind(id, lote->column(lote->primary_key)->type);
  sql << ") select json_build_object('lote', (select " << store::feature_expression(*lote, "t")
      << " from l t)";
  if (buildings) {
    const store::Layer& e = *cat.find("edificacao");
    sql << ", 'edificacoes', (select coalesce(json_agg(" << store::feature_expression(e, "t")
        << " order by t.id), '[]') from " << e.qualified()
        << " t where t.lote_id = (select id from l))";
  }
  if (units) {
    const store::Layer& u = *cat.find("imobiliario");
    std::string unit = "(" + store::feature_expression(u, "t") + ")::jsonb";
    if (people) {
      unit +=
          " || jsonb_build_object('pessoas', (select coalesce(jsonb_agg(to_jsonb(p) || "
          "jsonb_build_object('papel', "
          "ip.papel, 'percentual', ip.percentual) order by p.id, ip.papel), '[]') from "
          "cadastro.imobiliario_pessoa ip "
          "join cadastro.pessoa p on p.id = ip.pessoa_id where ip.imobiliario_id = t.id))";
    }
    sql << ", 'unidades', (select coalesce(json_agg(" << unit << " order by t.id), '[]') from "
        << u.qualified() << " t where t.lote_id = (select id from l))";
  }
  // Media of the lot and of its units; the link is the route that serves the file.
  sql << ", 'midia', (select coalesce(json_agg(json_build_object('id', a.id, 'chave', a.chave, "
         "'nome', a.nome, "
         "'extensao', a.extensao, 'content_type', a.content_type, 'tamanho', a.tamanho, 'sha256', "
         "a.sha256, "
         "'descricao', a.descricao, 'lote_id', a.lote_id, 'imobiliario_id', a.imobiliario_id, "
         "'criado_em', "
         "a.criado_em, 'link', '/midia/get?file_url=' || a.chave) order by a.id), '[]') from "
         "midia.arquivo a where "
         "a.lote_id = (select id from l) or a.imobiliario_id in (select i.id from "
         "cadastro.imobiliario i where i.lote_id = "
         "(select id from l)))";
  // The read time: the base version the app sends back with its offline edits.
  sql << ", 'gerado_em', now())::text from l";

  auto body = context(req).db->with([&](soci::session& s) { return store::fetch_value(s, sql); });
  if (!body) throw Error(errc::not_found, "lote " + id + " não encontrado", "id_lote");
  return Response::json(std::move(*body));
}

// ---------------------------------------------------------------- intersect/bounding-box

geom::BBox parse_bbox_body(const std::string& body) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  static constexpr std::array<std::string_view, 4> names = {"minLongitude", "minLatitude",
                                                            "maxLongitude", "maxLatitude"};
  for (auto [key, value] : o) {
    if (std::find(names.begin(), names.end(), key) == names.end())
      throw Error(errc::unknown_field,
                  "campo desconhecido no corpo: '" + std::string(key) +
                      "' (a bbox tem minLongitude, minLatitude, maxLongitude, maxLatitude; "
                      "paginação e filtros vão na "
                      "query string)",
                  std::string(key));
  }
  double v[4];
  for (std::size_t i = 0; i < names.size(); ++i) {
    auto e = jsonin::find(o, names[i]);
    if (!e)
      throw Error(errc::missing_field, "campo obrigatório ausente: '" + std::string(names[i]) + "'",
                  std::string(names[i]));
    // Numbers only: "-46.6" as a string is refused, as the app always sends numbers.
    if (!e->is_number())
      throw Error(errc::invalid_argument, "'" + std::string(names[i]) + "' deve ser um número",
                  std::string(names[i]));
    v[i] = jsonin::to_number(*e, names[i]);
  }
  geom::BBox b{v[0], v[1], v[2], v[3]};
  b.validate();
  return b;
}

Response bbox_features(App& app, Request& req) {
  auto layer = layer_for(app, req, req.param("camada"), false);
  if (layer->geometry_column.empty())
    throw Error(errc::invalid_argument,
                "a camada " + layer->name + " não tem geometria para interseção", "camada");
  geom::BBox box = parse_bbox_body(req.body);
  auto q = query::parse_list_query(query_params(req));
  if (q.bbox)
    throw Error(errc::invalid_argument, "a bbox vai no corpo, não na query string", "minLongitude");
  auto fq = store::resolve(*layer, q);  // paging capped at query::max_page_size, as every /geo list
  fq.bbox = box;
  store::Sql page, count;
  store::append_feature_page(page, fq);
  store::append_count(count, fq);
  auto [rows, total] = context(req).db->with([&](soci::session& s) {
    return std::make_pair(store::fetch(s, page), store::fetch_value(s, count).value_or("0"));
  });
  auto res = feature_collection(req, rows.at(0)[0].value_or("[]"),
                                std::stoll(rows.at(0)[1].value_or("0")), fq.paging);
  res.body.pop_back();  // feature_collection writes an object: add numberMatched
  res.body += ",\"numberMatched\":" + total + "}";
  return res;
}

// ---------------------------------------------------------------- get-tiles-from-lote

struct TilesBody {
  std::vector<std::int64_t> lots;  ///< distinct, ascending
  tiles::ZoomRange zooms;
};

int zoom_field(simdjson::dom::object o, std::string_view name) {
  auto e = jsonin::find(o, name);
  if (!e)
    throw Error(errc::missing_field, "campo obrigatório ausente: '" + std::string(name) + "'",
                std::string(name));
  std::int64_t z = 0;
  if (!e->is_int64() || e->get(z) != simdjson::SUCCESS || z < 0 || z > kMaxTileZoom)
    throw Error(
        errc::invalid_argument,
        "'" + std::string(name) + "' deve ser um inteiro de 0 a " + std::to_string(kMaxTileZoom),
        std::string(name));
  return static_cast<int>(z);
}

TilesBody parse_tiles_body(const std::string& body) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  for (auto [key, value] : o) {
    if (key != "lotes" && key != "zoom_min" && key != "zoom_max")
      throw Error(errc::unknown_field, "campo desconhecido no corpo: '" + std::string(key) + "'",
                  std::string(key));
  }
  auto list = jsonin::find(o, "lotes");
  if (!list)
    throw Error(errc::missing_field, "campo obrigatório ausente: 'lotes' (lista de ids)", "lotes");
  std::set<std::int64_t> ids;
  std::size_t n = 0;
  for (auto e : jsonin::as_array(*list, "lotes")) {
    std::int64_t id = 0;
    if (!e.is_int64() || e.get(id) != simdjson::SUCCESS || id < 1 || id > INT32_MAX)
      throw Error(errc::invalid_argument, "'lotes' deve ser uma lista de ids inteiros de lote",
                  "lotes");
    ids.insert(id);
    if (++n > kMaxTileLots)
      throw Error(errc::invalid_argument,
                  "no máximo " + std::to_string(kMaxTileLots) + " lotes por pedido", "lotes");
  }
  if (ids.empty()) throw Error(errc::invalid_argument, "'lotes' não pode ser vazia", "lotes");
  TilesBody out{{ids.begin(), ids.end()}, {zoom_field(o, "zoom_min"), zoom_field(o, "zoom_max")}};
  if (out.zooms.min_z > out.zooms.max_z)
    throw Error(errc::invalid_argument, "'zoom_min' não pode ser maior que 'zoom_max'", "zoom_min");
  return out;
}

std::string id_array(const std::vector<std::int64_t>& ids) {
  std::string out = "{";
  for (std::size_t i = 0; i < ids.size(); ++i) out += (i ? "," : "") + std::to_string(ids[i]);
  return out + "}";
}

// The tiles of each zoom that the lots' geometry (not its bbox) touches, computed by the
// tile library over the union of the lots: shared tiles come out once, and the library
// stops at the cap instead of materialising a huge cover. Unknown ids → 404 naming them.
Response lot_tiles(App& app, Request& req) {
  auto lote = layer_for(app, req, "lote", false);
  TilesBody body = parse_tiles_body(req.body);
  const std::string key = query::quote_identifier(lote->primary_key);
  const std::string g = query::quote_identifier(lote->geometry_column);
  store::Sql missing("select string_agg(i::text, ', ' order by i) from unnest(");
  missing.bind(id_array(body.lots), "bigint[]")
      << ") i where not exists (select 1 from " << lote->qualified() << " t where t." << key
      << " = i)";
  store::Sql geometry("select encode(ST_AsEWKB(ST_Union(t." + g + ")), 'hex') from " +
                      lote->qualified() + " t where t." + key + " = any(");
  geometry.bind(id_array(body.lots), "bigint[]") << ")";
  auto [absent, hex] = context(req).db->with([&](soci::session& s) {
    auto a = store::fetch_value(s, missing);
    return std::make_pair(a, a ? store::Value() : store::fetch_value(s, geometry));
  });
  if (absent) throw Error(errc::not_found, "lotes não encontrados: " + *absent, "lotes");
  std::vector<tiles::Tile> found;
  if (hex) {  // lots without geometry cover no tile
    try {
      found = tiles::tiles_covering(geom::Geometry::from_hex_wkb(*hex), body.zooms,
                                    tiles::default_max_tiles);
    } catch (const Error& e) {
      if (e.code() != errc::invalid_argument) throw;
      throw Error(errc::invalid_argument,
                  "os lotes pedidos cobrem mais de " + std::to_string(tiles::default_max_tiles) +
                      " tiles entre os zooms " + std::to_string(body.zooms.min_z) + " e " +
                      std::to_string(body.zooms.max_z) + ": reduza 'zoom_max' ou o número de lotes",
                  "zoom_max");
    }
  }
  JsonWriter w;
  w.begin_object().key("tiles").begin_array();
  for (const auto& t : found) w.begin_array().value(t.x).value(t.y).value(t.z).end_array();
  w.end_array().end_object();
  return Response::json(std::move(w).str());
}

}  // namespace

void add_mobile_routes(App& app) {
  auto& srv = app.server();
  const std::string tag = "Aplicativo de campo";
  srv.add({.method = "GET",
           .pattern = "/aplicativo/{municipio}/aplicativo/data/{id_lote}",
           .auth = "bearer",
           .tag = tag,
           .summary =
               "Pacote de dados de um lote para o aplicativo: {lote: Feature, edificacoes: "
               "[Feature], unidades: [Feature "
               "com pessoas], midia: [arquivos com link /midia/get?file_url=...], gerado_em}. "
               "gerado_em é a versão base a "
               "enviar nos logs offline. Requer leitura em lote; seções de camadas sem permissão "
               "de leitura (edificacao, "
               "imobiliario, pessoa) ficam de fora. Lote inexistente → 404; id não inteiro → 400.",
           .handler = [&app](Request& r) { return lot_data(app, r); }});
  srv.add({.method = "POST",
           .pattern = "/aplicativo/{municipio}/{camada}/intersect/bounding-box/",
           .auth = "bearer",
           .tag = tag,
           .summary = "Feições da camada que intersectam a bbox do corpo (lon/lat, "
                      "EPSG:4674/4326), como FeatureCollection "
                      "paginada (page/limit na query string, no máximo 1000 por página; filtros "
                      "campo=valor e sort como nas "
                      "listas) com numberMatched. Requer leitura na camada.",
           .params = with_paging(),
           .body = {.description = "{\"minLongitude\": n, \"minLatitude\": n, \"maxLongitude\": n, "
                                   "\"maxLatitude\": n} (números)"},
           .answers = kGeoJson,
           .handler = [&app](Request& r) { return bbox_features(app, r); }});
  srv.add(
      {.method = "POST",
       .pattern = "/aplicativo/{municipio}/aplicativo/get-tiles-from-lote/",
       .auth = "bearer",
       .tag = tag,
       .summary = "Tiles XYZ que cobrem a geometria dos lotes (não a bbox) em cada zoom do "
                  "intervalo, sem repetição, "
                  "ordenados por z, x, y: {tiles: [[x, y, z], ...]}. No máximo 10.000 tiles (acima "
                  "→ 400). Lotes "
                  "inexistentes → 404 com os ids. Requer leitura em lote.",
       .body =
           {.description =
                "{\"lotes\": [ids] (1 a 1000), \"zoom_min\": 0..22, \"zoom_max\": zoom_min..22}"},
       .handler = [&app](Request& r) { return lot_tiles(app, r); }});
  // The spec names the tenant segment {city} here; the router only uses the name to fill
  // Request::params, and the main bearer scheme reads "municipio", so that is its name.
  srv.add({.method = "POST",
           .pattern = "/aplicativo/{municipio}/aplicativo/process-logs-v2/",
           .auth = "bearer",
           .tag = tag,
           .summary = "Aplica os logs de edição offline do aplicativo, em ordem, de forma "
                      "idempotente: cada entrada é "
                      "identificada por (dispositivo, id_cliente) e uma entrada já processada não "
                      "é reaplicada (status "
                      "ja_processado, com o resultado gravado). Uma edição cuja versao_base é "
                      "anterior a uma alteração do "
                      "servidor não é aplicada: volta como conflito, com o registro atual. Corpo "
                      "malformado → 400 sem gravar "
                      "nada. Requer escrita em cada camada dos logs. Ver mobile_logs.hpp.",
           .body = {.description = kProcessLogsBody},
           .handler = [&app](Request& r) { return process_logs(app, r); }});
}

}  // namespace cadastre::server
