// The route tables against the documented route list (docs/api/routes.tsv, a copy of the
// spec's list): the union of the tables of cadastre-server and cadastre-gateway equals the
// documented cadastre and gateway routes, except the extras listed here on purpose; the
// table of cadastre-platform serves every platform row, and only those and its own extras.
//
// Routes are compared as "METHOD /path", normalised the way routes.tsv writes them: any
// parameter ("{municipio}", "{city}", "<city_e>", ":id") is "{}", a wildcard ("{rest*}",
// "*", "*endpoint") is "*", the query ("?id={id}", "?filtros=...") and a trailing slash
// are dropped (the router ignores both); the spec's "{query_path}" spans segments: "*".
#include <doctest/doctest.h>
#include <simdjson.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gateway/app.hpp"
#include "gateway/config.hpp"
#include "gateway/demo_config.hpp"
#include "platform/app.hpp"
#include "platform/schemas.hpp"
#include "support/harness.hpp"

using namespace cadastre;

namespace {

std::string normalise_path(std::string path) {
  if (auto q = path.find('?'); q != std::string::npos) path.erase(q);
  std::string out;
  for (auto segment : http::split_path(path)) {
    std::string s(segment);
    bool braces = s.size() >= 2 && s.front() == '{' && s.back() == '}';
    bool angles = s.size() >= 2 && s.front() == '<' && s.back() == '>';
    // The spec writes the query path /integracao-rest passes on, which spans segments, as
    // "{query_path}": a wildcard.
    if (s.front() == '*' || (braces && s[s.size() - 2] == '*') || s == "{query_path}")
      s = "*";
    else if (braces || angles || s.front() == ':')
      s = "{}";
    out += "/" + s;
  }
  return out.empty() ? "/" : out;
}

std::string key(const std::string& method, const std::string& path) {
  return method + " " + normalise_path(path);
}

struct Row {
  std::string service, section, method, path;
};

std::vector<Row> documented_rows() {
  std::ifstream in(CADASTRE_ROUTES_TSV);
  REQUIRE_MESSAGE(in, "cannot read " << CADASTRE_ROUTES_TSV);
  std::vector<Row> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    std::vector<std::string> f;
    std::istringstream cols(line);
    for (std::string c; std::getline(cols, c, '\t');) f.push_back(c);
    REQUIRE_MESSAGE(f.size() == 4, "not 4 columns: " << line);
    rows.push_back({f[0], f[1], f[2], f[3]});
  }
  return rows;
}

/// Routes in the tables that routes.tsv does not list, on purpose (normalised keys).
const std::set<std::string> kIntendedExtras = {
    // Every service's own documentation and metrics (http::Server adds them; /docs is listed).
    "GET /openapi.json",
    "GET /metrics",
    // cadastre-server: the tiles and TileJSON that the gateway's documented /tiles/* forwards to.
    "GET /tiles/{}/index.json",
    "GET /tiles/{}/{}",
    "GET /tiles/{}/{}/{}/{}/{}",
    // cadastre-server: the agenda the reservations are made against (configured per tenant).
    "GET /agendamento/{}/agenda",
    "PUT /agendamento/{}/agenda",
    // cadastre-server: the stored reports that the documented report/{id}/export-* export.
    "GET /explorer/{}/relatorios",
    "POST /explorer/{}/relatorios",
    "PUT /explorer/{}/relatorios/{}",
    "DELETE /explorer/{}/relatorios/{}",
    // cadastre-gateway: a documented prefix without its rest (answered, not a 404 of the
    // catch-all).
    "GET /rest",
    "GET /tiles",
    "GET /plataforma/rest",
    "GET /plataforma/tiles",
    "GET /outros/geo-state-ows",
    "GET /outros/map-export-city-a",
    "GET /outros/map-export-city-b",
    "GET /outros/land-registry",
    "GET /outros/land-registry/{}",
    "GET /outros/env-agency-ows",
    "GET /outros/census-ows",
    "GET /outros/stats-ows",
    "GET /outros/env-state-wms",
    "GET /outros/city-c-ows",
    "GET /outros/inde-agency-a-ows",
    "GET /outros/inde-agency-b-ows",
    "GET /outros/city-d-vector-tiles",
    // cadastre-gateway: unknown providers and any other path, 404 with X-Target-URL: none.
    "GET /outros/{}",
    "GET /outros/{}/*",
    "GET /*",
};

