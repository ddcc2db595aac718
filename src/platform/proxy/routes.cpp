// The proxy routes. /app-backend/*, /api-r/* and /dbrest/* forward all four methods to the
// internal services named in the configuration (AppOptions::services), with the caller's
// session headers and Authorization. /proxy, /proxyR and /proxy-v2/<cidade>/auth call
// OUTSIDE servers, only under the outbound allow-list (outbound/fetch.hpp: hosts listed,
// special-purpose addresses refused after DNS and checked at connect time, no redirect off
// the list, size and time limits); the caller's credentials never leave with them.
#include "outbound/fetch.hpp"
#include "platform/app.hpp"
#include "platform/proxy/input.hpp"
#include "store/crypto.hpp"

namespace cadastre::platform::proxy {
namespace {

// An outbound request (outbound/fetch.hpp) built member by member: a designated
// initializer would name every member to keep -Wmissing-field-initializers quiet.
outbound::Request outbound_request(std::string method, std::string url, std::string body = {},
                                   std::string content_type = {}) {
  outbound::Request r;
  r.method = std::move(method);
  r.url = std::move(url);
  r.body = std::move(body);
  r.content_type = std::move(content_type);
  return r;
}

using http::Request;
using http::Response;

constexpr const char* kTag = "Proxy";

// The answer as the destination gave it: status, body, content type and the headers a
// client may need (caching, downloads); hop-by-hop ones stay behind.
Response relay(const outbound::Response& r) {
  const std::string* type = r.header("Content-Type");
  Response out = Response::text(r.body, type ? *type : "application/octet-stream", r.status);
  for (const char* name : {"Content-Disposition", "ETag", "Last-Modified", "Cache-Control", "Location"})
    if (const std::string* v = r.header(name)) out.headers.set(name, *v);
  return out;
}

void copy_header(const Request& req, outbound::Request& out, const char* name) {
  if (const std::string* v = req.header(name)) out.headers.emplace_back(name, *v);
}

// An internal service: its own host (whatever its address) and nothing else, no redirects.
struct Internal {
  std::string base;  ///< "http://127.0.0.1:8080"
  outbound::Policy policy;

  Response forward(const service::Scope& s, Request& req) const {
    outbound::Request out = outbound_request(req.method, base + forwarded_target(req));
    for (const char* name : {"X-Auth-Token", "X-Tn-Token", "Authorization", "Accept", "Accept-Language"})
      copy_header(req, out, name);
    out.headers.emplace_back("X-Request-Id", req.request_id);
    out.headers.emplace_back("X-Forwarded-For", req.remote_addr);
    if (!req.header("X-Tn-Token")) out.headers.emplace_back("X-Tn-Token", store::encode_tenant_token(s.tenant.id));
    // The session token is also the internal services' bearer (cadastre-server's).
    if (const std::string* token = req.header("X-Auth-Token"); token && !req.header("Authorization"))
      out.headers.emplace_back("Authorization", "Bearer " + *token);
    if (req.method == "POST" || req.method == "PUT") {
      out.body = req.body;
      const std::string* type = req.header("Content-Type");
      out.content_type = type ? *type : "application/json";
    }
    return relay(outbound::fetch(policy, out));
  }
};

Internal internal(const std::string& base) {
  std::string host = base.substr(base.find("://") + 3);
  host = host.substr(0, host.find('/'));
  if (host.starts_with('[')) host = host.substr(0, host.find(']') + 1);
  else host = host.substr(0, host.find(':'));
  outbound::Policy p;
  p.allowed_hosts = {host};
  p.allowed_networks = {"0.0.0.0/0", "::/0"};  // configured by the operator, not by a caller
  p.max_bytes = std::size_t{64} << 20;
  p.total_timeout = std::chrono::seconds(60);
  p.max_redirects = 0;
  outbound::validate(p);
  return {base.ends_with('/') ? base.substr(0, base.size() - 1) : base, std::move(p)};
}

// An outside server's answer, served from the platform's own origin: a browser must not
// run it as the platform's page (its scripts would reach the platform's storage) nor guess
// another type than the one given.
Response relay_outside(const outbound::Response& r) {
  Response out = relay(r);
  out.headers.set("Content-Security-Policy", "sandbox");
  out.headers.set("X-Content-Type-Options", "nosniff");
  return out;
}

struct External {
  const AppOptions* options;

