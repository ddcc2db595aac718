// GET /portal/cache-reloader: administrators of a tenant drop its cached configuration,
// valuation profile and layer catalogs; and the demo valuation profile.
#include <libpq-fe.h>

#include "fixture.hpp"
#include "demo/valuation.hpp"
#include "store/migrate.hpp"

using namespace cadastre::test;
using namespace cadastre;
using doctest::Approx;

namespace {

std::unique_ptr<Answer> reload(const std::string& token) {
  return fixture().get("/portal/cache-reloader", token);
}

std::string unit_id() {
  return fixture().db(
      "select i.id from cadastro.imobiliario i join cadastro.lote l on l.id = i.lote_id "
      "where l.face_quadra_id is not null order by i.id limit 1");
}

double land_value() {
  auto a = fixture().get("/portal/alfa/avaliacao/terreno?id=" + unit_id());
  REQUIRE_MESSAGE(a->status == 200, a->body);
  return double(a->json()["avaliacao"]["valor"]);
}

// Back to the default profile for the other tests of this binary.
void restore_default_profile() {
  fixture().db("with d as (delete from avaliacao.perfil returning 1) select count(*) from d");
  REQUIRE(reload(admin().token)->status == 200);
}

}  // namespace

TEST_CASE_FIXTURE(Fixture, "cache-reloader is for administrators only") {
  auto user = reload(city().user("alfa").token);
  CHECK(user->status == 403);
  CHECK(user->codigo() == "acesso_negado");
  auto none = answer(city().client().Get("/portal/cache-reloader"), "sem token");
  CHECK(none->status == 401);
  CHECK(reload(std::string(64, 'b'))->status == 401);
  auto ok = reload(admin().token);
  REQUIRE_MESSAGE(ok->status == 200, ok->body);
  CHECK(std::string_view(ok->json()["municipio"]) == "alfa");
  CHECK(std::string_view(ok->json()["perfil_avaliacao"]) == "padrão");
}

TEST_CASE_FIXTURE(Fixture,
                  "a profile edited in the database applies after cache-reloader, not before") {
  const double before = land_value();
  const auto situacao = db("select l.situacao from cadastro.lote l join cadastro.imobiliario i on i.lote_id = l.id "
                           "where i.id = " + unit_id());
  const double old_factor =
      db_number("select fator from dominio.situacao where codigo = '" + situacao + "'");
  db("insert into avaliacao.perfil (nome, ativo, configuracao) values ('Lei nova', true, "
     "jsonb_build_object('situacao', jsonb_build_object('" + situacao + "', 1.5))) returning id");
  CHECK(land_value() == Approx(before).epsilon(1e-12));  // still the cached default profile
  auto r = reload(admin().token);
  REQUIRE_MESSAGE(r->status == 200, r->body);
  CHECK(std::string_view(r->json()["perfil_avaliacao"]) == "Lei nova");
  CHECK(land_value() == Approx(before / old_factor * 1.5).epsilon(1e-9));
  auto a = get("/portal/alfa/avaliacao/terreno?id=" + unit_id());
  CHECK(std::string_view(a->json()["perfil"]) == "Lei nova");

  // A profile the library refuses is reported by the reload (and by every valuation) as 422.
  db("update avaliacao.perfil set configuracao = '{\"situacao\": {\"esquina\": -1}}' returning id");
  auto broken = reload(admin().token);
  CHECK(broken->status == 422);
  CHECK(broken->mensagem().find("Lei nova") != std::string::npos);
  CHECK(get("/portal/alfa/avaliacao/terreno?id=" + unit_id())->status == 422);

  restore_default_profile();
  CHECK(land_value() == Approx(before).epsilon(1e-12));
}

TEST_CASE_FIXTURE(Fixture, "cache-reloader re-reads the tenant configuration") {
  auto& identity = city().app().identity();
  REQUIRE(identity.tenant("alfa"));  // cached from here on
  platform_db(
      "update plataforma.tenants set config = '{\"recarga\": 1}' where slug = 'alfa' "
      "returning id");
  CHECK(identity.tenant("alfa")->config_json.find("recarga") == std::string::npos);
  REQUIRE(reload(admin().token)->status == 200);
  CHECK(identity.tenant("alfa")->config_json.find("recarga") != std::string::npos);
}

TEST_CASE_FIXTURE(Fixture,
                  "demo valuation profile: idempotent, active, and prices every stored standard") {
  PGconn* c = store::connect_or_throw(city().tenant_dsn("alfa"));
  db("insert into avaliacao.perfil (nome, ativo) values ('Antigo', true) returning id");
  CHECK(store::load_demo_valuation(c) == 1);
  CHECK(store::load_demo_valuation(c) == 1);
  PQfinish(c);
  CHECK(db("select count(*) from avaliacao.perfil") == "2");
  CHECK(db("select nome from avaliacao.perfil where ativo") == store::kDemoValuationProfile);
  CHECK(db("select count(*) from dominio.padrao_construtivo p where not exists (select 1 from avaliacao.perfil a "
           "where a.ativo and a.configuracao->'cub' ? p.codigo)") == "0");
  REQUIRE(reload(admin().token)->status == 200);
  // Every unit of the demo city values, including buildings of standards the default
  // profile does not price; the profile's reference year counts the ages.
  for (const auto& id : db_rows("select id::text from cadastro.imobiliario order by id")) {
    auto a = get("/portal/alfa/avaliacao/iptu?id=" + id[0]);
    CHECK_MESSAGE(a->status == 200, id[0] << ": " << a->body);
    if (a->status == 200) CHECK(int64_t(a->json()["ano_referencia"]) == 2026);
  }
  restore_default_profile();
}
