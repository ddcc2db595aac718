// Auth schemes of cadastre-server. The main bearer scheme is the single place where
// tenancy is enforced: {municipio} must name an active tenant and the caller's token
// must belong to it (administrators included: an admin administers their own tenant).
// It is also where the route's permission (Route::access) is enforced.
#include "cadastre/error.hpp"
#include "server/app.hpp"

namespace cadastre::server {
namespace {

store::Principal authenticate(App& app, const http::Request& req) {
  auto token = req.bearer_token();
  if (!token)
    throw Error(errc::unauthenticated, "credencial ausente: envie Authorization: Bearer <token>");
  auto user = app.identity().authenticate(*token);
  if (!user) throw Error(errc::unauthenticated, "credencial inválida ou expirada");
  return *user;
}

}  // namespace

void add_auth_schemes(App& app) {
  app.server().add_auth_scheme(
      {"bearer",
       R"({"type":"http","scheme":"bearer","description":"auth_token emitido pela plataforma de identidade"})",
       [&app](http::Request& req, const http::Route& route) {
         store::Principal user = authenticate(app, req);
         const std::string& slug = req.param("municipio");
         std::optional<store::Tenant> tenant =
             app.tenancy().active(slug.empty() ? user.tenant_slug : slug);
         if (!tenant)
           throw Error(errc::tenant_forbidden, slug.empty()
                                                   ? std::string("município da credencial inativo")
                                                   : "município desconhecido ou inativo: " + slug);
         if (tenant->id != user.tenant_id)
           throw Error(errc::tenant_forbidden, "a credencial não pertence ao município " + slug);
         req.tenant = tenant->slug;
         service::Scope scope = app.tenancy().scope(std::move(user), std::move(*tenant));
         scope.enforce(route.access, req);  // the route table's permission, before any handler
         req.auth = std::move(scope);
       }});
}

}  // namespace cadastre::server