  Response get(const service::Scope&, Request& req) const {
    return relay_outside(outbound::fetch(options->outbound, outbound_request("GET", target_url(req))));
  }
  Response post(const service::Scope&, Request& req) const {
    const std::string* type = req.header("Content-Type");
    return relay_outside(outbound::fetch(options->outbound, outbound_request("POST", target_url(req), req.body,
                                                                      type ? *type : "application/json")));
  }
  // A municipality's own authentication service (AppOptions::city_auth), with the
  // caller's query passed on.
  Response city_auth(const service::Scope&, Request& req) const {
    auto it = options->city_auth.find(req.param("cidade"));
    if (it == options->city_auth.end())
      throw Error(errc::not_found, "serviço de autenticação não configurado para " + req.param("cidade"), "cidade");
    // The caller's query (raw, as sent) joins the configured URL's own, if it has one.
    const std::string& base = it->second;
    auto mark = req.target.find('?');
    std::string url = base.substr(0, base.find('#'));
    if (mark != std::string::npos && mark + 1 < req.target.size())
      url += (url.find('?') == std::string::npos ? "?" : "&") + req.target.substr(mark + 1);
    return relay_outside(outbound::fetch(options->outbound, outbound_request("GET", url)));
  }
};

}  // namespace
}  // namespace cadastre::platform::proxy

namespace cadastre::platform {

void add_proxy_routes(App& app) {
  using namespace proxy;
  auto& srv = app.server();
  for (const char* name : {"app-backend", "api-r", "dbrest"}) {
    auto it = app.options().services.find(name);
    auto target = it == app.options().services.end() ? nullptr : std::make_shared<const Internal>(internal(it->second));
    std::string service = name;
    for (const char* method : {"GET", "POST", "PUT", "DELETE"}) {
      srv.add({.method = method, .pattern = "/" + service + "/{endpoint*}", .auth = "sessao",
               .access = http::members("encaminha ao serviço interno com a sessão, e ele aplica as suas permissões"),
               .tag = kTag,
               .summary = "Encaminha ao serviço interno " + service + " (configurado), com os cabeçalhos da sessão",
               .params = {{.name = "consulta", .type = "object", .description = "repassada ao serviço"}},
               .body = {.description = std::string(method) == "POST" || std::string(method) == "PUT"
                                           ? "repassado ao serviço"
                                           : ""},
               .answers = "*/*",
               .handler = service::scoped([target, service](const service::Scope& s, http::Request& r) {
                 if (!target) throw Error(errc::unavailable, "serviço interno " + service + " não configurado");
                 return target->forward(s, r);
               })});
    }
  }
  auto external = std::make_shared<const External>(External{&app.options()});
  const std::vector<http::Param> url = {{.name = "url", .required = true, .description = "URL http(s) de um servidor da lista de permitidos"}};
  srv.add({.method = "GET", .pattern = "/proxy", .auth = "sessao", .access = http::members("uma URL externa da lista de permitidos; as credenciais do usuário não saem"), .tag = kTag,
           .summary = "Busca uma URL externa permitida (403 fora da lista ou para endereços internos; 502/504 em falha)",
           .params = url, .answers = "*/*", .handler = service::scoped(external, &External::get)});
  srv.add({.method = "POST", .pattern = "/proxyR", .auth = "sessao", .access = http::members("uma URL externa da lista de permitidos; as credenciais do usuário não saem"), .tag = kTag,
           .summary = "Envia o corpo a uma URL externa permitida, por POST", .params = url,
           .body = {.description = "repassado ao servidor externo"}, .answers = "*/*", .handler = service::scoped(external, &External::post)});
  srv.add({.method = "GET", .pattern = "/proxy-v2/{cidade}/auth", .auth = "sessao", .access = http::members("o serviço de autenticação do município, da lista de permitidos"), .tag = kTag,
           .summary = "O serviço de autenticação próprio de um município, pela lista de permitidos",
           .params = {{.name = "consulta", .type = "object", .description = "repassada ao serviço"}}, .answers = "*/*",
           .handler = service::scoped(external, &External::city_auth)});
}

}  // namespace cadastre::platform
