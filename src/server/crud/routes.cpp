// Generic cadastral CRUD (/crud): create, update, delete with main relations, all-or-nothing
// batch import and update with a per-row report, georeferenced images and LIDAR profiles.
// Every write needs write permission on the layer and leaves audit rows.
#include <simdjson.h>
#include <soci/soci.h>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "server/layer_access.hpp"
#include "service/geojson.hpp"
#include "store/features.hpp"
#include "store/records.hpp"
#include "store/sql.hpp"

namespace cadastre::server {
namespace {

using http::Request;
using http::Response;

constexpr std::size_t kMaxBatch = 10000;

Response created(const store::Written& w, int status) {
  auto r = Response::text(w.feature, kGeoJson, status);
  return r;
}

Response create(App& app, Request& req, std::string_view camada) {
  auto layer = layer_for(app, req, camada, true);
  auto in = store::parse_record(*layer, req.body);
  const Context& ctx = context(req);
  auto w = ctx.db->with([&](soci::session& s) {
    store::Written out;
    store::in_transaction(s, [&] { out = store::insert_record(s, *layer, in, ctx.user); });
    return out;
  });
  auto r = created(w, 201);
  r.headers.set("Location", "/" + ctx.tenant.slug + "/" + layer->name + "/" + w.id + "/");
  return r;
}

Response update(App& app, Request& req, std::string_view camada) {
  auto layer = layer_for(app, req, camada, true);
  auto in = store::parse_record(*layer, req.body);
  if (!in.id) throw Error(errc::missing_field, "o corpo precisa do campo 'id'", "id");
  record_id(*layer, *in.id);
  const Context& ctx = context(req);
  auto w = ctx.db->with([&](soci::session& s) {
    store::Written out;
    store::in_transaction(s, [&] { out = store::update_record(s, *layer, in, ctx.user); });
    return out;
  });
  return created(w, 200);
}

Response remove(App& app, Request& req) {
  auto layer = layer_for(app, req, req.param("camada"), true);
  auto id_text = req.query_value("id");
  if (!id_text) throw Error(errc::missing_field, "informe ?id= do registro a remover", "id");
  std::string id = record_id(*layer, *id_text);
  const Context& ctx = context(req);
  long long removed = ctx.db->with([&](soci::session& s) {
    long long n = 0;
    store::in_transaction(s, [&] { n = store::delete_record(s, *layer, id, ctx.user); });
    return n;
  });
  JsonWriter w;
  w.begin_object().key("id").value(id).key("camada").value(layer->name);
  w.key("registros_removidos").value(static_cast<std::int64_t>(removed)).end_object();
  return Response::json(std::move(w).str());
}

// The records of a batch body: a JSON array, {"registros": [...]} or a FeatureCollection.
simdjson::dom::array batch_rows(simdjson::dom::element body) {
  simdjson::dom::array rows;
  if (!body.get(rows)) return rows;
  auto obj = jsonin::as_object(body, "corpo");
  simdjson::dom::element e;
  if (!obj["registros"].get(e) || !obj["features"].get(e)) return jsonin::as_array(e, "registros");
  throw Error(errc::invalid_argument,
              "o lote deve ser uma lista, {\"registros\": [...]} ou uma FeatureCollection",
              "corpo");
}

struct RowOutcome {
  std::string status;  // "criado", "atualizado", "revertido", "erro"
  std::string id;
  std::optional<Error> error;
};

// All or nothing: each row runs under a savepoint so every row's outcome is known; any
// error rolls the whole batch back. The answer reports every row and the first error.
Response batch(App& app, Request& req, bool updating) {
  auto layer = layer_for(app, req, req.param("camada"), true);
  simdjson::dom::parser parser;
  auto rows = batch_rows(jsonin::parse(parser, req.body));
  if (rows.size() == 0) throw Error(errc::invalid_argument, "o lote está vazio", "registros");
  if (rows.size() > kMaxBatch)
    throw Error(errc::payload_too_large,
                "no máximo " + std::to_string(kMaxBatch) + " registros por lote", "registros");
  const Context& ctx = context(req);
  std::vector<RowOutcome> outcomes(rows.size());
  std::optional<std::size_t> first_error;
  ctx.db->run([&](soci::session& s) {
    first_error.reset();
    soci::transaction tx(s);
    std::size_t i = 0;
    for (auto row : rows) {
      RowOutcome& o = outcomes[i];
      o = {};
      std::string where = "registros[" + std::to_string(i) + "]";
      s << "savepoint linha";
      try {
        auto in = store::parse_record_element(*layer, &row, where);
        if (updating && in.id) record_id(*layer, *in.id);
        auto w = updating ? store::update_record(s, *layer, in, ctx.user)
                          : store::insert_record(s, *layer, in, ctx.user);
        o.status = updating ? "atualizado" : "criado";
        o.id = w.id;
        s << "release savepoint linha";
      } catch (const Error& e) {
        o.status = "erro";
        o.error = e;
      } catch (const soci::soci_error& e) {
        o.error = store::database_error(e);
        if (!o.error) throw;  // an internal failure is not the row's: the whole batch fails (500)
        o.status = "erro";
      }
      if (o.error) {
        s << "rollback to savepoint linha";
        if (!first_error) first_error = i;
      }
      ++i;
    }
    if (first_error)
      tx.rollback();
    else
      tx.commit();
  });

  JsonWriter w;
  w.begin_object();
  if (first_error) {
    const Error& e = *outcomes[*first_error].error;
    w.key("mensagem")
        .value("linha " + std::to_string(*first_error + 1) + ": " + e.what() +
               " (nada foi gravado)");
    w.key("tipo").value("erro").key("codigo").value(code_string(e.code()));
    w.key("linha").value(static_cast<std::int64_t>(*first_error + 1));
  } else {
    w.key("total").value(static_cast<std::int64_t>(outcomes.size()));
  }
  w.key("resultados").begin_array();
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const RowOutcome& o = outcomes[i];
    w.begin_object().key("linha").value(static_cast<std::int64_t>(i + 1));
    w.key("status").value(first_error && !o.error ? "revertido" : o.status);
    if (!o.id.empty() && !first_error) w.key("id").value(o.id);  // a reverted id does not exist
    if (o.error) {
      w.key("codigo").value(code_string(o.error->code())).key("mensagem").value(o.error->what());
      if (!o.error->field().empty()) w.key("campo").value(o.error->field());
    }
    w.end_object();
  }
  w.end_array().end_object();
  int status =
      first_error ? http_status(outcomes[*first_error].error->code()) : (updating ? 200 : 201);
  return Response::json(std::move(w).str(), status);
}

void check_image_link(const std::string& body) {
  simdjson::dom::parser p;
  auto obj = jsonin::as_object(jsonin::parse(p, body), "corpo");
  simdjson::dom::element props;
  if (!obj["properties"].get(props) && props.is_object()) obj = props.get_object().value();
  auto url = jsonin::opt_string(obj, "url");
  if (!url) return;  // updates may leave the link as it is; creates fail on NOT NULL
  bool media = url->rfind("/midia/get?file_url=", 0) == 0;
  bool web = url->rfind("https://", 0) == 0 || url->rfind("http://", 0) == 0;
  if (!media && !web)
    throw Error(errc::invalid_argument,
                "url deve ser um link do acervo (/midia/get?file_url=...) ou http(s)", "url");
}

Response profiles(App& app, Request& req) {
  auto layer = layer_for(app, req, "perfil_lidar", false);
  auto q = query::parse_list_query(query_params(req));
  if (q.sort.empty()) q.sort = {{"perfil", false}, {"sequencia", false}};
  auto fq = store::resolve(*layer, q);
  store::Sql sql;
  store::append_feature_page(sql, fq);
  auto rows = context(req).db->with([&](soci::session& s) { return store::fetch(s, sql); });
  return feature_collection(req, rows.at(0)[0].value_or("[]"),
                            std::stoll(rows.at(0)[1].value_or("0")), fq.paging);
}

}  // namespace

