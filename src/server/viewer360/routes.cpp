// 360 viewer (/visualizador360): street-level panoramas near cadastral features (nearest
// panorama, with the azimuth to the feature; panoramas and property units around a
// panorama), the attribute forms of catalog tables (tables.hpp: "schema.table" names), the
// tenant's configuration and who the bearer is. Panoramas are cadastro.panorama rows, read
// with the read permission of layer "panorama"; the SQL is in store.cpp.
#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "server/app.hpp"
#include "server/users/permissions.hpp"
#include "server/viewer360/input.hpp"
#include "server/viewer360/store.hpp"
#include "server/viewer360/tables.hpp"
#include "service/geojson.hpp"
#include "service/scope.hpp"
#include "service/tenant_config.hpp"

namespace cadastre::server::viewer360 {
namespace {

using http::Param;
using http::Request;
using http::Response;
using service::LayerRef;
using service::Scope;

const LayerRef& with_geometry(const LayerRef& ref, std::string_view field) {
  if (ref->geometry_column.empty())
    throw Error(errc::invalid_argument, "a camada " + ref->name + " não tem geometria",
                std::string(field));
  return ref;
}

// The record id of a path segment in the form the audit trail writes it (7, not 007).
std::string canonical_id(const store::Layer& layer, const std::string& text) {
  std::string id = service::record_id(layer, text);
  return layer.column(layer.primary_key)->integer() ? std::to_string(std::stoll(id)) : id;
}

// GET nearest-panorama-from-feature and nearest-panorama-and-azimuth.
Response nearest(const Scope& s, const Request& req, bool azimuth) {
  const LayerRef& feature = with_geometry(s.layer(), "layer");
  std::string id = service::record_id(*feature, req.param("layer_id"));
  LayerRef pano = with_geometry(s.layer("panorama", false), "layer");
  auto found = nearest_panorama(*s.db, *feature, id, *pano, azimuth);
  if (!found.feature_found)
    throw Error(errc::not_found, "registro " + id + " não encontrado em " + feature->name,
                "layer_id");
  if (!found.json)
    throw Error(errc::not_found, "nenhum panorama próximo de " + feature->name + " " + id,
                "layer_id");
  return Response::json(std::move(*found.json));
}

Response nearest_route(const Scope& s, Request& req) { return nearest(s, req, false); }
Response azimuth_route(const Scope& s, Request& req) { return nearest(s, req, true); }

Response panoramas_route(const Scope& s, Request& req) {
  LayerRef pano = with_geometry(s.layer("panorama", false), "pano_id");
  std::string id = service::record_id(*pano, req.param("pano_id"));
  double distance = path_number(req, "distance", 0, kMaxRadius, false);
  double height = path_number(req, "height_ref", 0, kMaxHeight, true);
  const std::int64_t limit = rows_limit(req);
  pano->require_column("altura", "height_ref");
  auto found = panoramas_in_radius(*s.db, *pano, id, distance, height, limit);
  if (!found.found) throw Error(errc::not_found, "panorama " + id + " não encontrado", "pano_id");
  JsonWriter w;
  w.begin_object()
      .key("panorama_id")
      .value(id)
      .key("distancia_m")
      .value(distance)
      .key("height_ref")
      .value(height);
  w.key("tolerancia_altura_m").value(kHeightTolerance);
  w.key("total").value(found.total).key("limite").value(limit);
  w.key("panoramas").raw(found.rows).end_object();
  return Response::json(std::move(w).str());
}

Response units_route(const Scope& s, Request& req) {
  LayerRef pano = with_geometry(s.layer("panorama", false), "pano_id");
  LayerRef units = s.layer("imobiliario", false);
  LayerRef lots = with_geometry(s.layer("lote", false), "pano_id");
  std::string id = service::record_id(*pano, req.param("pano_id"));
  double distance = path_number(req, "distance", 0, kMaxRadius, false);
  const std::int64_t limit = rows_limit(req);
  units->require_column("lote_id");
  auto found = units_in_radius(*s.db, *pano, *units, *lots, id, distance, limit);
  if (!found.found) throw Error(errc::not_found, "panorama " + id + " não encontrado", "pano_id");
  JsonWriter w;
  w.begin_object().key("panorama_id").value(id).key("distancia_m").value(distance);
  w.key("total").value(found.total).key("limite").value(limit);
  w.key("unidades").raw(found.rows).end_object();
  return Response::json(std::move(w).str());
}

// The form of a catalog table: its columns and, for foreign keys, the reference with the
// lookup values of domain tables.
std::string form_json(const CatalogTable& t, const FormReferences& f) {
  JsonWriter w;
  w.begin_object()
      .key("schema_table")
      .value(t.name)
      .key("esquema")
      .value(t->schema)
      .key("tabela")
      .value(t->name);
  w.key("visao").value(t->is_view).key("chave_primaria");
  if (t->primary_key.empty())
    w.null();
  else
    w.value(t->primary_key);
  w.key("campos").begin_array();
  for (const store::Column& c : t->columns) {
    w.begin_object()
        .key("nome")
        .value(c.name)
        .key("tipo")
        .value(c.type)
        .key("tipo_base")
        .value(c.base_type);
    w.key("anulavel").value(c.nullable).key("tem_padrao").value(c.has_default);
    w.key("obrigatorio")
        .value(!c.nullable && !c.has_default)
        .key("chave_primaria")
        .value(c.primary_key);
    w.key("geometria").value(c.geometry);
    if (c.geometry) w.key("tipo_geometria").value(c.geometry_type).key("srid").value(c.srid);
    if (auto r = f.references.find(c.name); r != f.references.end()) {
      const std::string target = r->second.schema + "." + r->second.table;
      w.key("referencia")
          .begin_object()
          .key("tabela")
          .value(target)
          .key("coluna")
          .value(r->second.column);
      if (auto v = f.values.find(c.name); v != f.values.end()) w.key("valores").raw(v->second);
      w.end_object();
    }
    w.end_object();
  }
  w.end_array().end_object();
  return std::move(w).str();
}

// The handlers of catalog tables named as "schema.table".
Response fields(const Scope& s, Request& req) {
  CatalogTable t = catalog_table(s, req.param("schema_table"), false);
  // Domain values are shown to callers who may read the domain tables.
  std::shared_ptr<const store::Catalog> dominio;
  if (s.may("dominio", false)) dominio = s.catalog("dominio");
  return Response::json(form_json(t, form_references(*s.db, *t, dominio.get())));
}

Response values(const Scope& s, Request& req) {
  CatalogTable t = catalog_table(s, req.param("schema_table"), false);
  std::string id = service::record_id(*t, req.param("id"));
  auto feature = record_feature(*s.db, *t, id);
  if (!feature)
    throw Error(errc::not_found, "registro " + id + " não encontrado em " + t.name, "id");
  return Response::text(std::move(*feature), kGeoJson);
}

Response changed(const Scope& s, Request& req) {
  CatalogTable t = catalog_table(s, req.param("schema_table"), false);
  std::string id = canonical_id(*t, req.param("id"));
  auto row = last_change(*s.db, t.name, id);
  if (!row)
    throw Error(errc::not_found, "nenhuma alteração registrada de " + t.name + " " + id, "id");
  return Response::json(std::move(*row));
}

std::string atts_report(const CatalogTable& t, const std::vector<AttributeRow>& rows,
                        const service::BatchOutcome& out) {
  JsonWriter w;
  w.begin_object().key("schema_table").value(t.name);
  for (bool update : {false, true}) {
    w.key(update ? "atualizados" : "inseridos").begin_array();
    for (std::size_t k = 0; k < rows.size(); ++k) {
      if (rows[k].update != update) continue;
      w.begin_object().key("linha").value(static_cast<std::int64_t>(rows[k].index + 1));
      w.key("id").value(out.rows[k].id).end_object();
    }
    w.end_array();
  }
  w.key("total").value(static_cast<std::int64_t>(rows.size())).end_object();
  return std::move(w).str();
}

// Inserts and updates of one layer, all or nothing; the first failing row is the answer.
Response atts(const Scope& s, Request& req) {
  CatalogTable t = catalog_table(s, atts_table(req.body), true);
  if (t->schema != "cadastro")
    throw Error(errc::invalid_argument,
                "tabelas de domínio são alteradas por /dominio, com as regras de código",
                "schema_table");
  std::vector<AttributeRow> rows;
  try {
    rows = parse_atts(req.body, *t);
  } catch (const ListItemError& e) {
    return list_error(e.error, list_name(e.update), e.index, " (nada foi gravado)");
  }
  auto out = write_attributes(*s.db, *t, rows, s.user);
  if (!out.committed()) {
    const AttributeRow& failed = rows[*out.first_error];
    return list_error(out.error(), list_name(failed.update), failed.index, " (nada foi gravado)");
  }
  return Response::json(atts_report(t, rows, out));
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
  w.key("config").raw(service::tenant_config::public_view(t.config_json)).end_object();  // no credentials
}

Response tenant_config(const Scope& s, Request& req) {
  std::int64_t id = query::parse_integer(req.param("id_tenants"), "id_tenants", 1, INT64_MAX);
  if (id != s.tenant.id)
    throw Error(errc::tenant_forbidden,
                "a credencial só dá acesso à configuração do próprio município", "id_tenants");
  JsonWriter w;
  write_tenant(w, s.tenant);
  return Response::json(std::move(w).str());
}

Response who_am_i(const Scope& s, Request&) {
  JsonWriter w;
  w.begin_object().key("usuario").begin_object();
  w.key("id").value(s.user.user_id).key("email").value(s.user.email).key("nome").value(s.user.nome);
  w.key("adm").value(s.user.admin);
  users::write_permissions(w, s);
  w.end_object().key("municipio");
  write_tenant(w, s.tenant);
  w.end_object();
  return Response::json(std::move(w).str());
}

}  // namespace
}  // namespace cadastre::server::viewer360

