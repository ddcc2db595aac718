// Characterization (/caracterizacao): the nearest features of one layer to a feature of
// another (distances in metres on the spheroid, characterization_nearest.hpp), the full
// package of a lot (characterization_data.cpp) and the option lists of a form's selects
// in one round trip (characterization_lookups.cpp).
#include "server/characterization/routes.hpp"

#include <soci/soci.h>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "server/characterization/nearest.hpp"
#include "server/layer_access.hpp"
#include "service/geojson.hpp"
#include "store/features.hpp"
#include "store/sql.hpp"

namespace cadastre::server {
namespace {

using http::Request;
using http::Response;

constexpr std::int64_t kMaxNearest = 100;

LayerRef geometry_layer(App& app, const Request& req, const std::string& field) {
  LayerRef ref = layer_for(app, req, req.param(field), false);
  if (ref->geometry_column.empty())
    throw Error(errc::invalid_argument, "a camada " + ref->name + " não tem geometria", field);
  return ref;
}

Response nearest_features(App& app, Request& req) {
  LayerRef reference = geometry_layer(app, req, "layer_reference");
  std::string id = record_id(*reference, req.param("layer_reference_id"));
  LayerRef interest = geometry_layer(app, req, "layer_interest");
  const std::int64_t limit = query::parse_integer(req.param("limit"), "limit", 1, kMaxNearest);
  const store::Column& pk = *reference->column(reference->primary_key);
  const int srid = interest->column(interest->geometry_column)->srid;
  const bool same_layer =
      reference->schema == interest->schema && reference->name == interest->name;

  store::Sql sql("with f as materialized (select ST_Transform(r.");
  sql << query::quote_identifier(reference->geometry_column) << ", "
      << std::to_string(srid > 0 ? srid : 4674) << ") as g, r." << query::quote_identifier(pk.name)
      << " as rid from " << reference->qualified() << " r where r."
      << query::quote_identifier(pk.name) << " = ";
  sql.bind(id, pk.type) << ") select (select count(*) from f)::text, (select coalesce(json_agg("
                        << store::feature_expression(*interest, "n")
                        << " order by n.ordem), '[]') from "
                        << nearest_rows(
                               *interest, "(select g from f)", limit,
                               same_layer ? "t." + query::quote_identifier(interest->primary_key) +
                                                " <> (select rid from f)"
                                          : std::string())
                        << " n)::text";
  auto row = context(req).db->with([&](soci::session& s) { return store::fetch(s, sql).at(0); });
  if (row[0].value_or("0") == "0")
    throw Error(errc::not_found, "registro " + id + " não encontrado em " + reference->name,
                "layer_reference_id");

  JsonWriter w;
  w.begin_object().key("type").value("FeatureCollection");
  w.key("referencia")
      .begin_object()
      .key("camada")
      .value(reference->name)
      .key("id")
      .value(id)
      .end_object();
  w.key("camada").value(interest->name).key("limite").value(limit);
  w.key("features").raw(row[1].value_or("[]")).end_object();
  return Response::text(std::move(w).str(), kGeoJson);
}

}  // namespace

void add_characterization_routes(App& app) {
  auto& srv = app.server();
  const std::string tag = "Caracterização";
  srv.add({.method = "GET",
           .pattern = "/caracterizacao/{municipio}/nearest-features/{layer_reference}/"
                      "{layer_reference_id}/{layer_interest}/{limit}",
           .auth = "bearer",
           .tag = tag,
           .summary =
               "As {limit} (inteiro de 1 a 100) feições de {layer_interest} mais próximas da "
               "feição {layer_reference_id} de "
               "{layer_reference}, da mais próxima à mais distante (distância exata em metros "
               "sobre o elipsoide; empate pela "
               "chave): FeatureCollection com distancia_m e ordem nas propriedades (a própria "
               "feição fica de fora quando as "
               "camadas são a mesma). Requer leitura nas duas camadas; feição inexistente → 404.",
           .answers = kGeoJson,
           .handler = [&app](Request& r) { return nearest_features(app, r); }});
  srv.add({.method = "GET",
           .pattern = "/caracterizacao/{municipio}/get-data/{id_lote}",
           .auth = "bearer",
           .tag = tag,
           .summary =
               "Pacote completo de um lote em uma resposta: lote (Feature), edificacoes, unidades "
               "(com pessoas, papel e "
               "percentual), midia (do lote e das unidades) e vistorias (reservas com a vistoria, "
               "se houver). Requer leitura "
               "em lote; seções de camadas sem leitura (edificacao, imobiliario, pessoa, midia, "
               "agendamento) ficam de fora "
               "e são listadas em sem_permissao. Lote inexistente → 404; id não inteiro → 400.",
           .handler = [&app](Request& r) { return lot_package(app, r); }});
  srv.add({.method = "POST",
           .pattern = "/caracterizacao/{municipio}/lookups/batch",
           .auth = "bearer",
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
           .handler = [&app](Request& r) { return batch_lookups(app, r); }});
}

}  // namespace cadastre::server
