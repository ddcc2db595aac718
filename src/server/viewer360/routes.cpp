// 360 viewer (/visualizador360): street-level panoramas near cadastral features (nearest
// panorama, with the azimuth to the feature; panoramas and property units around a
// panorama), the attribute forms of catalog tables (viewer360_forms.cpp), the tenant's
// configuration and who the bearer is.
//
// Panoramas are cadastro.panorama rows, read with the read permission of layer
// "panorama". Distances are in metres on the spheroid (characterization_nearest.hpp); a
// feature is located by ST_PointOnSurface of its geometry (a point inside polygons, on
// lines), which is also the target of the azimuth.
#include <soci/soci.h>

#include <array>
#include <charconv>
#include <cmath>
#include <vector>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "server/characterization/nearest.hpp"
#include "server/layer_access.hpp"
#include "server/viewer360/forms.hpp"
#include "store/sql.hpp"

namespace cadastre::server {
namespace {

using http::Param;
using http::Request;
using http::Response;

constexpr double kMaxRadius = 5000;     // metres
constexpr double kMaxHeight = 1000;     // metres
constexpr double kHeightTolerance = 1;  // metres either side of height_ref
constexpr std::int64_t kDefaultRadiusRows = 100;
constexpr std::int64_t kMaxRadiusRows = 1000;

// A decimal number from a path segment within (min, max] (min itself when `min_inclusive`).
double path_number(const std::string& text, std::string_view field, double min, double max,
                   bool min_inclusive) {
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  const bool above = min_inclusive ? v >= min : v > min;
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) ||
      !above || v > max) {
    throw Error(errc::invalid_argument,
                std::string(field) + " deve ser um número " +
                    (min_inclusive ? "de " : "maior que ") + std::to_string(static_cast<int>(min)) +
                    (min_inclusive ? " a " : " e até ") + std::to_string(static_cast<int>(max)) +
                    " (metros)",
                std::string(field));
  }
  return v;
}

