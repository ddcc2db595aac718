// GET /portal/{municipio}/avaliacao/terreno and /iptu from stored data, POST construcao,
// and the mapping of stored use codes (server/portal/uses.hpp).
#include "fixture.hpp"
#include "server/portal/uses.hpp"

using namespace cadastre::test;
using namespace cadastre;
using doctest::Approx;

namespace {

// A unit whose lot has a block face (every demo lot should).
std::vector<std::string> some_unit() {
  return db_rows("select concat_ws(E'\\t', i.id, i.numero_cadastro, i.inscricao_cartografica, i.lote_id, "
                 "i.fracao_ideal) from cadastro.imobiliario i join cadastro.lote l on l.id = i.lote_id "
                 "where l.face_quadra_id is not null order by i.id limit 1")
      .at(0);
}

double value(Answer& a) { return double(a.json()["avaliacao"]["valor"]); }

}  // namespace

TEST_CASE_FIXTURE(
    Fixture,
    "land value of a stored lot equals the hand computation, by id, inscricao or numero_cadastro") {
  auto u = some_unit();
  const double expected = hand_land_value(u[3]);
  for (const auto& key : {"id=" + u[0], "numero_cadastro=" + u[1], "inscricao_cartografica=" + u[2]}) {
    CAPTURE(key);
    auto a = get("/portal/alfa/avaliacao/terreno?" + key);
    REQUIRE_MESSAGE(a->status == 200, a->body);
    CHECK(value(*a) == Approx(expected).epsilon(1e-9));
    CHECK(std::string_view(a->json()["avaliacao"]["tipo"]) == "terreno");
    CHECK(std::string_view(a->json()["perfil"]) == "padrão");
    CHECK(std::to_string(int64_t(a->json()["imovel"]["id"])) == u[0]);
    CHECK(std::to_string(int64_t(a->json()["imovel"]["lote"]["id"])) == u[3]);
  }
}

TEST_CASE_FIXTURE(
    Fixture, "land and IPTU routes need exactly one valid key and answer 404 for a missing unit") {
  auto u = some_unit();
  for (const char* route : {"terreno", "iptu"}) {
    const std::string base = std::string("/portal/alfa/avaliacao/") + route;
    CHECK(get(base)->status == 400);
    CHECK(get(base + "?id=" + u[0] + "&numero_cadastro=" + u[1])->status == 400);
    CHECK(get(base + "?id=abc")->status == 400);
    CHECK(get(base + "?id=0")->status == 400);
    CHECK(get(base + "?id=" + u[0] + "&id=" + std::to_string(std::stoll(u[0]) + 1))->status == 400);
    CHECK(get(base + "?id=" + u[0] + "&outro=1")->codigo() == "campo_desconhecido");
    CHECK(get(base + "?id=99999999")->status == 404);
    CHECK(get(base + "?numero_cadastro=nao-existe")->codigo() == "nao_encontrado");
    CHECK(get(base + "?id=" + u[0], city().user("beta").token)->status == 403);
    CHECK(city().client().Get(base + "?id=" + u[0])->status == 401);
  }
  auto no_buildings = city().add_user("alfa", "sem-edificacoes@alfa.gov.br", {"*:r", "edificacao:"});
  CHECK(get("/portal/alfa/avaliacao/terreno?id=" + u[0], no_buildings.token)->status == 200);
  CHECK(get("/portal/alfa/avaliacao/iptu?id=" + u[0], no_buildings.token)->status == 403);
}

TEST_CASE_FIXTURE(Fixture, "IPTU of a stored residential unit equals the hand computation") {
  // A residential unit whose lot's buildings are all residential and priced by the
  // default CUB table.
  auto unit = db("select i.id from cadastro.imobiliario i join cadastro.lote l on l.id = i.lote_id "
                 "where i.uso = 'residencial' and l.face_quadra_id is not null and exists (select 1 from "
                 "cadastro.edificacao e where e.lote_id = l.id) and not exists (select 1 from cadastro.edificacao e "
                 "where e.lote_id = l.id and (e.padrao not in ('R1-B', 'R1-N', 'R1-A', 'R8-N', 'CSL8-N', 'GI') or "
                 "e.uso <> 'residencial')) order by i.fracao_ideal, i.id limit 1");
  REQUIRE_MESSAGE(!unit.empty(), "a demo city without a plain residential unit");
  auto u = db_rows("select concat_ws(E'\\t', lote_id, fracao_ideal) from cadastro.imobiliario where id = " + unit).at(0);
  const double fracao = std::stod(u[1]);
  double vve = 0;
  for (const auto& b : db_rows("select concat_ws(E'\\t', area_construida, padrao, ano_construcao, conservacao) from "
                               "cadastro.edificacao where lote_id = " + u[0] + " order by id"))
    vve += hand_construction_value(std::stod(b[0]) * fracao, b[1], 2026 - std::stoi(b[2]), b[3], 70);
  const double vvi = hand_land_value(u[0]) * fracao + vve;
  const double rate = vvi <= 350000 ? 0.008 : vvi <= 500000 ? 0.009 : 0.01;

  auto a = get("/portal/alfa/avaliacao/iptu?id=" + unit + "&ano_referencia=2026");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto r = a->json()["avaliacao"];
  CHECK(std::string_view(r["tipo"]) == "iptu");
  CHECK(double(r["intermediarios"]["VVI"]) == Approx(vvi).epsilon(1e-9));
  CHECK(double(r["intermediarios"]["aliquota"]) == rate);
  CHECK(double(r["valor"]) == Approx(vvi * rate).epsilon(1e-9));
  CHECK(int64_t(a->json()["ano_referencia"]) == 2026);
  CHECK(double(r["intermediarios"]["fracao_ideal"]) == Approx(fracao));
  // The stored buildings come with the answer, with their useful-life class.
  auto buildings = a->json()["imovel"]["edificacoes"].get_array();
  CHECK(std::to_string(buildings.size()) == db("select count(*) from cadastro.edificacao where lote_id = " + u[0]));
  CHECK(std::string_view(buildings.at(0)["classe_vida_util"]) == "residencial");
}

