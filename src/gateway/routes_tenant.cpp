// Tenant routes: /rest and /tiles go to the caller's municipality (its slug fills
// {municipio} in the destination template), /plataforma/rest and /plataforma/tiles to the
// fixed platform instance. The path after the prefix and the query go on unchanged,
// except for the legacy credential fields.
#include "gateway/app.hpp"
#include "gateway/outgoing.hpp"
#include "gateway/response_rules.hpp"
#include "gateway/route_docs.hpp"

namespace cadastre::gateway {
namespace {

struct TenantRoute {
  const char* prefix;
  std::size_t prefix_segments;
  std::string_view breaker;
  bool platform, tiles;
  const char* summary;
};

const TenantRoute kRoutes[] = {
    {"/rest", 1, kBreakerRest, false, false, "Serviço REST do município do usuário"},
    {"/tiles", 1, kBreakerTiles, false, true,
     "Servidor de tiles do município do usuário (<camada>/<z>/<x>/<y>.pbf, sem cache)"},
    {"/plataforma/rest", 2, kBreakerRest, true, false,
     "Serviço REST da instância fixa da plataforma"},
    {"/plataforma/tiles", 2, kBreakerTiles, true, true,
     "Servidor de tiles da instância fixa da plataforma (sem cache)"},
};

// The template for this call, or "" when it depends on a tenant that is not known (the
// caller could not be authenticated).
std::string template_for(const Config& cfg, const TenantRoute& t, const AuthResult& auth) {
  if (t.platform) return t.tiles ? cfg.platform_tiles : cfg.platform_rest;
  if (!auth.principal) return {};
  const TenantDestinations& d = cfg.destinations_for(auth.principal->tenant_slug);
  return t.tiles ? d.tiles : d.rest;
}

http::Response handle(App& app, const TenantRoute& t, http::Request& req) {
  const AuthResult& auth = auth_of(req);
  std::string tmpl = template_for(app.config(), t, auth);
  std::map<std::string, std::string, std::less<>> vars;
  if (auth.principal) vars["municipio"] = auth.principal->tenant_slug;
  std::optional<Url> url;
  if (!tmpl.empty())
    url = compose_url(tmpl, vars, outgoing_path(req, t.prefix_segments), outgoing_query(req));
  const std::string display = url ? url->str() : kNoTarget;

  http::Response r;
  if (has_dot_segment(path_after_segments(req.path, t.prefix_segments))) {
    r = gateway_error(errc::invalid_argument, "caminho com segmentos '.' ou '..' não é aceito",
                      kNoTarget);
  } else if (!auth.ok) {
    r = gateway_error(auth.code, auth.message, display);
    if (auth.code == errc::unavailable) r.headers.set("Retry-After", "5");
  } else if (!url) {
    r = gateway_error(errc::internal, "destino mal configurado para este município", kNoTarget);
  } else {
    r = app.forwarder().forward(req.method, Destination{std::string(t.breaker), *url, display},
                                tenant_headers(req, auth), req.request_id);
  }
  if (t.tiles) apply_tile_rules(r, is_pbf_path(req.path));
  return r;
}

}  // namespace

void add_tenant_routes(App& app) {
  for (const TenantRoute& t : kRoutes) {
    for (std::string pattern : {std::string(t.prefix), std::string(t.prefix) + "/{caminho*}"}) {
      app.server().add({.method = "GET",
                        .pattern = pattern,
                        .auth = kGatewayScheme,
                        .access = http::members("encaminha ao serviço, que aplica a permissão da rota de destino"),
                        .tag = t.platform ? "Rotas da plataforma" : "Rotas do município",
                        .summary = std::string(t.summary) + "; encaminha também HEAD",
                        .params = forwarding(credential_params()),
                        .answers = t.tiles ? kMvtContentType : "application/json",
                        .handler = [&app, &t](http::Request& req) { return handle(app, t, req); }});
    }
  }
}

}  // namespace cadastre::gateway
