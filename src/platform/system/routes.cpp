// System routes of the platform: health probes, version, smoke tests and the preflight
// paths browsers ask before logging in. /swagger.json, /docs and /metrics are the server's.
#include "cadastre/geom.hpp"
#include "cadastre/json.hpp"
#include "platform/app.hpp"
#include "platform/schemas.hpp"
#include "platform/system/store.hpp"
#include "service/health.hpp"
#include "store/crypto.hpp"

namespace cadastre::platform::system {
namespace {

using http::Request;
using http::Response;

constexpr const char* kTag = "Sistema";
// A 100 m × 100 m square near the equator: its area is known on the spheroid (≈ 1.0e4 m²)
// and GEOS and PostGIS must agree on it.
constexpr const char* kProbeWkt =
    "POLYGON((-47.0 -0.0,-46.9991016 -0.0,-46.9991016 -0.0009043,-47.0 -0.0009043,-47.0 -0.0))";

Response alive(Request&) { return Response::json(R"({"status":"ok"})"); }

struct Probes {
  store::Identity* identity;
  store::TenantPools* tenants;
  store::Pool* platform;
  const AppOptions* options;
  const http::Server* server;  // draining: readiness 503

  Response status(Request&) const {
    JsonWriter w;
    w.begin_object().key("status").value("ok").key("servico").value("cadastre-platform");
    w.key("versao").value(options->version).end_object();
    return Response::json(std::move(w).str());
  }

  Response startup(Request&) const { return service::startup_probe(*identity, *tenants, "plataforma"); }
  Response ready(Request&) const {
    return service::readiness_probe(*server, *identity, "base da plataforma inacessível");
  }

  Response version(Request&) const {
    JsonWriter w;
    w.begin_object().key("servico").value("cadastre-platform").key("versao").value(options->version);
    w.key("build").value(options->build).key("migracao").value(migration_level(*platform, "platform"));
    w.end_object();
    return Response::json(std::move(w).str());
  }
};

Response smoke(Request&) { return Response::json(R"({"status":"ok","servico":"cadastre-platform"})"); }

// GEOS (the library) and PostGIS (the caller's tenant database) read the same polygon.
Response geom_round_trip(const service::Scope& s, Request&) {
  geom::Geometry g = geom::Geometry::from_wkt(kProbeWkt);
  double geos_area = geom::area_m2(g);
  PostgisRoundTrip pg = postgis_round_trip(*s.db, g.to_wkt());
  bool agree = pg.valid && std::abs(pg.area_m2 - geos_area) <= 1e-6 * geos_area;
  JsonWriter w;
  w.begin_object().key("wkt").value(g.to_wkt());
  w.key("geos").begin_object().key("valida").value(g.validity().valid).key("area_m2").value(geos_area).end_object();
  w.key("postgis").begin_object().key("wkt").value(pg.wkt).key("valida").value(pg.valid);
  w.key("area_m2").value(pg.area_m2).key("versao").value(pg.postgis_version).end_object();
  w.key("concordam").value(agree).end_object();
  return Response::json(std::move(w).str(), agree ? 200 : 500);
}

Response caller_tenant(const service::Scope& s, Request&) {
  JsonWriter w;
  w.begin_object().key("id").value(s.tenant.id).key("slug").value(s.tenant.slug).key("nome").value(s.tenant.nome);
  w.key("tnToken").value(store::encode_tenant_token(s.tenant.id)).key("idUsuario").value(s.user.user_id);
  w.end_object();
  return Response::json(std::move(w).str());
}

// Never runs: the server answers every OPTIONS itself (CORS preflight). The entry exists
// so that these paths, which have no other method, are known to the router.
Response preflight(Request&) { return Response::no_content(); }

}  // namespace
}  // namespace cadastre::platform::system

namespace cadastre::platform {

void add_system_routes(App& app) {
  using namespace system;
  auto& srv = app.server();
  const Probes probes{&app.identity(), &app.tenants(), &app.platform(), &app.options(), &app.server()};
  auto probe = [probes](Response (Probes::*fn)(Request&) const) {
    return [probes, fn](Request& r) { return (probes.*fn)(r); };
  };
  srv.add({.method = "OPTIONS", .pattern = "/", .auth = "none", .tag = kTag,
           .summary = "Pré-verificação CORS da raiz", .answers = "", .answer_status = 204, .handler = &preflight});
  srv.add({.method = "OPTIONS", .pattern = "/autenticar", .auth = "none", .tag = kTag,
           .summary = "Pré-verificação CORS da autenticação", .answers = "", .answer_status = 204, .handler = &preflight});
  srv.add({.method = "GET", .pattern = "/health-check", .auth = "none", .tag = kTag, .summary = "Estado da API",
           .answer_schema = schemas::ref("Saude"), .handler = probe(&Probes::status)});
  srv.add({.method = "GET", .pattern = "/health-check/startup", .auth = "none", .tag = kTag,
           .summary = "Verifica a base da plataforma e o banco de cada município", .handler = probe(&Probes::startup)});
  srv.add({.method = "GET", .pattern = "/health-check/liveness", .auth = "none", .tag = kTag,
           .summary = "O processo está vivo", .handler = &alive});
  srv.add({.method = "GET", .pattern = "/health-check/readiness", .auth = "none", .tag = kTag,
           .summary = "Pronto para atender (503 enquanto a base da plataforma estiver inacessível)",
           .handler = probe(&Probes::ready)});
  srv.add({.method = "GET", .pattern = "/versao", .auth = "none", .tag = kTag,
           .summary = "Versão, build e nível de migração da base da plataforma",
           .answer_schema = schemas::ref("Versao"), .handler = probe(&Probes::version)});
  srv.add({.method = "GET", .pattern = "/teste", .auth = "none", .tag = kTag, .summary = "Teste de fumaça",
           .handler = &smoke});
  srv.add({.method = "GET", .pattern = "/teste/geom", .auth = "sessao", .access = http::members("um teste do banco do próprio município; nada é gravado"), .tag = kTag,
           .summary = "Ida e volta de uma geometria pelo GEOS e pelo PostGIS do município",
           .answer_schema = schemas::ref("TesteGeometria"), .handler = service::scoped(&geom_round_trip)});
  srv.add({.method = "GET", .pattern = "/teste/tenant", .auth = "sessao", .access = http::members("o próprio município"), .tag = kTag,
           .summary = "O município da sessão",
           .answer_schema = schemas::ref("MunicipioDaSessao"), .handler = service::scoped(&caller_tenant)});
}

}  // namespace cadastre::platform