std::string number_text(double v) {
  char buf[40];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

std::int64_t rows_limit(const Request& req) {
  auto text = req.query_value("limit");
  return text ? query::parse_integer(*text, "limit", 1, kMaxRadiusRows) : kDefaultRadiusRows;
}

LayerRef geometry_layer(App& app, const Request& req, std::string_view name,
                        std::string_view field) {
  LayerRef ref = layer_for(app, req, name, false);
  if (ref->geometry_column.empty())
    throw Error(errc::invalid_argument, "a camada " + ref->name + " não tem geometria",
                std::string(field));
  return ref;
}

std::string geom_of(const store::Layer& layer, std::string_view alias) {
  return std::string(alias) + "." + query::quote_identifier(layer.geometry_column);
}

// A panorama row (`row`: an alias or a composite expression) as JSON: its columns, the
// geometry as GeoJSON lon/lat.
std::string panorama_json(const store::Layer& pano, std::string_view row) {
  const std::string r(row);
  return "(to_jsonb(" + r + ") - '" + pano.geometry_column +
         "' || jsonb_build_object('geometry', " + "ST_AsGeoJSON(ST_Transform(" + geom_of(pano, r) +
         ", 4326), 7)::jsonb))";
}

// Starts `sql` with the CTE c of the path's panorama: its key (pid), geometry (g), the
// distance (d) and any further `values` (name, text, cast). Placeholders are positional,
// so each value is bound once, in text order, and the rest of the query reads them from c.
void panorama_cte(store::Sql& sql, const store::Layer& pano, const std::string& id, double distance,
                  const std::vector<std::array<std::string, 3>>& values = {}) {
  const store::Column& pk = *pano.column(pano.primary_key);
  sql << "with c as materialized (select p." << query::quote_identifier(pk.name) << " as pid, "
      << geom_of(pano, "p") << " as g, ";
  sql.bind(number_text(distance), "float8") << " as d";
  for (const auto& [name, text, cast] : values) {
    sql << ", ";
    sql.bind(text, cast) << " as " << name;
  }
  sql << " from " << pano.qualified() << " p where p." << query::quote_identifier(pk.name) << " = ";
  sql.bind(id, pk.type) << ")";
}

// GET nearest-panorama-from-feature and nearest-panorama-and-azimuth.
Response nearest_panorama(App& app, Request& req, bool azimuth) {
  LayerRef feature_layer = geometry_layer(app, req, req.param("layer"), "layer");
  std::string id = record_id(*feature_layer, req.param("layer_id"));
  LayerRef pano = geometry_layer(app, req, "panorama", "layer");
  const store::Column& pk = *feature_layer->column(feature_layer->primary_key);
  const int srid = pano->column(pano->geometry_column)->srid;

  store::Sql sql("with f as materialized (select ST_PointOnSurface(ST_Transform(");
  sql << geom_of(*feature_layer, "r") << ", " << std::to_string(srid > 0 ? srid : 4674)
      << ")) as p from " << feature_layer->qualified() << " r where r."
      << query::quote_identifier(pk.name) << " = ";
  sql.bind(id, pk.type)
      << ") select (select count(*) from f)::text, (select json_build_object('camada', ";
  sql.bind(feature_layer->name) << "::text, 'id', ";
  sql.bind(id) << "::text, 'ponto', ST_AsGeoJSON(ST_Transform((select p from f), 4326), 7)::json, "
                  "'panorama', "
               << panorama_json(*pano, "n")
               << " - 'distancia_m' - 'ordem', 'distancia_m', n.distancia_m";
  if (azimuth) {
    // Clockwise from north, from the panorama to the feature; null when they coincide.
    sql << ", 'azimute', round(degrees(ST_Azimuth(" << geom_of(*pano, "n")
        << "::geography, (select p from f)::geography))::numeric, 2)";
  }
  sql << ")::text from " << nearest_rows(*pano, "(select p from f)", 1) << " n)";
  auto row = context(req).db->with([&](soci::session& s) { return store::fetch(s, sql).at(0); });
  if (row[0].value_or("0") == "0")
    throw Error(errc::not_found, "registro " + id + " não encontrado em " + feature_layer->name,
                "layer_id");
  if (!row[1])
    throw Error(errc::not_found, "nenhum panorama próximo de " + feature_layer->name + " " + id,
                "layer_id");
  return Response::json(std::move(*row[1]));
}

Response panoramas_in_radius(App& app, Request& req) {
  LayerRef pano = geometry_layer(app, req, "panorama", "pano_id");
  std::string id = record_id(*pano, req.param("pano_id"));
  double distance = path_number(req.param("distance"), "distance", 0, kMaxRadius, false);
  double height = path_number(req.param("height_ref"), "height_ref", 0, kMaxHeight, true);
  const std::int64_t limit = rows_limit(req);
  pano->require_column("altura", "height_ref");
  const std::string key = query::quote_identifier(pano->primary_key);

  store::Sql sql;
  panorama_cte(sql, *pano, id, distance, {{"h", number_text(height), "numeric"}});
  sql << ", hits as (select t as p, t." << key << " as pid, "
      << metres_between(geom_of(*pano, "t"), "(select g from c)") << " as m from "
      << pano->qualified() << " t where "
      << within_metres(geom_of(*pano, "t"), "(select g from c)", "(select d from c)") << " and t."
      << key << " <> (select pid from c) and abs(t.altura - (select h from c)) <= "
      << number_text(kHeightTolerance)
      << ") select (select count(*) from c)::text, (select count(*) from hits)::text, "
      << "(select coalesce(json_agg(" << panorama_json(*pano, "(h.p)")
      << " || jsonb_build_object('distancia_m', round(h.m::numeric, 2)) order by h.m, h.pid), "
         "'[]') from (select * "
      << "from hits order by m, pid limit " << std::to_string(limit) << ") h)::text";
  auto row = context(req).db->with([&](soci::session& s) { return store::fetch(s, sql).at(0); });
  if (row[0].value_or("0") == "0")
    throw Error(errc::not_found, "panorama " + id + " não encontrado", "pano_id");
  JsonWriter w;
  w.begin_object()
      .key("panorama_id")
      .value(id)
      .key("distancia_m")
      .value(distance)
      .key("height_ref")
      .value(height);
  w.key("tolerancia_altura_m").value(kHeightTolerance);
  w.key("total")
      .value(static_cast<std::int64_t>(std::stoll(row[1].value_or("0"))))
      .key("limite")
      .value(limit);
  w.key("panoramas").raw(row[2].value_or("[]")).end_object();
  return Response::json(std::move(w).str());
}

Response units_in_radius(App& app, Request& req) {
  LayerRef pano = geometry_layer(app, req, "panorama", "pano_id");
  LayerRef units = layer_for(app, req, "imobiliario", false);
  LayerRef lots = geometry_layer(app, req, "lote", "pano_id");
  std::string id = record_id(*pano, req.param("pano_id"));
  double distance = path_number(req.param("distance"), "distance", 0, kMaxRadius, false);
  const std::int64_t limit = rows_limit(req);
  units->require_column("lote_id");

  // A unit has no geometry of its own: it is where its lot is.
  store::Sql sql;
  panorama_cte(sql, *pano, id, distance);
  sql << ", hits as (select u, " << geom_of(*lots, "l") << " as lg, u.id as uid, "
      << metres_between(geom_of(*lots, "l"), "(select g from c)") << " as m from "
      << units->qualified() << " u join " << lots->qualified() << " l on l.id = u.lote_id where "
      << within_metres(geom_of(*lots, "l"), "(select g from c)", "(select d from c)")
      << ") select (select count(*) from c)::text, (select count(*) from hits)::text, "
      << "(select coalesce(json_agg(json_build_object('type', 'Feature', 'id', h.uid, 'geometry', "
      << "ST_AsGeoJSON(ST_Transform(ST_PointOnSurface(h.lg), 4326), 7)::json, 'properties', "
         "to_jsonb(h.u) || "
      << "jsonb_build_object('distancia_m', round(h.m::numeric, 2))) order by h.m, h.uid), '[]') "
         "from "
      << "(select * from hits order by m, uid limit " << std::to_string(limit) << ") h)::text";
  auto row = context(req).db->with([&](soci::session& s) { return store::fetch(s, sql).at(0); });
  if (row[0].value_or("0") == "0")
    throw Error(errc::not_found, "panorama " + id + " não encontrado", "pano_id");
  JsonWriter w;
  w.begin_object().key("panorama_id").value(id).key("distancia_m").value(distance);
  w.key("total")
      .value(static_cast<std::int64_t>(std::stoll(row[1].value_or("0"))))
      .key("limite")
      .value(limit);
  w.key("unidades").raw(row[2].value_or("[]")).end_object();
  return Response::json(std::move(w).str());
}

// The tenant as the viewer configures itself from it (never its database address).
void write_tenant(JsonWriter& w, const store::Tenant& t) {
  w.begin_object().key("id").value(t.id).key("slug").value(t.slug).key("nome").value(t.nome);
  w.key("uf")
      .value(t.uf)
      .key("codigo_ibge")
      .value(t.codigo_ibge)
      .key("fuso_horario")
      .value(t.fuso_horario);
  w.key("config").raw(t.config_json.empty() ? "{}" : t.config_json).end_object();
}

Response tenant_config(Request& req) {
  std::int64_t id = query::parse_integer(req.param("id_tenants"), "id_tenants", 1, INT64_MAX);
  const Context& ctx = context(req);
  if (id != ctx.tenant.id)
    throw Error(errc::tenant_forbidden,
                "a credencial só dá acesso à configuração do próprio município", "id_tenants");
  JsonWriter w;
  write_tenant(w, ctx.tenant);
  return Response::json(std::move(w).str());
}

Response who_am_i(App& app, Request& req) {
  const Context& ctx = context(req);
  auto perms = app.identity().permissions(ctx.user.user_id);
  auto catalog = app.catalogs().get(ctx.tenant, *ctx.db);
  JsonWriter w;
  w.begin_object().key("usuario").begin_object();
  w.key("id")
      .value(ctx.user.user_id)
      .key("email")
      .value(ctx.user.email)
      .key("nome")
      .value(ctx.user.nome);
  w.key("adm").value(ctx.user.admin).key("regras").begin_array();
  for (const auto& p : perms) {
    w.begin_object()
        .key("camada")
        .value(p.camada)
        .key("leitura")
        .value(p.leitura)
        .key("escrita")
        .value(p.escrita);
    w.end_object();
  }
  w.end_array().key("camadas").begin_array();
  for (const auto& [layer, _] : catalog->layers()) {
    w.begin_object().key("camada").value(layer);
    w.key("leitura").value(store::layer_allowed(perms, layer, false, ctx.user.admin));
    w.key("escrita").value(store::layer_allowed(perms, layer, true, ctx.user.admin)).end_object();
  }
  w.end_array().end_object().key("municipio");
  write_tenant(w, ctx.tenant);
  w.end_object();
  return Response::json(std::move(w).str());
}

}  // namespace

