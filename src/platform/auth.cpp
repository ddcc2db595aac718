// The platform's auth scheme, "sessao": the session token in X-AUTH-TOKEN with the tenant
// in X-TN-TOKEN (the login answer's authToken and tnToken), or Authorization: Bearer
// <authToken> alone. The session acts in its own tenant; X-TN-TOKEN must name that tenant,
// except for a platform administrator, who may act in any active tenant. The scheme then
// builds the Scope and enforces the route's permission before the handler runs.
#include "cadastre/error.hpp"
#include "platform/app.hpp"
#include "platform/guard/memory.hpp"
#include "store/crypto.hpp"

namespace cadastre::platform {
namespace {

std::string trimmed(const std::string& s) {
  auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

struct Credential {
  std::string token;
  std::optional<std::string> tenant_token;
};

// The session headers; with `from_query`, also the query fields x_auth_token and x_tn_token
// (the live socket: browsers cannot set headers on a WebSocket).
Credential read_credential(const http::Request& req, bool from_query) {
  Credential c;
  if (from_query && !req.header("X-Auth-Token") && !req.header("Authorization")) {
    if (auto t = req.query_value("x_auth_token")) {
      c.token = *t;
      c.tenant_token = req.query_value("x_tn_token");
      if (!c.tenant_token) throw Error(errc::unauthenticated, "x_tn_token ausente");
      return c;
    }
  }
  if (const std::string* t = req.header("X-Auth-Token")) {
    c.token = trimmed(*t);
  } else if (auto bearer = req.bearer_token()) {
    c.token = *bearer;
  } else {
    throw Error(errc::unauthenticated, "credencial ausente: envie X-AUTH-TOKEN e X-TN-TOKEN");
  }
  if (const std::string* tn = req.header("X-Tn-Token"))
    c.tenant_token = *tn;
  else if (req.header("X-Auth-Token"))
    throw Error(errc::unauthenticated, "X-TN-TOKEN ausente");
  return c;
}

bool has_credential(const http::Request& req) {
  return req.header("X-Auth-Token") || req.header("Authorization");
}

}  // namespace

void add_auth_scheme(App& app) {
  auto establish = [&app](http::Request& req, const http::Route& route, bool from_query) {
    Credential c = read_credential(req, from_query);
    std::optional<store::Principal> user = app.identity().authenticate(c.token);
    if (!user) throw Error(errc::unauthenticated, "sessão inválida, expirada ou encerrada");
    std::int64_t tenant_id = user->tenant_id;
    if (c.tenant_token) {
      auto id = store::decode_tenant_token(*c.tenant_token);
      if (!id) throw Error(errc::unauthenticated, "X-TN-TOKEN malformado");
      if (*id != user->tenant_id && !user->platform_admin)
        throw Error(errc::tenant_forbidden, "a sessão não pertence ao município de X-TN-TOKEN");
      tenant_id = *id;
    }
    std::optional<store::Tenant> tenant = app.identity().tenant_by_id(tenant_id);
    if (!tenant || !tenant->ativo)
      throw Error(errc::tenant_forbidden, "município desconhecido ou inativo");
    req.tenant = tenant->slug;
    service::Scope scope = app.tenancy().scope(std::move(*user), std::move(*tenant));
    if (guard::may_write(req, route.access)) {
      // The guard's answers kept for this tenant's reads are forgotten now and when the
      // request ends, and none is used or kept meanwhile (guard/memory.hpp).
      const std::shared_ptr<guard::Memory>& memory = app.guard_memory();
      if (memory->enabled()) {
        memory->write_began(scope.tenant.id);
        scope.at_end([memory, tenant = scope.tenant.id] { memory->write_ended(tenant); });
      }
    }
    scope.enforce(route.access, req);
    req.auth = std::move(scope);
  };
  app.server().add_auth_scheme(
      {"sessao",
       R"({"type":"apiKey","in":"header","name":"X-AUTH-TOKEN","description":"authToken do login, com X-TN-TOKEN (tnToken) do município; ou Authorization: Bearer <authToken>"})",
       [establish](http::Request& req, const http::Route& route) { establish(req, route, false); }});
  app.server().add_auth_scheme(
      {"sessao_socket",
       R"({"type":"apiKey","in":"query","name":"x_auth_token","description":"a sessão nos cabeçalhos, ou nos campos x_auth_token e x_tn_token da query"})",
       [establish](http::Request& req, const http::Route& route) { establish(req, route, true); }});
  // Routes that answer anyone but say more to a signed-in caller: no credential → no
  // Scope; a credential that fails is still a 401 (never silently anonymous).
  app.server().add_auth_scheme(
      {"sessao_opcional",
       R"({"type":"apiKey","in":"header","name":"X-AUTH-TOKEN","description":"opcional: a sessão, quando houver"})",
       [establish](http::Request& req, const http::Route& route) {
         if (has_credential(req)) establish(req, route, false);
       }});
}

}  // namespace cadastre::platform
