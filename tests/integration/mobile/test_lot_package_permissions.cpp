// GET /aplicativo/{municipio}/aplicativo/data/{id_lote} and the media permission: the app's
// lot package is the characterization one in another form, so it follows decision 0006
// too: a caller who may read lote but not midia gets no media and "midia" in
// sem_permissao; a caller who may read midia gets the files. (The app's package once
// returned the media to everyone who could read the lot.)
#include <map>
#include <set>

#include "support/server_fixture.hpp"

using namespace cadastre::test;

namespace {

// The binary's 200-lot demo city, as the other /aplicativo tests use it.
struct PackageFixture : ServerFixture {
  PackageFixture() : ServerFixture(demo_city(200)) {}

  /// A user of "alfa" with only the given permissions, created once per email.
  const TestUser& user_with(const std::string& email, std::vector<std::string> perms) const {
    static std::map<std::string, TestUser> users;
    auto it = users.find(email);
    if (it == users.end()) it = users.emplace(email, stack().add_user("alfa", email, std::move(perms))).first;
    return it->second;
  }
};

/// The "id" members of a JSON array of objects.
std::set<std::int64_t> ids_of(simdjson::dom::element list) {
  std::set<std::int64_t> out;
  for (auto e : list.get_array()) out.insert(int64_t(e["id"]));
  return out;
}

// A lot with a unit, and one file of the lot and one of the unit, created once.
struct LotWithMedia {
  std::string lot;
  std::set<std::int64_t> media;
};

const LotWithMedia& lot_with_media(const PackageFixture& f) {
  static const LotWithMedia built = [&f] {
    LotWithMedia p;
    p.lot = f.db("select l.id::text from cadastro.lote l where exists (select 1 from cadastro.imobiliario u where "
               "u.lote_id = l.id) order by l.id desc limit 1");
    const std::string unit = f.db("select min(id)::text from cadastro.imobiliario where lote_id = " + p.lot);
    auto file = [&f](const std::string& key, const std::string& column, const std::string& owner) {
      return f.db_int("insert into midia.arquivo (chave, nome, extensao, content_type, tamanho, sha256, descricao, " +
                    column + ") values ('" + key + "', 'foto', '.jpg', 'image/jpeg', 10, repeat('b', 64), 'fachada', " +
                    owner + ") returning id");
    };
    p.media.insert(file("perm-lote-" + p.lot + ".jpg", "lote_id", p.lot));
    p.media.insert(file("perm-unidade-" + p.lot + ".jpg", "imobiliario_id", unit));
    return p;
  }();
  return built;
}

std::set<std::string> denied(simdjson::dom::element j) {
  std::set<std::string> out;
  simdjson::dom::array list;
  if (j["sem_permissao"].get(list) != simdjson::SUCCESS) return {"<sem_permissao ausente>"};
  for (auto d : list) out.insert(std::string(std::string_view(d)));
  return out;
}

}  // namespace

TEST_CASE_FIXTURE(PackageFixture, "the app's lot package leaves the media out, naming midia in sem_permissao, for a caller who may not read midia") {
  const LotWithMedia& p = lot_with_media(*this);
  const auto& no_media = user_with("sem-midia-app@alfa.gov.br", {"lote:r", "edificacao:r", "imobiliario:r", "pessoa:r"});
  auto a = get("/aplicativo/alfa/aplicativo/data/" + p.lot, no_media.token);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto j = a->json();
  CHECK(std::to_string(int64_t(j["lote"]["id"])) == p.lot);
  simdjson::dom::element none;
  CHECK_MESSAGE(j["midia"].get(none) != simdjson::SUCCESS, a->body);
  CHECK(a->body.find("perm-lote-") == std::string::npos);
  CHECK(a->body.find("/midia/get?file_url=") == std::string::npos);
  CHECK(denied(j) == std::set<std::string>{"midia"});
  // The readable sections still come.
  CHECK(j["unidades"].get_array().size() > 0);
  CHECK(j["edificacoes"].get(none) == simdjson::SUCCESS);
  CHECK(!std::string_view(j["gerado_em"]).empty());
}

TEST_CASE_FIXTURE(PackageFixture, "the app's lot package holds the media, with their links, for a caller who may read midia") {
  const LotWithMedia& p = lot_with_media(*this);
  const auto& with_media = user_with("com-midia-app@alfa.gov.br", {"lote:r", "midia:r"});
  auto a = get("/aplicativo/alfa/aplicativo/data/" + p.lot, with_media.token);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto j = a->json();
  CHECK(ids_of(j["midia"]) == p.media);
  for (auto m : j["midia"].get_array())
    CHECK(std::string_view(m["link"]) == "/midia/get?file_url=" + std::string(std::string_view(m["chave"])));
  // Without the cadastro layers, their sections are named instead.
  CHECK(denied(j) == std::set<std::string>{"edificacao", "imobiliario"});

  // The user with every permission sees the media and is denied nothing.
  auto full = get("/aplicativo/alfa/aplicativo/data/" + p.lot);
  REQUIRE_MESSAGE(full->status == 200, full->body);
  CHECK(ids_of(full->json()["midia"]) == p.media);
  CHECK(denied(full->json()).empty());
}

TEST_CASE_FIXTURE(PackageFixture, "the app's and the characterization's lot packages agree on the sections a caller may not read") {
  const LotWithMedia& p = lot_with_media(*this);
  const auto& lots_only = user_with("so-lote-pacotes@alfa.gov.br", {"lote:r"});
  auto app = get("/aplicativo/alfa/aplicativo/data/" + p.lot, lots_only.token);
  auto form = get("/caracterizacao/alfa/get-data/" + p.lot, lots_only.token);
  REQUIRE_MESSAGE(app->status == 200, app->body);
  REQUIRE_MESSAGE(form->status == 200, form->body);
  CHECK(denied(app->json()) == std::set<std::string>{"edificacao", "imobiliario", "midia"});
  // The form also has the inspections (agendamento), which the app's package does not carry.
  CHECK(denied(form->json()) == std::set<std::string>{"edificacao", "imobiliario", "midia", "agendamento"});
}