void add_viewer360_routes(App& app) {
  auto& srv = app.server();
  const std::string tag = "Visualizador 360";
  const std::string base = "/visualizador360/{municipio}/";
  const Param limit{"limit", "query", "integer", false,
                    "máximo de itens na resposta (padrão 100, até 1000)"};
  const std::string feature_note =
      " A feição ({layer} com geometria, leitura permitida; {layer_id} sua chave) é localizada por "
      "ST_PointOnSurface; "
      "requer também leitura na camada 'panorama'. Distâncias em metros sobre o elipsoide.";
  srv.add({.method = "GET",
           .pattern = base + "nearest-panorama-from-feature/{layer}/{layer_id}",
           .auth = "bearer",
           .tag = tag,
           .summary = "Panorama mais próximo de uma feição: {camada, id, ponto, panorama, "
                      "distancia_m}. Feição inexistente ou "
                      "nenhum panorama → 404." +
                      feature_note,
           .handler = [&app](Request& r) { return nearest_panorama(app, r, false); }});
  srv.add({.method = "GET",
           .pattern = base + "nearest-panorama-and-azimuth/{layer}/{layer_id}",
           .auth = "bearer",
           .tag = tag,
           .summary =
               "Panorama mais próximo e o azimute do panorama até a feição (graus a partir do "
               "norte, sentido horário, "
               "0–360; null se coincidem): {camada, id, ponto, panorama, distancia_m, azimute}." +
               feature_note,
           .handler = [&app](Request& r) { return nearest_panorama(app, r, true); }});
  srv.add({.method = "GET",
           .pattern = base + "get-panoramas-in-radius/{pano_id}/{distance}/{height_ref}",
           .auth = "bearer",
           .tag = tag,
           .summary = "Panoramas a até {distance} metros (0 < distance ≤ 5000) do panorama "
                      "{pano_id}, sem ele, cuja altura de "
                      "captura está a até ±1 m de {height_ref} (metros, 0–1000), do mais próximo "
                      "ao mais distante: {total, limite, "
                      "panoramas: [colunas, geometry, distancia_m]}. Panorama inexistente → 404.",
           .params = {limit},
           .handler = [&app](Request& r) { return panoramas_in_radius(app, r); }});
  srv.add({.method = "GET",
           .pattern = base + "get-imobiliarios-in-radius/{pano_id}/{distance}",
           .auth = "bearer",
           .tag = tag,
           .summary = "Unidades imobiliárias cujo lote está a até {distance} metros (0 < distance "
                      "≤ 5000) do panorama {pano_id}, "
                      "como Features (ponto no lote; propriedades da unidade e distancia_m), da "
                      "mais próxima à mais distante. "
                      "Requer leitura em panorama, imobiliario e lote.",
           .params = {limit},
           .handler = [&app](Request& r) { return units_in_radius(app, r); }});
  srv.add({.method = "GET",
           .pattern = base + "formularios/{schema_table}",
           .auth = "bearer",
           .tag = tag,
           .summary = "Campos do formulário de uma tabela do catálogo (cadastro.<camada> ou "
                      "dominio.<tabela>; outras → 400): "
                      "nome, tipo, anulavel, obrigatorio, chave_primaria, geometria e, para chaves "
                      "estrangeiras, a referência com "
                      "os valores {codigo, descricao} das tabelas de domínio (se o usuário pode "
                      "ler 'dominio').",
           .handler = [&app](Request& r) { return form_fields(app, r); }});
  srv.add({.method = "GET",
           .pattern = base + "valores/{schema_table}/{id}",
           .auth = "bearer",
           .tag = tag,
           .summary = "Valores de um registro de uma tabela do catálogo, como Feature GeoJSON; "
                      "inexistente → 404.",
           .answers = "application/geo+json",
           .handler = [&app](Request& r) { return record_values(app, r); }});
  srv.add({.method = "GET",
           .pattern = base + "ultima-alteracao/{schema_table}/{id}",
           .auth = "bearer",
           .tag = tag,
           .summary = "Última alteração registrada na auditoria: {schema_table, registro_id, "
                      "operacao (insercao, alteracao, "
                      "exclusao), usuario_id, usuario_email, em}; 404 se o registro nunca foi "
                      "alterado pela API.",
           .handler = [&app](Request& r) { return last_change(app, r); }});
  srv.add({.method = "POST",
           .pattern = base + "atts",
           .auth = "bearer",
           .tag = tag,
           .summary = "Inserções e atualizações de atributos de uma camada do cadastro em uma "
                      "transação, auditadas: tudo ou nada. "
                      "Erro em um registro → 4xx com lista e linha (1 em diante) e nada gravado. "
                      "Requer escrita na camada.",
           .body = {.description = "{\"schema_table\": \"cadastro.<camada>\", \"inserir\": "
                                   "[registros], \"atualizar\": [registros com id]} "
                                   "(até 1000 registros)"},
           .handler = [&app](Request& r) { return batch_attributes(app, r); }});
  srv.add({.method = "GET",
           .pattern = base + "tenant-config/{id_tenants}",
           .auth = "bearer",
           .tag = tag,
           .summary = "Configuração do município {id, slug, nome, uf, codigo_ibge, fuso_horario, "
                      "config}; só o próprio "
                      "município da credencial (outro → 403; id não inteiro → 400).",
           .handler = [](Request& r) { return tenant_config(r); }});
  srv.add({.method = "GET",
           .pattern = "/visualizador360/auth",
           .auth = "bearer",
           .tag = tag,
           .summary = "Usuário do token (id, email, nome, adm, regras e permissões efetivas por "
                      "camada) e a configuração do seu "
                      "município.",
           .handler = [&app](Request& r) { return who_am_i(app, r); }});
}

}  // namespace cadastre::server
