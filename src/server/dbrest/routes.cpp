// Local database REST (/dbrest): the forms of the tenant's layers (typed field definitions
// and the values filled in per feature), stored in the tenant database (schema
// formulario, db/migrations/tenant/0008_formularios.sql).
//
// These paths carry no {municipio}: the main bearer scheme then takes the tenant of the
// caller's token (server/auth.cpp), so a token only ever reads its own tenant's forms.
// Access follows the layers: the values of a form are readable by whoever may read the
// form's layer. Order of checks on GET: path segments (identifier rules, integer
// limite/offset → 400) before the catalog (unknown layer 404), the permission (403) and
// the form (404).
#include <soci/soci.h>

#include <cstdint>

#include "cadastre/query.hpp"
#include "server/app.hpp"
#include "server/dbrest/forms.hpp"
#include "server/layer_access.hpp"

namespace cadastre::server {
namespace {

using http::Request;
using http::Response;

Response form_values(App& app, Request& req) {
  const std::string& formulario = req.param("formulario");
  query::check_identifier(formulario, "formulario");
  const std::int64_t limite =
      query::parse_integer(req.param("limite"), "limite", 1, query::max_page_size);
  const std::int64_t offset = query::parse_integer(req.param("offset"), "offset", 0, INT64_MAX);
  auto layer = layer_for(app, req, req.param("camada"), false);
  auto page = context(req).db->with([&](soci::session& s) {
    return dbrest::form_page(s, layer->name, formulario, limite, offset);
  });
  if (!page)
    throw Error(errc::not_found,
                "formulário '" + formulario + "' não encontrado na camada " + layer->name,
                "formulario");
  return Response::json(std::move(*page));
}

Response geometry_value_types(App& app, Request& req) {
  auto q = dbrest::parse_geometry_query(req.body);
  const Context& ctx = context(req);
  std::vector<std::string> layers;
  if (q.camada) {
    layers.push_back(layer_for(app, req, *q.camada, false)->name);
  } else {
    // Every layer with forms that the caller may read; the others are left out silently.
    auto catalog = app.catalogs().get(ctx.tenant, *ctx.db);
    auto perms = app.identity().permissions(ctx.user.user_id);
    for (auto& name : ctx.db->with([](soci::session& s) { return dbrest::form_layers(s); })) {
      if (catalog->find(name) && store::layer_allowed(perms, name, false, ctx.user.admin))
        layers.push_back(std::move(name));
    }
  }
  return Response::json(
      ctx.db->with([&](soci::session& s) { return dbrest::value_types(s, q.ids, layers); }));
}

}  // namespace

void add_dbrest_routes(App& app) {
  auto& srv = app.server();
  const std::string tag = "Banco local (formulários)";
  srv.add({.method = "GET",
           .pattern = "/dbrest/tipos/valores/{camada}/{formulario}/{limite}/{offset}/",
           .auth = "bearer",
           .tag = tag,
           .summary = "Valores do formulário {formulario} da camada {camada} no banco do município "
                      "da credencial, paginados por "
                      "geometria (feição da camada, em ordem de id): {camada, formulario, titulo, "
                      "limite, offset, total, campos: "
                      "[{nome, rotulo, tipo (texto, inteiro, decimal, data, booleano, lista), "
                      "obrigatorio, ordem, "
                      "valores_permitidos}], valores: [{geometria_id, atualizado_em, valores: "
                      "{campo: valor}}]}. limite (1 a 1000) "
                      "e offset (0 ou mais) são inteiros (400 caso contrário). Camada com nome "
                      "inválido → 400, desconhecida → 404, "
                      "sem permissão de leitura → 403; formulário desconhecido → 404.",
           .handler = [&app](Request& r) { return form_values(app, r); }});
  srv.add({.method = "POST",
           .pattern = "/dbrest/tipos/valores/geometrias/",
           .auth = "bearer",
           .tag = tag,
           .summary = "Tipos de valor de uma lista de geometrias: para cada id (na ordem enviada, "
                      "sem repetições), os formulários "
                      "que têm valores para ele e seus campos tipados com o valor: {geometrias: "
                      "[{geometria_id, formularios: "
                      "[{camada, formulario, titulo, campos: [{nome, rotulo, tipo, obrigatorio, "
                      "valores_permitidos, valor, "
                      "atualizado_em, atualizado_por}]}]}]}. Só entram formulários de camadas que "
                      "a credencial pode ler; "
                      "'camada' restringe a uma camada (403 sem permissão). Ids: de 1 a 1000 "
                      "inteiros positivos (400 caso "
                      "contrário); outros campos no corpo → 400.",
           .body = {.description = "{\"geometrias\": [1, 2, 3], \"camada\": \"lote\" (opcional)}"},
           .handler = [&app](Request& r) { return geometry_value_types(app, r); }});
}

}  // namespace cadastre::server
