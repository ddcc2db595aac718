// Every route of the platform that takes a session refuses a call without one, with a
// token that is not a session, and with a session whose X-TN-TOKEN names another tenant:
// generated from the route table, so a route added later is covered without a line here.
#include "integration/platform/fixture.hpp"

using namespace cadastre;
using test::PlatformFixture;
using test::refused;

TEST_CASE_FIXTURE(PlatformFixture, "every session route refuses a missing, a wrong and another tenant's credential") {
  test::Session alfa = user("alfa");
  test::Session beta = user("beta");
  const httplib::Headers wrong{{"X-Auth-Token", std::string(64, 'a')}, {"X-Tn-Token", alfa.tn}};
  const httplib::Headers crossed{{"X-Auth-Token", beta.token}, {"X-Tn-Token", alfa.tn}};
  std::size_t routes = 0;
  for (const http::Route& r : app->server().router().routes()) {
    if (r.auth != "sessao" || r.method == "OPTIONS") continue;
    ++routes;
    std::string path = r.pattern;
    for (std::size_t open; (open = path.find('{')) != std::string::npos;)
      path.replace(open, path.find('}', open) - open + 1, "1");
    std::string body = r.method == "POST" || r.method == "PUT" ? "{}" : "";
    CAPTURE(r.method);
    CAPTURE(r.pattern);
    refused(*request(r.method, path, {}, body), 401, "nao_autenticado");
    refused(*request(r.method, path, wrong, body), 401, "nao_autenticado");
    refused(*request(r.method, path, crossed, body), 403, "municipio_nao_permitido");
  }
  MESSAGE(routes << " rotas com sessão");
  CHECK(routes >= 140);  // 143 when written: the table did not lose its session routes
}
