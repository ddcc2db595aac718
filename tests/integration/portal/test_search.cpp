// GET /portal/{municipio}/imovel: property search by unit, lot and address.
#include "fixture.hpp"

using namespace cadastre::test;

TEST_CASE_FIXTURE(Fixture,
                  "search by numero_cadastro or inscricao_cartografica finds exactly that unit") {
  auto unit = db_rows("select concat_ws(E'\\t', id, numero_cadastro, inscricao_cartografica, lote_id) "
                      "from cadastro.imobiliario order by id offset 3 limit 1")
                  .at(0);
  for (const auto& query : {"numero_cadastro=" + unit[1], "inscricao_cartografica=" + unit[2]}) {
    CAPTURE(query);
    auto a = get("/portal/alfa/imovel?" + query);
    REQUIRE_MESSAGE(a->status == 200, a->body);
    CHECK(int64_t(a->json()["total"]) == 1);
    auto r = a->json()["registros"].at(0);
    CHECK(std::to_string(int64_t(r["id"])) == unit[0]);
    CHECK(std::string_view(r["numero_cadastro"]) == unit[1]);
    CHECK(std::string_view(r["inscricao_cartografica"]) == unit[2]);
    CHECK(std::to_string(int64_t(r["lote"]["id"])) == unit[3]);
  }
  CHECK(int64_t(get("/portal/alfa/imovel?numero_cadastro=nao-existe")->json()["total"]) == 0);
}

TEST_CASE_FIXTURE(Fixture, "search by lot, street and neighbourhood matches the database, paged") {
  auto lot = db("select l.inscricao from cadastro.lote l join cadastro.imobiliario i on i.lote_id = l.id "
                "group by l.inscricao order by count(*) desc, l.inscricao limit 1");
  auto by_lot = get("/portal/alfa/imovel?inscricao_lote=" + lot);
  REQUIRE_MESSAGE(by_lot->status == 200, by_lot->body);
  CHECK(std::to_string(int64_t(by_lot->json()["total"])) ==
        db("select count(*) from cadastro.imobiliario i join cadastro.lote l on l.id = i.lote_id where l.inscricao = '" +
           lot + "'"));

  // A part of a street name, case- and accent-insensitively.
  auto street = db("select g.nome from cadastro.lote l join cadastro.logradouro g on g.id = l.logradouro_id "
                   "join cadastro.imobiliario i on i.lote_id = l.id order by i.id limit 1");
  std::string part = street.substr(street.size() / 2);
  std::transform(part.begin(), part.end(), part.begin(), [](unsigned char c) { return std::toupper(c); });
  auto by_street = get("/portal/alfa/imovel?logradouro=" + url(part));
  REQUIRE_MESSAGE(by_street->status == 200, by_street->body);
  auto expected = db("select count(*) from cadastro.imobiliario i join cadastro.lote l on l.id = i.lote_id join "
                     "cadastro.logradouro g on g.id = l.logradouro_id where unaccent(g.nome) ilike unaccent('%" +
                     part + "%')");
  CHECK(std::to_string(int64_t(by_street->json()["total"])) == expected);
  CHECK(int64_t(by_street->json()["total"]) >= 1);

  auto bairro = db("select b.nome from cadastro.bairro b join cadastro.quadra q on q.bairro_id = b.id join "
                   "cadastro.lote l on l.quadra_id = q.id order by l.id limit 1");
  auto by_bairro = get("/portal/alfa/imovel?bairro=" + url(bairro) + "&limit=2&page=1");
  REQUIRE_MESSAGE(by_bairro->status == 200, by_bairro->body);
  CHECK(by_bairro->json()["registros"].get_array().size() == 2);
  CHECK(int64_t(by_bairro->json()["limite"]) == 2);
  CHECK(std::string_view(by_bairro->json()["registros"].at(0)["endereco"]["bairro"]) == bairro);

  auto all = get("/portal/alfa/imovel?limit=1000");
  CHECK(std::to_string(int64_t(all->json()["total"])) == db("select count(*) from cadastro.imobiliario"));
}

TEST_CASE_FIXTURE(
    Fixture, "search refuses unknown parameters and bad paging, and needs a token of the tenant") {
  CHECK(get("/portal/alfa/imovel?inscricao=1")->codigo() == "campo_desconhecido");
  CHECK(get("/portal/alfa/imovel?limit=0")->status == 400);
  CHECK(get("/portal/alfa/imovel?numero_cadastro=%27%3B%20drop%20table%20x")->status == 200);  // just a value
  auto cli = city().client();
  CHECK(cli.Get("/portal/alfa/imovel")->status == 401);
  CHECK(get("/portal/alfa/imovel", city().user("beta").token)->status == 403);
  auto no_units = city().add_user("alfa", "sem-imoveis@alfa.gov.br", {"*:r", "imobiliario:"});
  auto denied = get("/portal/alfa/imovel", no_units.token);
  CHECK(denied->status == 403);
  CHECK(denied->codigo() == "acesso_negado");
}
