// Characterization (/caracterizacao): the nearest features of one layer to a feature of
// another (distances in metres on the spheroid, store/distance.hpp), the full package of a lot
// (lot_package.hpp, shared with /aplicativo) and the option lists of a form's selects in
// one round trip (input.hpp). SQL: store.cpp.
#include <soci/soci.h>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "server/app.hpp"
#include "server/characterization/input.hpp"
#include "server/characterization/lot_package.hpp"
#include "server/characterization/store.hpp"
#include "server/viewer360/tables.hpp"  // list_error
#include "service/geojson.hpp"

namespace cadastre::server::characterization {
namespace {

using http::Request;
using http::Response;
using service::Scope;

constexpr std::int64_t kMaxNearest = 100;

const store::Layer& with_geometry(const store::Layer& layer, const std::string& field) {
  if (layer.geometry_column.empty())
    throw Error(errc::invalid_argument, "a camada " + layer.name + " não tem geometria", field);
  return layer;
}

Response nearest(const Scope& s, Request& req) {
  const store::Layer& reference = with_geometry(*s.layer(), "layer_reference");
  std::string id = service::record_id(reference, req.param("layer_reference_id"));
  service::LayerRef ref = s.layer(req.param("layer_interest"), false);
  const store::Layer& interest = with_geometry(*ref, "layer_interest");
  const std::int64_t limit = query::parse_integer(req.param("limit"), "limit", 1, kMaxNearest);
  auto features = s.db->with(
      [&](soci::session& ss) { return nearest_features(ss, reference, id, interest, limit); });
  if (!features)
    throw Error(errc::not_found, "registro " + id + " não encontrado em " + reference.name,
                "layer_reference_id");
  JsonWriter w;
  w.begin_object().key("type").value("FeatureCollection");
  w.key("referencia")
      .begin_object()
      .key("camada")
      .value(reference.name)
      .key("id")
      .value(id)
      .end_object();
  w.key("camada").value(interest.name).key("limite").value(limit);
  w.key("features").raw(*features).end_object();
  return Response::text(std::move(w).str(), kGeoJson);
}

Response get_data(const Scope& s, Request& req) {
  return Response::json(lot_package(s, req.param("id_lote"), LotPackageForm::characterization));
}

Response lookups(const Scope& s, Request& req) {
  std::vector<Lookup> queries;
  try {
    queries = parse_lookups(s, req.body);
  } catch (const LookupError& e) {
    return list_error(e.error, "queries", e.index);
  }
  return Response::json(s.db->with([&](soci::session& ss) { return run_lookups(ss, queries); }));
}

}  // namespace
}  // namespace cadastre::server::characterization

namespace cadastre::server {

void add_characterization_routes(App& app) {
  using namespace characterization;
  auto& srv = app.server();
  const std::string tag = "Caracterização";
  srv.add(
      {.method = "GET",
       .pattern = "/caracterizacao/{municipio}/nearest-features/{layer_reference}/"
                  "{layer_reference_id}/{layer_interest}/{limit}",
       .auth = "bearer",
       .access = http::reads("{layer_reference}"),
       .tag = tag,
       .summary =
           "As {limit} (inteiro de 1 a 100) feições de {layer_interest} mais próximas da "
           "feição {layer_reference_id} de "
           "{layer_reference}, da mais próxima à mais distante (distância exata em metros "
           "sobre o elipsoide; empate pela "
           "chave): FeatureCollection com distancia_m e ordem nas propriedades (a própria "
           "feição fica de fora quando as "
           "camadas são a mesma). {layer_interest} também exige leitura; feição inexistente → 404.",
       .answers = kGeoJson,
       .handler = service::scoped(&nearest)});
  srv.add({.method = "GET",
           .pattern = "/caracterizacao/{municipio}/get-data/{id_lote}",
           .auth = "bearer",
           .access = http::reads("lote"),
           .tag = tag,
           .summary =
               "Pacote completo de um lote em uma resposta: lote (Feature), edificacoes, unidades "
               "(com pessoas, papel e "
               "percentual), midia (do lote e das unidades) e vistorias (reservas com a vistoria, "
               "se houver). Seções de camadas sem leitura (edificacao, imobiliario, pessoa, midia, "
               "agendamento) ficam de fora "
               "e são listadas em sem_permissao. Lote inexistente → 404; id não inteiro → 400.",
           .handler = service::scoped(&get_data)});
  srv.add({.method = "POST",
           .pattern = "/caracterizacao/{municipio}/lookups/batch",
           .auth = "bearer",
           .access = http::members("leitura em cada tabela que o corpo nomeia (verificada pelo guarda)"),
           .tag = tag,
           .summary = "Várias listas de opções (valor, rotulo) de tabelas do catálogo em uma ida "
                      "ao banco: {resultados: [[...], "
                      "...]} na ordem das consultas, cada lista ordenada por rotulo. Padrões: "
                      "dominio.* → codigo/descricao; "
                      "cadastro.* → chave/nome. Consulta inválida ou sem permissão → 4xx com lista "
                      "'queries' e linha (1 em diante); "
                      "nada é respondido das demais.",
           .body = {.description = "{\"queries\": [{\"tabela\": \"esquema.tabela\", \"valor\"?: "
                                   "coluna, \"rotulo\"?: coluna, \"filtro\"?: "
                                   "{coluna: valor}, \"limite\"?: 1–1000}] (1 a 50 consultas)"},
           .handler = service::scoped(&lookups)});
}

}  // namespace cadastre::server
