// Data and search (main router) and the read routes of /geo: lists with filters, bbox and
// paging, page counts, detail with relations, field search, most recent, address search,
// property units of a lot. Every answer is GeoJSON built by PostgreSQL in one statement.
#include <soci/soci.h>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "server/layer_access.hpp"
#include "server/tiles/pg_prepared.hpp"
#include "service/geojson.hpp"
#include "store/features.hpp"
#include "store/sql.hpp"

namespace cadastre::server {
namespace {

using http::Param;
using http::Request;
using http::Response;

const std::vector<Param> kListParams = with_paging_and_bbox();

// search/{type}/{field}/{value}: the path holds its one filter and how it compares.
std::vector<Param> search_params() {
  auto params = with_paging_and_bbox();
  std::erase_if(params, [](const Param& p) { return p.name == "type" || p.type == "object"; });
  return params;
}

struct Page {
  std::string features;
  long long returned = 0;
};

Page run_page(const Context& ctx, store::Sql& sql) {
  auto rows = ctx.db->with([&](soci::session& s) { return store::fetch(s, sql); });
  Page p;
  if (!rows.empty()) {
    p.features = rows[0][0].value_or("[]");
    p.returned = std::stoll(rows[0][1].value_or("0"));
  } else {
    p.features = "[]";
  }
  return p;
}

Response list(App& app, Request& req, query::ListQuery q) {
  auto layer = layer_for(app, req, req.param("camada"), false);
  auto fq = store::resolve(*layer, q);
  store::Sql sql;
  store::append_feature_page(sql, fq);
  Page p = run_page(context(req), sql);
  return feature_collection(req, p.features, p.returned, fq.paging);
}

Response list_route(App& app, Request& req) {
  return list(app, req, query::parse_list_query(query_params(req)));
}

Response pages(App& app, Request& req) {
  auto q = query::parse_list_query(query_params(req));
  auto layer = layer_for(app, req, req.param("camada"), false);
  auto fq = store::resolve(*layer, q);
  store::Sql sql;
  store::append_count(sql, fq);
  auto total =
      std::stoll(context(req)
                     .db->with([&](soci::session& s) { return store::fetch_value(s, sql); })
                     .value_or("0"));
  JsonWriter w;
  w.begin_object().key("total").value(static_cast<std::int64_t>(total));
  w.key("paginas").value(static_cast<std::int64_t>((total + fq.paging.size - 1) / fq.paging.size));
  w.key("limite").value(static_cast<std::int64_t>(fq.paging.size)).end_object();
  return Response::json(std::move(w).str());
}

Response search(App& app, Request& req) {
  auto params = query_params(req);
  // The path's type/field/value become one filter; paging and bbox still come from the query.
  std::erase_if(params,
                [](const auto& kv) { return !query::is_reserved(kv.first) || kv.first == "type"; });
  auto q = query::parse_list_query(params);
  q.filters = {
      {req.param("field"), query::parse_filter_type(req.param("type")), req.param("value")}};
  query::check_identifier(req.param("field"), "field");
  return list(app, req, std::move(q));
}

Response newest(App& app, Request& req) {
  auto q = query::parse_list_query(query_params(req));
  auto layer = layer_for(app, req, req.param("camada"), false);
  if (q.sort.empty()) {
    if (layer->column("criado_em")) q.sort.push_back({"criado_em", true});
    if (!layer->primary_key.empty()) q.sort.push_back({layer->primary_key, true});
  }
  return list(app, req, std::move(q));
}

// Relations of the two layers whose detail includes related records.
std::string detail_relations(const store::Layer& layer) {
  const std::string geo = "ST_AsGeoJSON(ST_Transform(%s.geom, 4326), 7)::jsonb";
  auto geometry_of = [&](const char* alias) {
    std::string g = geo;
    g.replace(g.find("%s"), 2, alias);
    return g;
  };
  std::string owners_of_unit =
      "(select coalesce(jsonb_agg(to_jsonb(p) || jsonb_build_object('papel', ip.papel, "
      "'percentual', ip.percentual) "
      "order by p.id), '[]'::jsonb) from cadastro.imobiliario_pessoa ip join cadastro.pessoa p on "
      "p.id = ip.pessoa_id "
      "where ip.imobiliario_id = %s)";
  auto owners = [&](const char* unit) {
    std::string o = owners_of_unit;
    o.replace(o.find("%s"), 2, unit);
    return o;
  };
  std::string buildings_of_lot =
      "(select coalesce(jsonb_agg((to_jsonb(e) - 'geom') || jsonb_build_object('geometry', " +
      geometry_of("e") +
      ") order by e.id), '[]'::jsonb) from cadastro.edificacao e where e.lote_id = %s)";
  auto buildings = [&](const char* lot) {
    std::string b = buildings_of_lot;
    b.replace(b.find("%s"), 2, lot);
    return b;
  };
  if (layer.name == "lote") {
    return "jsonb_build_object('imobiliarios', (select coalesce(jsonb_agg(to_jsonb(i) || "
           "jsonb_build_object('proprietarios', " +
           owners("i.id") +
           ") order by i.id), '[]'::jsonb) from cadastro.imobiliario i where i.lote_id = t.id), "
           "'edificacoes', " +
           buildings("t.id") + ")";
  }
  if (layer.name == "imobiliario") {
    return "jsonb_build_object('lote', (select (to_jsonb(l) - 'geom') || "
           "jsonb_build_object('geometry', " +
           geometry_of("l") + ") from cadastro.lote l where l.id = t.lote_id), 'edificacoes', " +
           buildings("t.lote_id") + ", 'proprietarios', " + owners("t.id") + ")";
  }
  return {};
}

Response detail(App& app, Request& req) {
  auto layer = layer_for(app, req, req.param("camada"), false);
  std::string id = record_id(*layer, req.param("id"));
  const store::Column& pk = *layer->column(layer->primary_key);
  std::string relations = detail_relations(*layer);
  if (!relations.empty()) {
    // Related layers are read too: the caller needs read permission on them.
    for (const char* related : {"imobiliario", "edificacao", "pessoa", "lote"})
      if (related != layer->name) layer_for(app, req, related, false);
  }
  store::Sql sql("select ");
  std::string feature = store::feature_expression(*layer, "t");
  if (relations.empty()) {
    sql << feature << "::text";
  } else {
    // properties || relations: json → jsonb to merge, then back to text.
    sql << "(" << feature << "::jsonb || jsonb_build_object('properties', (" << feature
        << "::jsonb -> 'properties') || " << relations << "))::text";
  }
  // The statement of a layer is the same text on every call (the id is its one parameter,
  // $1 for libpq), so it is prepared once per connection: parsing and planning it cost
  // twice its execution for a lot with its relations.
  sql << " from " << layer->qualified() << " t where t." << query::quote_identifier(pk.name)
      << " = $1::" << pk.type;
  auto rows = context(req).db->with(
      [&](soci::session& s) { return run_prepared_binary(s, sql.text(), {id}); });
  if (rows.empty() || !rows.front().front())
    throw Error(errc::not_found, "registro " + id + " não encontrado em " + layer->name);
  return Response::text(std::move(*rows.front().front()), kGeoJson);
}

Response address_search(App& app, Request& req) {
  for (const char* l : {"lote", "logradouro", "quadra", "bairro"}) layer_for(app, req, l, false);
  auto street = req.query_value("logradouro");
  if (!street || street->size() < 2)
    throw Error(errc::missing_field, "informe 'logradouro' (ao menos 2 letras do nome da rua)",
                "logradouro");
  auto paging = query::normalize_paging(query_params(req));
  store::Sql sql;
  sql << "select coalesce(json_agg(json_build_object('type', 'Feature', 'id', t.id, 'geometry', "
         "ST_AsGeoJSON(ST_Transform(t.geom, 4326), 7)::json, 'properties', (to_jsonb(t) - 'geom' - "
         "'logradouro_nome' - "
         "'bairro_nome') || jsonb_build_object('endereco', t.logradouro_nome || coalesce(', ' || "
         "t.numero, ''), "
         "'bairro', t.bairro_nome))), '[]')::text, count(*)::text from (select lo.*, "
         "dt.descricao || ' ' || l.nome as logradouro_nome, b.nome as bairro_nome "
         "from cadastro.lote lo join cadastro.logradouro l on l.id = lo.logradouro_id "
         "left join dominio.tipo_logradouro dt on dt.codigo = l.tipo "
         "left join cadastro.quadra q on q.id = lo.quadra_id left join cadastro.bairro b on b.id = "
         "q.bairro_id "
         "where unaccent(lower(l.nome)) like '%' || unaccent(lower(";
  sql.bind(query::escape_like(*street)) << ")) || '%' escape '\\'";
  if (auto n = req.query_value("numero")) {
    sql << " and lo.numero = ";
    sql.bind(std::to_string(query::parse_integer(*n, "numero", 0, 1000000)), "integer");
  }
  if (auto b = req.query_value("bairro")) {
    sql << " and unaccent(lower(b.nome)) like '%' || unaccent(lower(";
    sql.bind(query::escape_like(*b)) << ")) || '%' escape '\\'";
  }
  sql << " order by l.nome, lo.numero, lo.id limit " << std::to_string(paging.size) << " offset "
      << std::to_string(paging.offset) << ") t";
  Page p = run_page(context(req), sql);
  return feature_collection(req, p.features, p.returned, paging);
}

// Units have no geometry of their own: each is listed with its lot's, which also serves
// the bbox, so the lot's units are a list like any layer's (filters, sort, bbox, paging).
store::Layer units_with_lot_geometry(const store::Layer& units) {
  store::Layer out = units;
  store::Column geom;
  geom.name = "geom";
  geom.type = geom.base_type = "geometry";
  geom.geometry = true;
  out.columns.push_back(std::move(geom));
  out.geometry_column = "geom";
  return out;
}

Response units_of_lot(App& app, Request& req) {
  auto layer = layer_for(app, req, req.param("camada"), false);
  if (layer->name != "lote" && layer->name != "imobiliario")
    throw Error(errc::invalid_argument,
                "busca_imoveis está disponível para as camadas lote e imobiliario", "camada");
  auto units = layer_for(app, req, "imobiliario", false);
  std::string lot =
      std::to_string(query::parse_integer(req.param("id_lote"), "id_lote", 1, INT32_MAX));
  const store::Layer with_geometry = units_with_lot_geometry(*units);
  auto fq = store::resolve(with_geometry, query::parse_list_query(query_params(req)));
  store::Sql sql;
  fq.from =
      "(select i.*, l.geom from cadastro.imobiliario i join cadastro.lote l on l.id = i.lote_id "
      "where i.lote_id = " +
      sql.placeholder(lot, "integer") + ")";
  store::append_feature_page(sql, fq);
  Page p = run_page(context(req), sql);
  return feature_collection(req, p.features, p.returned, fq.paging);
}

}  // namespace

void add_layer_routes(App& app) {
  auto& srv = app.server();
  auto geojson = [](http::Route r) {
    r.answers = kGeoJson;
    return r;
  };
  for (std::string prefix : {"", "/geo"}) {
    std::string tag = prefix.empty() ? "Dados e busca" : "Geoespacial avançado";
    srv.add(geojson(
        {.method = "GET",
         .pattern = prefix + "/{municipio}/{camada}/",
         .auth = "bearer",
         .tag = tag,
         .summary =
             "Lista registros da camada (GeoJSON), com filtros campo=valor, bbox e paginação",
         .params = kListParams,
         .answers = "",
         .handler = [&app](Request& r) { return list_route(app, r); }}));
    srv.add({.method = "GET",
             .pattern = prefix + "/{municipio}/{camada}/pages/",
             .auth = "bearer",
             .tag = tag,
             .summary = "Total de registros e de páginas para os mesmos filtros e bbox",
             .params = kListParams,
             .handler = [&app](Request& r) { return pages(app, r); }});
    srv.add(geojson(
        {.method = "GET",
         .pattern = prefix + "/{municipio}/{camada}/{id}/",
         .auth = "bearer",
         .tag = tag,
         .summary = "Um registro; lote e imobiliario incluem unidades, edificações e proprietários",
         .answers = "",
         .handler = [&app](Request& r) { return detail(app, r); }}));
    srv.add(geojson({.method = "GET",
                     .pattern = prefix + "/{municipio}/{camada}/search/{type}/{field}/{value}/",
                     .auth = "bearer",
                     .tag = tag,
                     .summary = "Busca por um campo: type é exact, contains ou icontains",
                     .params = search_params(),
                     .answers = "",
                     .handler = [&app](Request& r) { return search(app, r); }}));
  }
  srv.add(geojson({.method = "GET",
                   .pattern = "/{municipio}/{camada}/search2/params/",
                   .auth = "bearer",
                   .tag = "Dados e busca",
                   .summary = "Busca por vários campos da query string (type vale para todos)",
                   .params = kListParams,
                   .answers = "",
                   .handler = [&app](Request& r) { return list_route(app, r); }}));
  srv.add(geojson({.method = "GET",
                   .pattern = "/{municipio}/{camada}/novos/",
                   .auth = "bearer",
                   .tag = "Dados e busca",
                   .summary = "Registros mais recentes primeiro (criado_em, depois id)",
                   .params = kListParams,
                   .answers = "",
                   .handler = [&app](Request& r) { return newest(app, r); }}));
  srv.add(geojson(
      {.method = "GET",
       .pattern = "/{municipio}/logradouro/buscar_endereco/",
       .auth = "bearer",
       .tag = "Dados e busca",
       .summary =
           "Lotes por endereço: nome do logradouro, número e bairro (sem acento e sem caixa)",
       .params = paging_params({{"logradouro", "query", "string", true, "parte do nome da rua"},
                                {"numero", "query", "integer", false, "número predial"},
                                {"bairro", "query", "string", false, "parte do nome do bairro"}}),
       .answers = "",
       .handler = [&app](Request& r) { return address_search(app, r); }}));
  srv.add(geojson({.method = "GET",
                   .pattern = "/{municipio}/{camada}/busca_imoveis/{id_lote}/",
                   .auth = "bearer",
                   .tag = "Dados e busca",
                   .summary = "Unidades imobiliárias de um lote, com a geometria do lote (que "
                              "também serve à bbox); filtros "
                              "campo=valor e sort sobre as colunas de imobiliario, como nas listas",
                   .params = kListParams,
                   .answers = "",
                   .handler = [&app](Request& r) { return units_of_lot(app, r); }}));
}

}  // namespace cadastre::server