/// The platform's rows (issues #14 to #18 built them all).
constexpr std::size_t kPlatformRows = 302;
/// Routes of the platform's table that routes.tsv does not list, on purpose.
/// PUT /importar/tiff/envio: the upload through the signed link GET /importar/tiff/credentials
/// hands out (no session: the link is the credential). PUT /importar/pendentes/cancelar:
/// cancels any listed import job, as PUT /importacoes-tiff/:id cancels a tiff job.
const std::set<std::string> kPlatformExtras = {"GET /metrics", "PUT /importar/tiff/envio",
                                               "PUT /importar/pendentes/cancelar"};
/// Documented routes the table serves under another pattern, on purpose: the stored name of
/// DELETE /fotos/nome/:fileName takes the rest of the path, so a name holding an encoded
/// "/" (the router decodes %2F) reaches the route's own check and gets a clear 400 instead
/// of a 404 of the router.
const std::map<std::string, std::string> kPlatformServedAs = {{"DELETE /fotos/nome/{}", "DELETE /fotos/nome/*"}};

gateway::AppOptions gateway_options(test::Stack& stack) {
  gateway::AppOptions g;
  g.config = gateway::parse_config(gateway::demo_config_json(stack.app().server().base_url(), ""));
  g.config.platform_dsn = stack.platform_dsn();
  g.http.port = 0;
  g.http.access_log = false;
  g.pool.size = 1;
  return g;
}

platform::AppOptions platform_options(const test::Stack& stack) {
  platform::AppOptions po;
  po.platform_dsn = stack.platform_dsn();
  po.http.port = 0;
  po.pool.size = 1;
  return po;
}

/// The three services over one test stack (cadastre-server listening, the gateway and the
/// platform only built): their route tables and OpenAPI documents.
struct Services {
  test::Stack stack{{"alfa"}};
  gateway::App gw{gateway_options(stack)};
  platform::App plat{platform_options(stack)};
};

}  // namespace

TEST_CASE("the route tables of the three services are the documented routes") {
  Services services;
  test::Stack& stack = services.stack;
  gateway::App& gw = services.gw;

  // Union of the tables: key → where it comes from.
  std::map<std::string, std::string> served;
  for (const auto& r : stack.app().server().router().routes())
    served.emplace(key(r.method, r.pattern), "cadastre " + r.pattern);
  for (const auto& r : gw.server().router().routes())
    served.emplace(key(r.method, r.pattern), "gateway " + r.pattern);

  auto rows = documented_rows();
  std::set<std::string> documented;  // cadastre and gateway rows
  std::vector<Row> platform;
  for (const auto& row : rows) {
    if (row.service == "platform")
      platform.push_back(row);
    else {
      REQUIRE_MESSAGE((row.service == "cadastre" || row.service == "gateway"),
                      "unknown service " << row.service);
      documented.insert(key(row.method, row.path));
    }
  }
  CHECK(rows.size() == 430);  // 107 cadastre + 21 gateway + 302 platform rows as of this copy

  // Every documented route is in a table.
  std::size_t missing = 0;
  for (const auto& k : documented) {
    if (!served.count(k)) {
      ++missing;
      FAIL_CHECK("documented but in no route table: " << k);
    }
  }
  CHECK(missing == 0);

  // Every route of the tables is documented, or one of the intended extras.
  std::size_t undocumented = 0;
  for (const auto& [k, from] : served) {
    if (documented.count(k) || kIntendedExtras.count(k)) continue;
    ++undocumented;
    FAIL_CHECK("in a route table (" << from
                                    << ") but neither documented nor an intended extra: " << k);
  }
  CHECK(undocumented == 0);
  // The extras still exist (an extra that went away is taken off the list).
  for (const auto& k : kIntendedExtras) {
    CHECK_MESSAGE(served.count(k), "intended extra no longer served: " << k);
    CHECK_MESSAGE(!documented.count(k), "intended extra is documented now: " << k);
  }

  // The platform: its table against the platform rows.
  platform::App& plat = services.plat;
  std::set<std::string> platform_served;
  for (const auto& r : plat.server().router().routes()) platform_served.insert(key(r.method, r.pattern));
  std::set<std::string> platform_documented;
  for (const auto& row : platform) {
    auto k = key(row.method, row.path);
    auto as = kPlatformServedAs.find(k);
    if (as != kPlatformServedAs.end()) k = as->second;
    platform_documented.insert(k);
    CHECK_MESSAGE(platform_served.count(k), "documented platform route not served: " << row.method << " " << row.path
                                                                                      << "  [" << row.section << "]");
  }
  for (const auto& k : platform_served)
    CHECK_MESSAGE((platform_documented.count(k) || kPlatformExtras.count(k)),
                  "in the platform's table but not documented: " << k);
  CHECK(platform.size() == kPlatformRows);
}

