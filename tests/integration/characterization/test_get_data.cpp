// GET /caracterizacao/{municipio}/get-data/{id_lote}: the lot's whole package, checked
// against the database, with media and inspections of our own inserted for it.
#include "fixture.hpp"

using namespace cadastre::test;

namespace {

struct Package {
  std::string lot, unit, other_lot;
  std::string media_lot, media_unit, visit_with_inspection, visit_of_unit;
};

// A lot with buildings and owned units, plus media and reservations of our own: two files
// (the lot's, one of its units') and two reservations (the lot's with an inspection, the
// unit's without), and a file and a reservation of another lot that must not appear.
const Package& package() {
  static const Package built = [] {
    Package p;
    p.lot = fixture().db(
        "select l.id::text from cadastro.lote l where exists (select 1 from cadastro.edificacao e "
        "where e.lote_id = "
        "l.id) and exists (select 1 from cadastro.imobiliario u join cadastro.imobiliario_pessoa "
        "ip on "
        "ip.imobiliario_id = u.id where u.lote_id = l.id) order by l.id limit 1");
    p.unit =
        fixture().db("select min(id)::text from cadastro.imobiliario where lote_id = " + p.lot);
    p.other_lot = fixture().db("select min(id)::text from cadastro.lote where id <> " + p.lot);
    auto file = [](const std::string& key, const std::string& column, const std::string& id) {
      return fixture().db(
          "insert into midia.arquivo (chave, nome, extensao, content_type, tamanho, sha256, "
          "descricao, " +
          column + ") values ('" + key +
          "', 'foto.jpg', '.jpg', 'image/jpeg', 1234, repeat('a', 64), 'fachada', " + id +
          ") returning id::text");
    };
    p.media_lot = file("carac-lote", "lote_id", p.lot);
    p.media_unit = file("carac-unidade", "imobiliario_id", p.unit);
    file("carac-outro", "lote_id", p.other_lot);
    auto visit = [](const std::string& column, const std::string& id, int day) {
      return fixture().db("insert into agendamento.reserva (inicio, fim, " + column +
                          ", solicitante_nome) values ('2025-03-0" + std::to_string(day) +
                          " 10:00-03', '2025-03-0" + std::to_string(day) + " 11:00-03', " + id +
                          ", 'Maria Vistoria') returning id::text");
    };
    p.visit_with_inspection = visit("lote_id", p.lot, 3);
    p.visit_of_unit = visit("imobiliario_id", p.unit, 4);
    visit("lote_id", p.other_lot, 5);
    fixture().db(
        "insert into atendimento.vistoria (agendamento_id, checklist, constatacoes, token_hash) "
        "values (" +
        p.visit_with_inspection +
        ", '[{\"item\": \"muro\", \"ok\": false}]', 'muro caído', repeat('f', 64)) returning "
        "agendamento_id");
    return p;
  }();
  return built;
}

}  // namespace

