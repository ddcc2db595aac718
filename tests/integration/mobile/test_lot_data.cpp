// GET /aplicativo/{municipio}/aplicativo/data/{id_lote}: the lot package (lot, buildings,
// units with their people, media) compared with the database, the sections a partial
// permission leaves out, and the 4xx of bad ids, missing lots and foreign tokens.
#include "fixture.hpp"

using namespace cadastre::test;

namespace {

// A lot with buildings and units that have people linked.
std::int64_t rich_lot() {
  static const std::int64_t id = fixture().db_int(
      "select l.id from cadastro.lote l where exists (select 1 from cadastro.edificacao e where "
      "e.lote_id = l.id) and "
      "(select count(*) from cadastro.imobiliario i join cadastro.imobiliario_pessoa ip on "
      "ip.imobiliario_id = i.id where "
      "i.lote_id = l.id) >= 1 order by l.id limit 1");
  return id;
}

std::string media_row(const std::string& chave, const std::string& owner_column, std::int64_t owner) {
  return "insert into midia.arquivo (chave, nome, extensao, content_type, tamanho, sha256, descricao, " + owner_column +
         ") values ('" + chave + "', 'foto', '.jpg', 'image/jpeg', 10, repeat('a', 64), 'fachada', " +
         std::to_string(owner) + ") returning id";
}

}  // namespace

TEST_CASE_FIXTURE(Fixture,
                  "the lot package holds the lot, its buildings, its units with their people and "
                  "its media, as in the database") {
  const std::int64_t lot = rich_lot();
  const std::string l = std::to_string(lot);
  const std::int64_t unit = db_int("select min(id) from cadastro.imobiliario where lote_id = " + l);
  const std::int64_t lot_media = db_int(media_row("mobile-lote-" + l + ".jpg", "lote_id", lot));
  const std::int64_t unit_media = db_int(media_row("mobile-unidade-" + l + ".jpg", "imobiliario_id", unit));
  // Media of another lot stays out.
  db(media_row("mobile-outro.jpg", "lote_id", lot + 1));

  auto a = get("/aplicativo/alfa/aplicativo/data/" + l);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto j = a->json();
  CHECK(std::string_view(j["lote"]["type"]) == "Feature");
  CHECK(int64_t(j["lote"]["id"]) == lot);
  CHECK(std::string_view(j["lote"]["geometry"]["type"]) == "MultiPolygon");
  CHECK(std::string_view(j["lote"]["properties"]["inscricao"]) ==
        db("select inscricao from cadastro.lote where id = " + l));
  CHECK(!std::string_view(j["gerado_em"]).empty());

  CHECK(ids_of(j["edificacoes"]) ==
        id_set(db("select string_agg(id::text, ',') from cadastro.edificacao where lote_id = " + l)));
  for (auto e : j["edificacoes"].get_array()) {
    CHECK(std::string_view(e["type"]) == "Feature");
    CHECK(std::string_view(e["geometry"]["type"]) == "MultiPolygon");
  }

  CHECK(ids_of(j["unidades"]) ==
        id_set(db("select string_agg(id::text, ',') from cadastro.imobiliario where lote_id = " + l)));
  for (auto u : j["unidades"].get_array()) {
    const std::string uid = std::to_string(int64_t(u["id"]));
    CHECK(std::string_view(u["type"]) == "Feature");
    CHECK(std::string_view(u["properties"]["inscricao_cartografica"]) ==
          db("select inscricao_cartografica from cadastro.imobiliario where id = " + uid));
    CHECK(ids_of(u["pessoas"]) ==
          id_set(db("select string_agg(pessoa_id::text, ',') from cadastro.imobiliario_pessoa where imobiliario_id = " + uid)));
    for (auto p : u["pessoas"].get_array()) {
      CHECK(std::string_view(p["cpf_cnpj"]) == db("select cpf_cnpj from cadastro.pessoa where id = " + std::to_string(int64_t(p["id"]))));
      CHECK(!std::string_view(p["papel"]).empty());
    }
  }

  CHECK(ids_of(j["midia"]) == std::set<std::int64_t>{lot_media, unit_media});
  for (auto m : j["midia"].get_array()) {
    CHECK(std::string_view(m["link"]) == "/midia/get?file_url=" + std::string(std::string_view(m["chave"])));
    CHECK(std::string_view(m["content_type"]) == "image/jpeg");
  }
  db("delete from midia.arquivo where chave like 'mobile-%' returning 1");
}

TEST_CASE_FIXTURE(Fixture,
                  "the lot package leaves out the sections of layers the caller may not read, and "
                  "needs read on lote") {
  const std::string l = std::to_string(rich_lot());
  const auto& lots_only = limited_user("so-lote-app@alfa.gov.br", {"lote:r"});
  auto a = get("/aplicativo/alfa/aplicativo/data/" + l, lots_only.token);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  simdjson::dom::element none;
  auto j = a->json();
  CHECK(j["edificacoes"].get(none) != simdjson::SUCCESS);
  CHECK(j["unidades"].get(none) != simdjson::SUCCESS);
  CHECK(int64_t(j["lote"]["id"]) == rich_lot());

  // Units without the people layer: units come, people do not.
  const auto& no_people = limited_user("sem-pessoa-app@alfa.gov.br", {"lote:r", "imobiliario:r"});
  auto b = get("/aplicativo/alfa/aplicativo/data/" + l, no_people.token);
  REQUIRE_MESSAGE(b->status == 200, b->body);
  auto unidades = b->json()["unidades"].get_array();
  REQUIRE(unidades.size() > 0);
  CHECK(unidades.at(0)["pessoas"].get(none) != simdjson::SUCCESS);

  const auto& buildings_only = limited_user("so-edificacao-app@alfa.gov.br", {"edificacao:r"});
  auto denied = get("/aplicativo/alfa/aplicativo/data/" + l, buildings_only.token);
  CHECK(denied->status == 403);
  CHECK(denied->codigo() == "acesso_negado");
}

TEST_CASE_FIXTURE(Fixture,
                  "the lot package answers 400 for a non-integer id, 404 for a missing lot, 403 "
                  "for another tenant and 401 without token") {
  for (const char* bad : {"abc", "1%20or%201=1", "-3", "1.5", "99999999999999999999"}) {
    auto a = get(std::string("/aplicativo/alfa/aplicativo/data/") + bad);
    CHECK_MESSAGE(a->status == 400, bad);
    CHECK(a->codigo() == "parametro_invalido");
  }
  auto missing = get("/aplicativo/alfa/aplicativo/data/999999");
  CHECK(missing->status == 404);
  CHECK(missing->codigo() == "nao_encontrado");
  CHECK(missing->mensagem().find("999999") != std::string::npos);

  auto foreign = get("/aplicativo/alfa/aplicativo/data/1", city().user("beta").token);
  CHECK(foreign->status == 403);
  CHECK(foreign->codigo() == "municipio_nao_permitido");
  CHECK(city().client().Get("/aplicativo/alfa/aplicativo/data/1")->status == 401);
}
