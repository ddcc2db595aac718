// The access token of an inspection as an auth scheme. The token is 256 random bits,
// answered once by the creation and stored only as its SHA-256 (vistoria.token_hash), so
// the database never holds it. It is checked by hashing it and comparing with the stored
// hash in constant time; an unknown inspection answers the same 401 as a wrong token, so
// the route does not reveal which reservations have inspections.
#include "server/service_desk/token_scheme.hpp"

#include <stdexcept>

#include "server/app.hpp"
#include "file_store/keys.hpp"
#include "server/service_desk/input.hpp"
#include "server/service_desk/store.hpp"
#include "store/crypto.hpp"

namespace cadastre::server {
namespace {

store::Tenant tenant_of(const service::Tenancy& tenants, const http::Request& req) {
  const std::string& slug = req.param("municipio");
  std::optional<store::Tenant> tenant;
  if (slug != cadastre::media::kPublicArea && cadastre::media::valid_area(slug))
    tenant = tenants.active(slug);
  if (!tenant) throw Error(errc::not_found, "município desconhecido: " + slug, "municipio");
  return *tenant;
}

std::optional<std::string> token_of(const http::Request& req) {
  std::optional<std::string> token;
  if (req.method == "PUT") token = desk::body_token(req.body);
  if (!token) token = req.query_value("token");
  return token;
}

void check_token(store::Pool& db, const std::string& id, const std::optional<std::string>& token) {
  if (!token || token->empty())
    throw Error(errc::unauthenticated,
                "informe o token de acesso da vistoria (?token= ou campo token)", "token");
  auto stored = desk::token_hash(db, id);
  // Hash and compare even without a row, so both refusals take the same time.
  bool valid =
      store::equal_constant_time(store::sha256_hex(*token), stored.value_or(std::string(64, '-')));
  if (!valid || !stored)
    throw Error(errc::unauthenticated, "token de acesso inválido para esta vistoria", "token");
}

}  // namespace

void add_inspection_token_scheme(App& app) {
  app.server().add_auth_scheme(
      {"vistoria_token",
       R"json({"type":"apiKey","in":"query","name":"token","description":"token de acesso da vistoria, devolvido uma vez na sua criação (no PUT também aceito no campo token do corpo)"})json",
       [&app](http::Request& req, const http::Route&) {
         desk::Citizen c;
         c.tenant = tenant_of(app.tenancy(), req);
         c.agendamento_id = desk::parse_agendamento_id(req);
         auto token = token_of(req);
         c.db = &app.tenancy().pool(c.tenant);
         check_token(*c.db, c.agendamento_id, token);
         c.user.email = "cidadao";
         c.user.nome = "Cidadão (token de acesso da vistoria)";
         c.user.tenant_id = c.tenant.id;
         c.user.tenant_slug = c.tenant.slug;
         req.tenant = c.tenant.slug;
         req.auth = std::move(c);
       }});
}

const desk::Citizen& desk::citizen(const http::Request& req) {
  if (const auto* c = std::any_cast<Citizen>(&req.auth)) return *c;
  throw std::logic_error("rota sem o esquema vistoria_token");
}

}  // namespace cadastre::server