TEST_CASE_FIXTURE(
    Fixture, "get-data answers the lot with its buildings, units, people, media and inspections") {
  const Package& p = package();
  auto a = carac("get-data/" + p.lot);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto j = a->json();
  CHECK(std::string_view(j["lote"]["type"]) == "Feature");
  CHECK(std::to_string(int64_t(j["lote"]["id"])) == p.lot);
  CHECK(std::string_view(j["lote"]["properties"]["inscricao"]) == db("select inscricao from cadastro.lote where id = " + p.lot));
  CHECK(ids(j["edificacoes"]) == db("select string_agg(id::text, ',' order by id) from cadastro.edificacao where lote_id = " + p.lot));
  CHECK(ids(j["unidades"]) == db("select string_agg(id::text, ',' order by id) from cadastro.imobiliario where lote_id = " + p.lot));
  for (auto u : j["unidades"].get_array()) {
    const std::string unit = std::to_string(int64_t(u["id"]));
    CHECK(std::string_view(u["numero_cadastro"]) == db("select numero_cadastro from cadastro.imobiliario where id = " + unit));
    CHECK(ids(u["pessoas"]) == db("select coalesce(string_agg(pessoa_id::text, ',' order by pessoa_id, papel), '') from "
                                  "cadastro.imobiliario_pessoa where imobiliario_id = " + unit));
    for (auto person : u["pessoas"].get_array()) {
      CHECK(std::string_view(person["nome"]).size() > 0);
      CHECK(std::string_view(person["papel"]).size() > 0);
    }
  }
  CHECK(ids(j["midia"]) == p.media_lot + "," + p.media_unit);
  CHECK(std::string_view(j["midia"].at(1)["chave"]) == "carac-unidade");
  CHECK(std::to_string(int64_t(j["midia"].at(1)["imobiliario_id"])) == p.unit);
  CHECK(ids(j["vistorias"]) == p.visit_with_inspection + "," + p.visit_of_unit);
  auto inspected = j["vistorias"].at(0);
  CHECK(std::string_view(inspected["status"]) == "agendado");
  CHECK(std::string_view(inspected["vistoria"]["constatacoes"]) == "muro caído");
  CHECK(std::string_view(inspected["vistoria"]["checklist"].at(0)["item"]) == "muro");
  CHECK(std::string_view(inspected["vistoria"]["status"]) == "pendente");
  CHECK(j["vistorias"].at(1)["vistoria"].is_null());
  CHECK(j["sem_permissao"].get_array().size() == 0);
  // The inspection's access token hash never leaves the database.
  CHECK(a->body.find("token_hash") == std::string::npos);
  CHECK(a->body.find("ffffffffffffffff") == std::string::npos);
}

TEST_CASE_FIXTURE(Fixture,
                  "get-data leaves out the sections the caller may not read, and needs the lot") {
  const Package& p = package();
  auto lots = city().add_user("alfa", "carac-pacote-lote@alfa.gov.br", {"lote:r", "agendamento:r"});
  auto a = carac("get-data/" + p.lot, lots.token);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto j = a->json();
  simdjson::dom::element none;
  CHECK(j["unidades"].get(none) != simdjson::SUCCESS);
  CHECK(j["edificacoes"].get(none) != simdjson::SUCCESS);
  CHECK(j["midia"].get(none) != simdjson::SUCCESS);
  CHECK(ids(j["vistorias"]) == p.visit_with_inspection + "," + p.visit_of_unit);
  std::set<std::string> denied;
  for (auto d : j["sem_permissao"].get_array()) denied.insert(std::string(std::string_view(d)));
  CHECK(denied == std::set<std::string>{"edificacao", "imobiliario", "midia"});

  auto units_no_people = city().add_user("alfa", "carac-sem-pessoa@alfa.gov.br", {"lote:r", "imobiliario:r"});
  auto b = carac("get-data/" + p.lot, units_no_people.token);
  REQUIRE(b->status == 200);
  CHECK(b->json()["unidades"].at(0)["pessoas"].get(none) != simdjson::SUCCESS);

  auto no_lot = city().add_user("alfa", "carac-sem-lote@alfa.gov.br", {"imobiliario:r"});
  auto c = carac("get-data/" + p.lot, no_lot.token);
  CHECK(c->status == 403);
  CHECK(c->codigo() == "acesso_negado");
  CHECK(carac("get-data/" + p.lot, city().user("beta").token)->status == 403);
}

TEST_CASE_FIXTURE(
    Fixture, "get-data answers 404 for a missing lot and 400 for an id that is not an integer") {
  auto missing = carac("get-data/999999");
  CHECK(missing->status == 404);
  CHECK(missing->codigo() == "nao_encontrado");
  for (std::string bad : {"abc", "1%20or%201=1", "-1", "1.5", "99999999999"}) {
    auto a = carac("get-data/" + bad);
    CHECK_MESSAGE(a->status == 400, bad);
  }
}