void add_crud_routes(App& app) {
  auto& srv = app.server();
  const std::string tag = "CRUD cadastral";
  srv.add(http::Route{.method = "POST",
                      .pattern = "/crud/{municipio}/{camada}/",
                      .auth = "bearer",
                      .tag = tag,
                      .summary = "Cria um registro (JSON; geometria GeoJSON em lon/lat, validada)",
                      .body = {.description = "registro: objeto de campos ou Feature GeoJSON"},
                      .answers = kGeoJson,
                      .handler = [&app](Request& r) { return create(app, r, r.param("camada")); }});
  srv.add({.method = "PUT",
           .pattern = "/crud/{municipio}/{camada}/",
           .auth = "bearer",
           .tag = tag,
           .summary = "Atualiza os campos enviados; o corpo precisa de id",
           .body = {.description = "registro com id e os campos a alterar"},
           .answers = kGeoJson,
           .handler = [&app](Request& r) { return update(app, r, r.param("camada")); }});
  srv.add({.method = "DELETE",
           .pattern = "/crud/{municipio}/{camada}/",
           .auth = "bearer",
           .tag = tag,
           .summary = "Remove o registro e suas relações principais (lote → unidades, "
                      "proprietários, edificações)",
           .params = {{"id", "query", "string", true, "id do registro"}},
           .handler = [&app](Request& r) { return remove(app, r); }});
  srv.add(
      {.method = "POST",
       .pattern = "/crud/{municipio}/{camada}/import/",
       .auth = "bearer",
       .tag = tag,
       .summary = "Importação em lote: tudo ou nada, com o resultado de cada linha e a primeira "
                  "linha com erro",
       .body = {.description =
                    "lista de registros, {\"registros\": [...]} ou FeatureCollection (até 10.000)"},
       .handler = [&app](Request& r) { return batch(app, r, false); }});
  srv.add({.method = "PUT",
           .pattern = "/crud/{municipio}/{camada}/update/",
           .auth = "bearer",
           .tag = tag,
           .summary = "Atualização em lote: tudo ou nada, com o resultado de cada linha",
           .body = {.description = "lista de registros com id (até 10.000)"},
           .handler = [&app](Request& r) { return batch(app, r, true); }});
  srv.add({.method = "POST",
           .pattern = "/crud/{municipio}/geo_image/save/",
           .auth = "bearer",
           .tag = tag,
           .summary = "Salva uma imagem georreferenciada: link do arquivo e polígono de cobertura",
           .body = {.description =
                        "{nome, url, capturado_em?, resolucao_m?, metadados?, geometry: Polygon}"},
           .answers = kGeoJson,
           .handler = [&app](Request& r) {
             check_image_link(r.body);
             return create(app, r, "geo_image");
           }});
  srv.add({.method = "PUT",
           .pattern = "/crud/{municipio}/geo_image/update/",
           .auth = "bearer",
           .tag = tag,
           .summary = "Atualiza uma imagem georreferenciada",
           .body = {.description = "{id, campos a alterar}"},
           .answers = kGeoJson,
           .handler = [&app](Request& r) {
             check_image_link(r.body);
             return update(app, r, "geo_image");
           }});
  srv.add(
      {.method = "GET",
       .pattern = "/crud/{municipio}/perfis/",
       .auth = "bearer",
       .tag = tag,
       .summary = "Amostras de perfis LIDAR (perfil, sequência, distância, cota), paginadas; "
                  "filtro perfil=N",
       .params = with_paging_and_bbox({{"perfil", "query", "integer", false, "número do perfil"}}),
       .answers = kGeoJson,
       .handler = [&app](Request& r) { return profiles(app, r); }});
}

}  // namespace cadastre::server