namespace {

/// "METHOD pattern (service)" of every route of `routes` behind a credential that declares
/// no permission. There is no list of exceptions: every such route says what it needs.
std::vector<std::string> undeclared(const std::vector<http::Route>& routes, const std::string& service) {
  std::vector<std::string> out;
  for (const auto& r : routes)
    if (r.auth != "none" && r.access.kind == http::Access::Kind::anyone)
      out.push_back(r.method + " " + r.pattern + " (" + service + ", auth " + r.auth + ")");
  return out;
}

}  // namespace

TEST_CASE("every route behind a credential declares its permission in the route table") {
  Services services;
  test::Stack& stack = services.stack;
  gateway::App& gw = services.gw;
  platform::App& plat = services.plat;

  std::vector<std::string> missing = undeclared(stack.app().server().router().routes(), "cadastre-server");
  for (auto& m : undeclared(gw.server().router().routes(), "cadastre-gateway")) missing.push_back(m);
  for (auto& m : undeclared(plat.server().router().routes(), "cadastre-platform")) missing.push_back(m);
  for (const auto& m : missing) FAIL_CHECK("signed-in route without .access: " << m);
  CHECK(missing.empty());

  // The OpenAPI documents carry it: every operation with a security requirement has its
  // x-permissao, the text of the same table entry the dispatcher enforces.
  for (const http::Server* srv : {&stack.app().server(), &gw.server(), &plat.server()}) {
    simdjson::dom::parser parser;
    simdjson::dom::element doc = parser.parse(srv->openapi());
    std::size_t operations = 0;
    simdjson::dom::object paths = doc["paths"].get_object();
    for (auto [path, item] : paths) {
      simdjson::dom::object operations_of_path = item.get_object();
      for (auto [method, op] : operations_of_path) {
        simdjson::dom::array security;
        if (op["security"].get(security) || security.size() == 0) continue;
        ++operations;
        CHECK_MESSAGE(!op["x-permissao"].error(), method << " " << path << " has no x-permissao");
      }
    }
    CHECK(operations > 0);
  }
}

// Routes whose JSON body no schema can describe, each with its reason.
const std::map<std::string, std::string> kFreeBodies = {
    {"POST /converter/geojson", "a GeoJSON FeatureCollection (RFC 7946, which allows foreign members), read by GDAL"},
    {"POST /proxyR", "forwarded as it is to the external server of ?url="},
    {"POST /app-backend/*", "forwarded as it is to the internal service, which reads it"},
    {"PUT /app-backend/*", "forwarded as it is to the internal service, which reads it"},
    {"POST /api-r/*", "forwarded as it is to the internal service, which reads it"},
    {"PUT /api-r/*", "forwarded as it is to the internal service, which reads it"},
    {"POST /dbrest/*", "forwarded as it is to the internal service, which reads it"},
    {"PUT /dbrest/*", "forwarded as it is to the internal service, which reads it"},
};

TEST_CASE("every JSON body the platform takes names a request schema kept beside its parser") {
  Services services;
  std::set<std::string> known;
  for (const auto& r : platform::schemas::requests()) known.insert(r.name);
  std::vector<std::string> missing;
  for (const auto& r : services.plat.server().router().routes()) {
    if (r.body.description.empty() || r.body.content_type != "application/json") continue;
    std::string route = r.method + " " + normalise_path(r.pattern);
    if (kFreeBodies.count(route)) continue;
    constexpr std::string_view prefix = "#/components/schemas/";
    std::string name;
    if (auto at = r.body.schema.find(prefix); at != std::string::npos) {
      at += prefix.size();
      name = r.body.schema.substr(at, r.body.schema.find('"', at) - at);
    }
    if (!known.count(name)) missing.push_back(route + (name.empty() ? " (no named schema)" : " → " + name));
  }
  for (const auto& m : missing) FAIL_CHECK("a JSON body without a request schema beside its parser: " << m);
  CHECK(missing.empty());
}
