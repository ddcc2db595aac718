// Local database REST (/dbrest): the forms of the tenant's layers (typed field definitions
// and the values filled in per feature), stored in the tenant database (schema
// formulario, db/migrations/tenant/0008_formularios.sql).
//
// These paths carry no {municipio}: the main bearer scheme then takes the tenant of the
// caller's token (server/auth.cpp), so a token only ever reads its own tenant's forms.
// Access follows the layers: the values of a form are readable by whoever may read the
// form's layer.
#include <cstdint>

#include "cadastre/query.hpp"
#include "server/app.hpp"
#include "server/dbrest/input.hpp"
#include "server/dbrest/store.hpp"
#include "service/scope.hpp"

namespace cadastre::server::dbrest {
namespace {

using http::Request;
using http::Response;
using service::Scope;

Response form_values(const Scope& s, Request& req) {
  const std::string& formulario = req.param("formulario");
  query::check_identifier(formulario, "formulario");
  const std::int64_t limite = query::parse_integer(req.param("limite"), "limite", 1, query::max_page_size);
  const std::int64_t offset = query::parse_integer(req.param("offset"), "offset", 0, INT64_MAX);
  const std::string& camada = s.layer()->name;
  auto page = s.db->with([&](soci::session& db) { return form_page(db, camada, formulario, limite, offset); });
  if (!page)
    throw Error(errc::not_found, "formulário '" + formulario + "' não encontrado na camada " + camada, "formulario");
  return Response::json(std::move(*page));
}

// The layers whose forms the caller asks about: the one named, or every layer with forms
// that the caller may read (the others are left out silently).
std::vector<std::string> readable_form_layers(const Scope& s, const GeometryQuery& q) {
  if (q.camada) return {s.layer(*q.camada, false)->name};
  auto catalog = s.catalog();
  std::vector<std::string> layers;
  for (auto& name : s.db->with([](soci::session& db) { return form_layers(db); })) {
    if (catalog->find(name) && s.may(name, false)) layers.push_back(std::move(name));
  }
  return layers;
}

Response geometry_value_types(const Scope& s, Request& req) {
  auto q = parse_geometry_query(req.body);
  auto layers = readable_form_layers(s, q);
  return Response::json(s.db->with([&](soci::session& db) { return value_types(db, q.ids, layers); }));
}

}  // namespace
}  // namespace cadastre::server::dbrest

namespace cadastre::server {

void add_dbrest_routes(App& app) {
  using service::scoped;
  auto& srv = app.server();
  const std::string tag = "Banco local (formulários)";
  srv.add({.method = "GET",
           .pattern = "/dbrest/tipos/valores/{camada}/{formulario}/{limite}/{offset}/",
           .auth = "bearer",
           .access = http::reads("{camada}"),
           .tag = tag,
           .summary = "Valores do formulário {formulario} da camada {camada} no banco do município da credencial, "
                      "paginados por geometria (feição da camada, em ordem de id): {camada, formulario, titulo, "
                      "limite, offset, total, campos: [{nome, rotulo, tipo (texto, inteiro, decimal, data, booleano, "
                      "lista), obrigatorio, ordem, valores_permitidos}], valores: [{geometria_id, atualizado_em, "
                      "valores: {campo: valor}}]}. limite (1 a 1000) e offset (0 ou mais) são inteiros (400 caso "
                      "contrário). Camada com nome inválido → 400, desconhecida → 404; formulário desconhecido → "
                      "404.",
           .handler = scoped(&dbrest::form_values)});
  srv.add({.method = "POST",
           .pattern = "/dbrest/tipos/valores/geometrias/",
           .auth = "bearer",
           .access = http::members("leitura na camada de cada geometria (verificada pelo guarda)"),
           .tag = tag,
           .summary = "Tipos de valor de uma lista de geometrias: para cada id (na ordem enviada, sem repetições), "
                      "os formulários que têm valores para ele e seus campos tipados com o valor: {geometrias: "
                      "[{geometria_id, formularios: [{camada, formulario, titulo, campos: [{nome, rotulo, tipo, "
                      "obrigatorio, valores_permitidos, valor, atualizado_em, atualizado_por}]}]}]}. Só entram "
                      "formulários de camadas que a credencial pode ler; 'camada' restringe a uma camada. Ids: de 1 "
                      "a 1000 inteiros positivos (400 caso contrário); outros campos no corpo → 400.",
           .body = {.description = "{\"geometrias\": [1, 2, 3], \"camada\": \"lote\" (opcional)}"},
           .handler = scoped(&dbrest::geometry_value_types)});
}

}  // namespace cadastre::server
