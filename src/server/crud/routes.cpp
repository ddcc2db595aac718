// Generic cadastral CRUD (/crud): create, update, delete with main relations, all-or-nothing
// batch import and update with a per-row report, georeferenced images and LIDAR profiles.
// Every write needs write permission on the layer and leaves audit rows.
#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "server/app.hpp"
#include "server/crud/input.hpp"
#include "server/crud/store.hpp"
#include "service/geojson.hpp"
#include "service/scope.hpp"

namespace cadastre::server::crud {
namespace {

using http::Request;
using http::Response;
using service::Scope;

Response create_in(const Scope& s, const service::LayerRef& layer, const Request& req) {
  auto w = create(*s.db, *layer, store::parse_record(*layer, req.body), s.user);
  auto r = Response::text(w.feature, kGeoJson, 201);
  r.headers.set("Location", "/" + s.tenant.slug + "/" + layer->name + "/" + w.id + "/");
  return r;
}

Response update_in(const Scope& s, const service::LayerRef& layer, const Request& req) {
  return Response::text(update(*s.db, *layer, parse_update(*layer, req.body), s.user).feature, kGeoJson, 200);
}

Response create_route(const Scope& s, Request& req) { return create_in(s, s.layer(), req); }
Response update_route(const Scope& s, Request& req) { return update_in(s, s.layer(), req); }

Response save_image(const Scope& s, Request& req) {
  check_image_link(req.body);
  return create_in(s, s.layer("geo_image", true), req);
}

Response update_image(const Scope& s, Request& req) {
  check_image_link(req.body);
  return update_in(s, s.layer("geo_image", true), req);
}

Response remove_route(const Scope& s, Request& req) {
  auto id_text = req.query_value("id");
  if (!id_text) throw Error(errc::missing_field, "informe ?id= do registro a remover", "id");
  std::string id = service::record_id(*s.layer(), *id_text);
  long long removed = remove(*s.db, *s.layer(), id, s.user);
  JsonWriter w;
  w.begin_object().key("id").value(id).key("camada").value(s.layer()->name);
  w.key("registros_removidos").value(static_cast<std::int64_t>(removed)).end_object();
  return Response::json(std::move(w).str());
}

// The batch report: every row's outcome and, when a row failed, the first error (nothing
// was written: the rows that went through are "revertido").
Response batch_report(const service::BatchOutcome& out, bool updating) {
  const bool failed = !out.committed();
  auto results = [&](JsonWriter& w) {
    w.key("resultados").begin_array();
    for (std::size_t i = 0; i < out.rows.size(); ++i) {
      const service::RowOutcome& o = out.rows[i];
      w.begin_object().key("linha").value(static_cast<std::int64_t>(i + 1));
      w.key("status").value(o.error ? "erro" : failed ? "revertido" : updating ? "atualizado" : "criado");
      if (!failed && !o.id.empty()) w.key("id").value(o.id);  // a reverted id does not exist
      if (o.error) {
        w.key("codigo").value(code_string(o.error->code())).key("mensagem").value(o.error->what());
        if (!o.error->field().empty()) w.key("campo").value(o.error->field());
      }
      w.end_object();
    }
    w.end_array();
  };
  if (failed) {
    const Error& e = out.error();
    const std::int64_t line = static_cast<std::int64_t>(*out.first_error + 1);
    return Response::json(http::error_body(e.code(),
                                           "linha " + std::to_string(line) + ": " + e.what() + " (nada foi gravado)",
                                           [&](JsonWriter& w) {
                                             w.key("linha").value(line);
                                             results(w);
                                           }),
                          http_status(e.code()));
  }
  JsonWriter w;
  w.begin_object().key("total").value(static_cast<std::int64_t>(out.rows.size()));
  results(w);
  return Response::json(std::move(w.end_object()).str(), updating ? 200 : 201);
}

// All or nothing: every row's outcome is reported, with the first error.
Response batch(const Scope& s, Request& req, bool updating) {
  BatchRows rows(req.body);
  return batch_report(write_batch(*s.db, *s.layer(), rows, updating, s.user), updating);
}

Response import_route(const Scope& s, Request& req) { return batch(s, req, false); }
Response update_batch_route(const Scope& s, Request& req) { return batch(s, req, true); }

Response profiles(const Scope& s, Request& req) {
  auto layer = s.layer("perfil_lidar", false);
  auto q = query::parse_list_query(query_params(req));
  if (q.sort.empty()) q.sort = {{"perfil", false}, {"sequencia", false}};
  auto fq = store::resolve(*layer, q);
  auto page = list(*s.db, fq);
  return feature_collection(req, page.features, page.returned, fq.paging);
}

}  // namespace
}  // namespace cadastre::server::crud