namespace cadastre::server {

void add_viewer360_routes(App& app) {
  using namespace viewer360;
  using service::scoped;
  auto& srv = app.server();
  const std::string tag = "Visualizador 360";
  const std::string base = "/visualizador360/{municipio}/";
  const Param limit{"limit", "query", "integer", false,
                    "máximo de itens na resposta (padrão 100, até 1000)"};
  const std::string feature_note =
      " A feição ({layer} com geometria; {layer_id} sua chave) é localizada por ST_PointOnSurface; "
      "lê também a camada 'panorama'. Distâncias em metros sobre o elipsoide.";
  srv.add({.method = "GET",
           .pattern = base + "nearest-panorama-from-feature/{layer}/{layer_id}",
           .auth = "bearer",
           .access = http::reads("{layer}"),
           .tag = tag,
           .summary = "Panorama mais próximo de uma feição: {camada, id, ponto, panorama, "
                      "distancia_m}. Feição "
                      "inexistente ou nenhum panorama → 404." +
                      feature_note,
           .handler = scoped(&nearest_route)});
  srv.add({.method = "GET",
           .pattern = base + "nearest-panorama-and-azimuth/{layer}/{layer_id}",
           .auth = "bearer",
           .access = http::reads("{layer}"),
           .tag = tag,
           .summary = "Panorama mais próximo e o azimute do panorama até a feição (graus a partir "
                      "do norte, sentido "
                      "horário, 0–360; null se coincidem): {camada, id, ponto, panorama, "
                      "distancia_m, azimute}." +
                      feature_note,
           .handler = scoped(&azimuth_route)});
  srv.add({.method = "GET",
           .pattern = base + "get-panoramas-in-radius/{pano_id}/{distance}/{height_ref}",
           .auth = "bearer",
           .access = http::reads("panorama"),
           .tag = tag,
           .summary = "Panoramas a até {distance} metros (0 < distance ≤ 5000) do panorama "
                      "{pano_id}, sem ele, cuja "
                      "altura de captura está a até ±1 m de {height_ref} (metros, 0–1000), do mais "
                      "próximo ao mais "
                      "distante: {total, limite, panoramas: [colunas, geometry, distancia_m]}. "
                      "Panorama inexistente "
                      "→ 404.",
           .params = {limit},
           .handler = scoped(&panoramas_route)});
  srv.add(
      {.method = "GET",
       .pattern = base + "get-imobiliarios-in-radius/{pano_id}/{distance}",
       .auth = "bearer",
       .access = http::reads("panorama"),
       .tag = tag,
       .summary =
           "Unidades imobiliárias cujo lote está a até {distance} metros (0 < distance ≤ 5000) do "
           "panorama {pano_id}, como Features (ponto no lote; propriedades da unidade e "
           "distancia_m), da "
           "mais próxima à mais distante. Lê também as camadas imobiliario e lote.",
       .params = {limit},
       .handler = scoped(&units_route)});
  srv.add(
      {.method = "GET",
       .pattern = base + "formularios/{schema_table}",
       .auth = "bearer",
       .access = http::members("leitura na camada de {schema_table} (verificada pelo guarda)"),
       .tag = tag,
       .summary =
           "Campos do formulário de uma tabela do catálogo (cadastro.<camada> ou dominio.<tabela>; "
           "outras "
           "→ 400): nome, tipo, anulavel, obrigatorio, chave_primaria, geometria e, para chaves "
           "estrangeiras, a referência com os valores {codigo, descricao} das tabelas de domínio "
           "(se o "
           "usuário pode ler 'dominio').",
       .handler = scoped(&fields)});
  srv.add({.method = "GET",
           .pattern = base + "valores/{schema_table}/{id}",
           .auth = "bearer",
           .access = http::members("leitura na camada de {schema_table} (verificada pelo guarda)"),
           .tag = tag,
           .summary = "Valores de um registro de uma tabela do catálogo, como Feature GeoJSON; "
                      "inexistente → 404.",
           .answers = kGeoJson,
           .handler = scoped(&values)});
  srv.add({.method = "GET",
           .pattern = base + "ultima-alteracao/{schema_table}/{id}",
           .auth = "bearer",
           .access = http::members("leitura na camada de {schema_table} (verificada pelo guarda)"),
           .tag = tag,
           .summary = "Última alteração registrada na auditoria: {schema_table, registro_id, "
                      "operacao (insercao, "
                      "alteracao, exclusao), usuario_id, usuario_email, em}; 404 se o registro "
                      "nunca foi alterado "
                      "pela API.",
           .handler = scoped(&changed)});
  srv.add({.method = "POST",
           .pattern = base + "atts",
           .auth = "bearer",
           .access = http::members("escrita na camada de schema_table do corpo (verificada pelo guarda)"),
           .tag = tag,
           .summary = "Inserções e atualizações de atributos de uma camada do cadastro em uma "
                      "transação, auditadas: "
                      "tudo ou nada. Erro em um registro → 4xx com lista e linha (1 em diante) e "
                      "nada gravado. "
                      "Escreve na camada de schema_table.",
           .body = {.description =
                        "{\"schema_table\": \"cadastro.<camada>\", \"inserir\": [registros], "
                        "\"atualizar\": [registros com id]} (até 1000 registros)"},
           .handler = scoped(&atts)});
  srv.add({.method = "GET",
           .pattern = base + "tenant-config/{id_tenants}",
           .auth = "bearer",
           .access = http::members("o próprio município da credencial"),
           .tag = tag,
           .summary = "Configuração do município {id, slug, nome, uf, codigo_ibge, fuso_horario, "
                      "config}; só o "
                      "próprio município da credencial (outro → 403; id não inteiro → 400).",
           .handler = scoped(&tenant_config)});
  srv.add(
      {.method = "GET",
       .pattern = "/visualizador360/auth",
       .auth = "bearer",
       .access = http::members("o próprio usuário e o seu município"),
       .tag = tag,
       .summary =
           "Usuário do token (id, email, nome, adm, regras e permissões efetivas por camada) e a "
           "configuração do seu município.",
       .handler = scoped(&who_am_i)});
}

}  // namespace cadastre::server
