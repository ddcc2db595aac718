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
#include <simdjson.h>

#include <cctype>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "server/app.hpp"
#include "server/integracao/auth.hpp"
#include "server/integracao/client.hpp"

namespace cadastre::server {
namespace {

using http::Request;
using http::Response;

constexpr const char* kTag = "Integração REST externa";
constexpr long long kMaxLimit = 10000;

const IntegracaoTarget& target(const Request& req) {
  const auto* t = std::any_cast<IntegracaoTarget>(&req.auth);
  if (!t) throw Error(errc::internal, "rota sem contexto de integração");
  return *t;
}

// Percent-encodes one decoded path segment: RFC 3986 unreserved characters and the
// sub-delimiters allowed in a segment stay as they are.
std::string encode_segment(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) ||
        std::string_view("-._~!$&'()*+,;=:@").find(ch) != std::string_view::npos) {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// The decoded query path of a wildcard route, re-encoded segment by segment. "." and ".."
// segments would climb out of the service's base path; control characters and
// backslashes have no place in a REST path.
std::string safe_query_path(const std::string& decoded) {
  std::string out;
  std::size_t start = 0;
  while (start <= decoded.size()) {
    auto end = decoded.find('/', start);
    if (end == std::string::npos) end = decoded.size();
    std::string_view seg(decoded.data() + start, end - start);
    if (seg == "." || seg == "..")
      throw Error(errc::invalid_argument,
                  "caminho de consulta inválido: segmentos '.' e '..' não são aceitos",
                  "query_path");
    for (char ch : seg)
      if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f || ch == '\\')
        throw Error(errc::invalid_argument, "caminho de consulta com caractere inválido",
                    "query_path");
    if (!out.empty()) out += '/';
    out += encode_segment(seg);
    start = end + 1;
  }
  return out;
}

// The raw query string of the request ("" when none), passed on exactly as sent.
std::string raw_query(const Request& req) {
  auto q = req.target.find('?');
  return q == std::string::npos ? std::string() : req.target.substr(q + 1);
}

std::string trailing_slash(const Request& req) {
  return !req.path.empty() && req.path.back() == '/' ? "/" : "";
}

Response forward(const Request& req, const std::string& method, const std::string& rel_path) {
  const IntegracaoTarget& t = target(req);
  if (!t.config_error.empty()) throw Error(errc::unavailable, t.config_error);
  outbound::Call call;
  call.method = method;
  call.origin = t.base.origin;
  std::string_view base = t.base.path;
  while (!base.empty() && base.back() == '/') base.remove_suffix(1);
  call.target = std::string(base) + "/" + rel_path;
  if (auto q = raw_query(req); !q.empty()) call.target += "?" + q;
  call.timeout = t.timeout;
  const std::string* accept = req.header("Accept");
  call.headers.emplace_back("Accept", accept ? *accept : "application/json");
  call.headers.emplace_back("X-Request-Id", req.request_id);
  if (!t.token_destino.empty())
    call.headers.emplace_back("Authorization", "Bearer " + t.token_destino);
  if (method == "POST" || method == "PUT") {
    call.body = req.body;
    const std::string* ct = req.header("Content-Type");
    call.content_type = ct ? *ct : "application/json";
  }
  outbound::Result r = outbound::send(call);
  using O = outbound::Result::Outcome;
  if (r.outcome == O::timeout)
    throw Error(errc::upstream_timeout, "o serviço REST externo do município " + t.slug +
                                            " não respondeu em " +
                                            std::to_string(t.timeout.count()) + " ms");
  if (r.outcome != O::ok)
    throw Error(errc::upstream_failed,
                "serviço REST externo do município " + t.slug + " inacessível: " + r.detail);
  if (r.status >= 500)
    throw Error(errc::upstream_failed, "o serviço REST externo do município " + t.slug +
                                           " falhou (HTTP " + std::to_string(r.status) + ")");
  Response res;
  res.status = r.status;
  res.body = std::move(r.body);
  res.content_type = r.content_type.empty() ? "application/json; charset=utf-8" : r.content_type;
  return res;
}

std::string camada(const Request& req) {
  const std::string& c = req.param("camada");
  query::check_identifier(c, "camada");
  return c;
}

// A record to insert must be JSON: the service is told it is.
void check_json_body(const Request& req) {
  simdjson::dom::parser parser;
  auto root = jsonin::parse(parser, req.body);
  if (!root.is_object() && !root.is_array())
    throw Error(errc::invalid_argument, "o corpo deve ser um objeto ou uma lista JSON", "corpo");
}

// An update body sent as JSON (declared so, or not declared: it goes on as JSON) is read
// as every JSON body here is: invalid JSON, a repeated key or a NUL is a 400.
void check_update_body(const Request& req) {
  const std::string* ct = req.header("Content-Type");
  if (req.body.empty() || (ct && ct->find("json") == std::string::npos)) return;
  simdjson::dom::parser parser;
  jsonin::parse(parser, req.body);
}

// Every route passes the caller's query string on as it came: free-form fields.
void add(App& app, const char* method, const char* pattern, const char* summary, const char* body,
         http::Handler h) {
  std::vector<http::Param> params = {
      {"consulta", "query", "object", false, "query string repassada ao destino"}};
  app.server().add({.method = method,
                    .pattern = pattern,
                    .auth = "integracao",
                    .tag = kTag,
                    .summary = summary,
                    .params = std::move(params),
                    .body = {.description = body ? body : ""},
                    .handler = std::move(h)});
}

}  // namespace

void add_integracao_routes(App& app) {
  add_integracao_auth_scheme(app);

  add(app, "GET", "/integracao-rest/{query_path*}",
      "Consulta repassada ao serviço REST externo do município (caminho e query string como "
      "enviados)",
      nullptr, [](Request& req) {
        return forward(req, "GET", safe_query_path(req.param("query_path")) + trailing_slash(req));
      });
  add(app, "POST", "/integracao-rest/{camada}/",
      "Insere um registro da camada no serviço REST externo", "registro JSON repassado ao destino",
      [](Request& req) {
        std::string c = camada(req);
        check_json_body(req);
        return forward(req, "POST", c + "/");
      });
  add(app, "GET", "/integracao-rest/{camada}/getall/",
      "Lista todos os registros da camada no serviço REST externo", nullptr,
      [](Request& req) { return forward(req, "GET", camada(req) + "/getall/"); });
  add(app, "POST", "/integracao-rest/{query_path*}",
      "Atualização: repassada ao destino como PUT no mesmo caminho, com a query string enviada",
      "dados da atualização, repassados ao destino", [](Request& req) {
        std::string path = safe_query_path(req.param("query_path")) + trailing_slash(req);
        check_update_body(req);
        return forward(req, "PUT", path);
      });
  add(app, "GET", "/integracao-rest/pagination/{camada}/{limit}/",
      "Paginação simples da camada no serviço REST externo; limit é um inteiro de 1 a 10000",
      nullptr, [](Request& req) {
        std::string c = camada(req);
        const std::string& limit = req.param("limit");
        bool digits = !limit.empty() && limit.size() <= 5 &&
                      limit.find_first_not_of("0123456789") == std::string::npos;
        long long n = digits ? std::stoll(limit) : 0;
        if (!digits || n < 1 || n > kMaxLimit)
          throw Error(errc::invalid_argument, "limit deve ser um inteiro entre 1 e 10000: " + limit,
                      "limit");
        return forward(req, "GET", "pagination/" + c + "/" + std::to_string(n) + "/");
      });
}

}  // namespace cadastre::server
