// /integracao-rest: a proxy to the external REST database service a tenant configures
// (see server/integracao/auth.hpp for the configuration and the tenant bearer).
//
// The path below /integracao-rest is sent below the service's base URL unchanged and the
// query string exactly as received; the one method change is the spec's: a POST with a
// multi-segment query path is an update, sent as PUT. The caller's bearer never leaves
// the server (the service gets token_destino, when configured).
//
// Answers: the service's status and body for 1xx–4xx; 502 when it answers 5xx or cannot
// be reached; 504 when it does not answer within the tenant's timeout_ms; 503 when the
// tenant's configuration is unusable, only once the request's own input has passed (400
// first: a client learns about its mistakes whatever the state of the service).
#include "server/app.hpp"
#include "server/integracao/auth.hpp"
#include "server/integracao/client.hpp"
#include "server/integracao/input.hpp"

namespace cadastre::server {
namespace {

using http::Request;
using http::Response;

constexpr const char* kTag = "Integração REST externa";

const IntegracaoTarget& target(const Request& req) {
  const auto* t = std::any_cast<IntegracaoTarget>(&req.auth);
  if (!t) throw Error(errc::internal, "rota sem contexto de integração");
  return *t;
}

// The call to the tenant's service: `rel_path` below its base path, the query string
// exactly as received, the service's bearer (never the caller's).
outbound::Call upstream_call(const Request& req, const IntegracaoTarget& t, const std::string& method,
                             const std::string& rel_path) {
  outbound::Call call;
  call.method = method;
  call.origin = t.base.origin;
  std::string_view base = t.base.path;
  while (!base.empty() && base.back() == '/') base.remove_suffix(1);
  call.target = std::string(base) + "/" + rel_path;
  if (auto q = req.target.find('?'); q != std::string::npos && q + 1 < req.target.size())
    call.target += "?" + req.target.substr(q + 1);
  call.timeout = t.timeout;
  const std::string* accept = req.header("Accept");
  call.headers.emplace_back("Accept", accept ? *accept : "application/json");
  call.headers.emplace_back("X-Request-Id", req.request_id);
  if (!t.token_destino.empty()) call.headers.emplace_back("Authorization", "Bearer " + t.token_destino);
  if (method == "POST" || method == "PUT") {
    call.body = req.body;
    const std::string* ct = req.header("Content-Type");
    call.content_type = ct ? *ct : "application/json";
  }
  return call;
}

// The service's answer for 1xx–4xx; 502 for 5xx or no answer, 504 for none in time.
Response relay(const IntegracaoTarget& t, outbound::Result r) {
  using O = outbound::Result::Outcome;
  if (r.outcome == O::timeout)
    throw Error(errc::upstream_timeout, "o serviço REST externo do município " + t.slug + " não respondeu em " +
                                            std::to_string(t.timeout.count()) + " ms");
  if (r.outcome != O::ok)
    throw Error(errc::upstream_failed, "serviço REST externo do município " + t.slug + " inacessível: " + r.detail);
  if (r.status >= 500)
    throw Error(errc::upstream_failed, "o serviço REST externo do município " + t.slug + " falhou (HTTP " +
                                           std::to_string(r.status) + ")");
  Response res;
  res.status = r.status;
  res.body = std::move(r.body);
  res.content_type = r.content_type.empty() ? "application/json; charset=utf-8" : r.content_type;
  return res;
}

// Sends the request on; 503 when the tenant's configuration is unusable (only now, once
// the request's own input has passed).
Response forward(const Request& req, const std::string& method, const std::string& rel_path) {
  const IntegracaoTarget& t = target(req);
  if (!t.config_error.empty()) throw Error(errc::unavailable, t.config_error);
  return relay(t, outbound::send(upstream_call(req, t, method, rel_path)));
}

std::string trailing_slash(const Request& req) {
  return !req.path.empty() && req.path.back() == '/' ? "/" : "";
}

Response query(Request& req) {
  return forward(req, "GET", integracao::query_path(req.param("query_path")) + trailing_slash(req));
}

Response insert(Request& req) {
  std::string camada = integracao::layer_name(req.param("camada"));
  integracao::check_record(req.body);
  return forward(req, "POST", camada + "/");
}

Response get_all(Request& req) {
  return forward(req, "GET", integracao::layer_name(req.param("camada")) + "/getall/");
}

// An update: a POST with a multi-segment query path goes on as PUT.
Response update(Request& req) {
  std::string path = integracao::query_path(req.param("query_path")) + trailing_slash(req);
  integracao::check_update(req.body, req.header("Content-Type"));
  return forward(req, "PUT", path);
}

Response page(Request& req) {
  std::string camada = integracao::layer_name(req.param("camada"));
  long long limit = integracao::parse_limit(req.param("limit"));
  return forward(req, "GET", "pagination/" + camada + "/" + std::to_string(limit) + "/");
}

// Every route passes the caller's query string on as it came: free-form fields.
void add(http::Server& srv, const char* method, const char* pattern, const char* summary, const char* body,
         http::Handler h) {
  std::vector<http::Param> params = {
      {"consulta", "query", "object", false, "query string repassada ao destino"}};
  srv.add({.method = method,
           .pattern = pattern,
           .auth = "integracao",
           .access = http::holders("o token de integração do município"),
           .tag = kTag,
           .summary = summary,
           .params = std::move(params),
           .body = {.description = body ? body : ""},
           .handler = std::move(h)});
}

}  // namespace

void add_integracao_routes(App& app) {
  add_integracao_auth_scheme(app);

  add(app.server(), "GET", "/integracao-rest/{query_path*}",
      "Consulta repassada ao serviço REST externo do município (caminho e query string como "
      "enviados)",
      nullptr, query);
  add(app.server(), "POST", "/integracao-rest/{camada}/",
      "Insere um registro da camada no serviço REST externo", "registro JSON repassado ao destino",
      insert);
  add(app.server(), "GET", "/integracao-rest/{camada}/getall/",
      "Lista todos os registros da camada no serviço REST externo", nullptr, get_all);
  add(app.server(), "POST", "/integracao-rest/{query_path*}",
      "Atualização: repassada ao destino como PUT no mesmo caminho, com a query string enviada",
      "dados da atualização, repassados ao destino", update);
  add(app.server(), "GET", "/integracao-rest/pagination/{camada}/{limit}/",
      "Paginação simples da camada no serviço REST externo; limit é um inteiro de 1 a 10000",
      nullptr, page);
}

}  // namespace cadastre::server