TEST_CASE_FIXTURE(Fixture,
                  "a stored standard the profile does not price is a 422 naming the field") {
  auto unit = db("select i.id from cadastro.imobiliario i join cadastro.edificacao e on e.lote_id = i.lote_id "
                 "where e.padrao in ('PP4-B', 'PP4-N', 'R16-N', 'CSL16-N', 'CAL8-N', 'R8-B', 'R8-A') "
                 "and i.uso <> 'territorial' order by i.id limit 1");
  REQUIRE(!unit.empty());
  auto a = get("/portal/alfa/avaliacao/iptu?id=" + unit + "&ano_referencia=2026");
  CHECK(a->status == 422);
  CHECK(a->codigo() == "entidade_improcessavel");
  CHECK(a->mensagem().find("padrao") != std::string::npos);
}

TEST_CASE_FIXTURE(Fixture,
                  "stored use codes map to IPTU uses and useful-life classes through one table") {
  using valuation::Use;
  CHECK(server::use_mappings().size() == std::stoul(db("select count(*) from dominio.uso")));
  for (const auto& code : db_rows("select codigo from dominio.uso order by codigo")) {
    CAPTURE(code[0]);
    CHECK_NOTHROW(server::use_mapping(code[0], "uso"));
  }
  CHECK(server::use_mapping("residencial", "uso").iptu == Use::residencial);
  CHECK(server::use_mapping("residencial", "uso").vida_util == "residencial");
  for (const char* c : {"comercial", "servicos", "misto", "institucional", "religioso"}) {
    CHECK(server::use_mapping(c, "uso").iptu == Use::nao_residencial);
    CHECK(server::use_mapping(c, "uso").vida_util == "comercial");
  }
  CHECK(server::use_mapping("industrial", "uso").vida_util == "industrial");
  CHECK(server::use_mapping("territorial", "uso").iptu == Use::territorial);
  CHECK(server::use_mapping("territorial", "uso").vida_util.empty());
  try {
    server::use_mapping("hospitalar", "edificacoes.uso");
    FAIL("esperava erro");
  } catch (const Error& e) {
    CHECK(e.code() == errc::unprocessable);
    CHECK(e.field() == "edificacoes.uso");
  }
}

TEST_CASE_FIXTURE(
    Fixture,
    "a non-residential unit pays the non-residential rate and its buildings age as commercial") {
  auto unit = db("select i.id from cadastro.imobiliario i where i.uso in ('comercial', 'servicos') and not exists ("
                 "select 1 from cadastro.edificacao e where e.lote_id = i.lote_id and (e.padrao not in ('R1-B', "
                 "'R1-N', 'R1-A', 'R8-N', 'CSL8-N', 'GI') or e.uso not in ('comercial', 'servicos'))) and exists ("
                 "select 1 from cadastro.edificacao e where e.lote_id = i.lote_id) order by i.id limit 1");
  REQUIRE_MESSAGE(!unit.empty(), "a demo city without a plain commercial unit");
  auto a = get("/portal/alfa/avaliacao/iptu?id=" + unit + "&ano_referencia=2026");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto r = a->json()["avaliacao"];
  CHECK(double(r["intermediarios"]["aliquota"]) == 0.016);
  CHECK(double(r["componentes"].at(1)["intermediarios"]["vida_util"]) == 60.0);
  CHECK(std::string_view(a->json()["imovel"]["edificacoes"].at(0)["classe_vida_util"]) == "comercial");
}

TEST_CASE_FIXTURE(Fixture,
                  "POST avaliacao/construcao values the posted input with the tenant profile") {
  auto a =
      request("POST", "/portal/alfa/avaliacao/construcao", Stack::bearer(city().user("alfa").token),
              R"({"area_construida": 100, "padrao": "R1-N", "idade": 7, "conservacao": "c"})");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(value(*a) == Approx(194344.7309424).epsilon(1e-10));
  CHECK(std::string_view(a->json()["perfil"]) == "padrão");
  auto bad =
      request("POST", "/portal/alfa/avaliacao/construcao", Stack::bearer(city().user("alfa").token),
              R"({"area_construida": 0, "padrao": "R1-N", "idade": 7, "conservacao": "c"})");
  CHECK(bad->status == 400);
  CHECK(bad->codigo() == "parametro_invalido");
  CHECK(request("POST", "/portal/alfa/avaliacao/construcao",
                Stack::bearer(city().user("beta").token), "{}")
            ->status == 403);
  CHECK(city().client().Post("/portal/alfa/avaliacao/construcao", "{}", "application/json")->status == 401);
}
