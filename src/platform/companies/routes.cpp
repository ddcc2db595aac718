// /empresas: the company behind the tenant's account. Everyone of the tenant reads it; its
// administrators change it; platform administrators see and change every company.
#include "cadastre/query.hpp"
#include "platform/app.hpp"
#include "platform/schemas.hpp"
#include "platform/companies/input.hpp"
#include "platform/companies/store.hpp"
#include "platform/guard/accounts.hpp"

namespace cadastre::platform::companies {
namespace {

using http::Request;
using http::Response;

// A platform administrator works on every tenant's companies; anyone else on their own.
std::optional<std::int64_t> bounds(const service::Scope& s) {
  return guard::reach(s) == guard::Reach::platform ? std::nullopt : std::optional<std::int64_t>(s.tenant.id);
}

}  // namespace
}  // namespace cadastre::platform::companies

namespace cadastre::platform {

void add_company_routes(App& app) {
  using namespace companies;
  store::Pool* db = &app.platform();
  auto& srv = app.server();
  srv.add({.method = "GET", .pattern = "/empresas", .auth = "sessao", .access = http::members("a empresa do município (todas, para administradores da plataforma)"), .tag = "Empresas",
           .summary = "A empresa do município (todas, para administradores da plataforma)",
           .answer_schema = schemas::list_of("Empresa"),
           .handler = service::scoped([db](const service::Scope& s, Request&) {
             return Response::json(list(*db, bounds(s)));
           })});
  srv.add({.method = "PUT", .pattern = "/empresas/{id}", .auth = "sessao", .access = http::admins(),
           .tag = "Empresas", .summary = "Altera os dados da empresa do município",
           .body = {.description = R"({"nome"?, "cnpj"?, "email"?, "telefone"?, "endereco"?, "site"?})",
                    .max_bytes = 16384, .schema = schemas::ref("EmpresaAlteracao")},
           .answer_schema = schemas::ref("Empresa"),
           .handler = service::scoped([db](const service::Scope& s, Request& r) {
             Fields f = parse_fields(r.body);
             std::int64_t id = query::parse_integer(r.param("id"), "id", 1, INT64_MAX);
             return Response::json(update(*db, bounds(s), id, f));
           })});
}

}  // namespace cadastre::platform