namespace cadastre::server {

void add_crud_routes(App& app) {
  using namespace crud;
  using service::scoped;
  auto& srv = app.server();
  const std::string tag = "CRUD cadastral";
  const auto write = http::writes("{camada}");
  srv.add({.method = "POST",
           .pattern = "/crud/{municipio}/{camada}/",
           .auth = "bearer",
           .access = write,
           .tag = tag,
           .summary = "Cria um registro (JSON; geometria GeoJSON em lon/lat, validada)",
           .body = {.description = "registro: objeto de campos ou Feature GeoJSON"},
           .answers = kGeoJson,
           .handler = scoped(&create_route)});
  srv.add({.method = "PUT",
           .pattern = "/crud/{municipio}/{camada}/",
           .auth = "bearer",
           .access = write,
           .tag = tag,
           .summary = "Atualiza os campos enviados; o corpo precisa de id",
           .body = {.description = "registro com id e os campos a alterar"},
           .answers = kGeoJson,
           .handler = scoped(&update_route)});
  srv.add({.method = "DELETE",
           .pattern = "/crud/{municipio}/{camada}/",
           .auth = "bearer",
           .access = write,
           .tag = tag,
           .summary = "Remove o registro e suas relações principais (lote → unidades, proprietários, edificações)",
           .params = {{"id", "query", "string", true, "id do registro"}},
           .handler = scoped(&remove_route)});
  srv.add({.method = "POST",
           .pattern = "/crud/{municipio}/{camada}/import/",
           .auth = "bearer",
           .access = write,
           .tag = tag,
           .summary = "Importação em lote: tudo ou nada, com o resultado de cada linha e a primeira linha com erro",
           .body = {.description = "lista de registros, {\"registros\": [...]} ou FeatureCollection (até 10.000)"},
           .handler = scoped(&import_route)});
  srv.add({.method = "PUT",
           .pattern = "/crud/{municipio}/{camada}/update/",
           .auth = "bearer",
           .access = write,
           .tag = tag,
           .summary = "Atualização em lote: tudo ou nada, com o resultado de cada linha",
           .body = {.description = "lista de registros com id (até 10.000)"},
           .handler = scoped(&update_batch_route)});
  srv.add({.method = "POST",
           .pattern = "/crud/{municipio}/geo_image/save/",
           .auth = "bearer",
           .access = http::writes("geo_image"),
           .tag = tag,
           .summary = "Salva uma imagem georreferenciada: link do arquivo e polígono de cobertura",
           .body = {.description = "{nome, url, capturado_em?, resolucao_m?, metadados?, geometry: Polygon}"},
           .answers = kGeoJson,
           .handler = scoped(&save_image)});
  srv.add({.method = "PUT",
           .pattern = "/crud/{municipio}/geo_image/update/",
           .auth = "bearer",
           .access = http::writes("geo_image"),
           .tag = tag,
           .summary = "Atualiza uma imagem georreferenciada",
           .body = {.description = "{id, campos a alterar}"},
           .answers = kGeoJson,
           .handler = scoped(&update_image)});
  srv.add({.method = "GET",
           .pattern = "/crud/{municipio}/perfis/",
           .auth = "bearer",
           .access = http::reads("perfil_lidar"),
           .tag = tag,
           .summary = "Amostras de perfis LIDAR (perfil, sequência, distância, cota), paginadas; filtro perfil=N",
           .params = with_paging_and_bbox({{"perfil", "query", "integer", false, "número do perfil"}}),
           .answers = kGeoJson,
           .handler = scoped(&profiles)});
}

}  // namespace cadastre::server
