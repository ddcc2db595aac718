// GET /consulta-geral (and its inscrição and street variants): one search box over the text
// values of a project's layers the caller may read, accent- and case-insensitive, ranked
// exact > prefix > contains. GET /basemap: the tenant's configured base maps.
#include "http/http.hpp"
#include "world.hpp"

using namespace cadastre;
using test::PlatformFixture;
using test::refused;
using test::World;

namespace {

std::string search(const World& w, const std::string& path, const std::string& q, const std::string& extra = "") {
  return path + "?idProjeto=" + World::n(w.project) + "&q=" + http::percent_encode(q) + extra;
}

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture, "GET /consulta-geral ranks exact, prefix and contains matches, ignoring accents") {
  World w(*this);
  auto a = w.lot(1), b = w.lot(2), c = w.lot(3), d = w.lot(4);
  w.text(a, "logradouro", "Rua São José");
  w.text(b, "bairro", "São José dos Campos");
  w.text(c, "bairro", "Sao Jose");
  w.text(d, "bairro", "Avenida Brasil");

  for (std::string q : {"SÃO JOSÉ", "sao jose"}) {
    auto r = get(search(w, "/consulta-geral", q), w.owner);
    REQUIRE_MESSAGE(r->status == 200, r->body);
    CHECK(test::strings_of(*r, "valor") == std::vector<std::string>{"Sao Jose", "São José dos Campos", "Rua São José"});
    CHECK(test::strings_of(*r, "achado") == std::vector<std::string>{"exato", "prefixo", "contem"});
    CHECK(int64_t(r->json().at(0)["idGeometria"]) == c);
    CHECK(int64_t(r->json().at(0)["idCamada"]) == w.layer);
    CHECK(std::string_view(r->json().at(0)["chave"]) == "bairro");
  }
  // Restricted to fields or layers.
  auto only = get(search(w, "/consulta-geral", "sao jose", "&idCampos=" + World::n(w.field["logradouro"])), w.owner);
  CHECK(test::strings_of(*only, "valor") == std::vector<std::string>{"Rua São José"});
  auto other = get(search(w, "/consulta-geral", "sao jose", "&projetosCamadas=" + World::n(w.other_layer)), w.owner);
  CHECK(other->body == "[]");
  auto none = get(search(w, "/consulta-geral", "inexistente"), w.owner);
  CHECK(none->body == "[]");
}

TEST_CASE_FIXTURE(PlatformFixture, "GET /consulta-geral answers only from the layers the caller may read") {
  World w(*this);
  auto a = w.lot(1), s = w.lot(2, w.hidden);
  w.text(a, "bairro", "Cambuí");
  w.value(s, "nota", "'Cambuí sigiloso'");
  auto owner = get(search(w, "/consulta-geral", "cambui"), w.owner);
  CHECK(test::strings_of(*owner, "valor") == std::vector<std::string>{"Cambuí", "Cambuí sigiloso"});
  auto reader = get(search(w, "/consulta-geral", "cambui"), w.reader);
  CHECK(test::strings_of(*reader, "valor") == std::vector<std::string>{"Cambuí"});

  refused(*get(search(w, "/consulta-geral", "cambui"), w.stranger), 404, "nao_encontrado");
  refused(*get(search(w, "/consulta-geral", "cambui"), w.other_tenant), 404, "nao_encontrado");
  CHECK(request("GET", search(w, "/consulta-geral", "cambui"), {})->status == 401);
}

TEST_CASE_FIXTURE(PlatformFixture, "GET /consulta-geral refuses a short term, a malformed id list and SQL in ids") {
  World w(*this);
  refused(*get(search(w, "/consulta-geral", "a"), w.owner), 400, "parametro_invalido", "q");
  refused(*get(search(w, "/consulta-geral", std::string(201, 'x')), w.owner), 400, "parametro_invalido", "q");
  refused(*get(search(w, "/consulta-geral", "abc", "&idCampos=1;drop"), w.owner), 400, "parametro_invalido", "idCampos");
  refused(*get(search(w, "/consulta-geral", "abc", "&projetosCamadas=x"), w.owner), 400, "parametro_invalido",
          "projetosCamadas");
  CHECK(get("/consulta-geral?idProjeto=1;drop&q=abc", w.owner)->status == 400);
  CHECK(get("/consulta-geral?idProjeto=" + World::n(w.project), w.owner)->status == 400);
  // A term with LIKE's wildcards matches them literally.
  w.text(w.lot(1), "bairro", "Centro");
  CHECK(get(search(w, "/consulta-geral", "%%"), w.owner)->body == "[]");
  CHECK(get(search(w, "/consulta-geral", "'; drop table projeto.geometrias cascade; --"), w.owner)->body == "[]");
  CHECK(w.value_count() == "1");
}

TEST_CASE_FIXTURE(PlatformFixture, "GET /consulta-geral/icad and /logradouros look only in their kind of field") {
  World w(*this);
  auto a = w.lot(1), b = w.lot(2);
  w.text(a, "inscricao", "0123.45.678");
  w.text(a, "logradouro", "Rua 0123 de Maio");
  w.text(b, "bairro", "Jardim 0123");
  auto icad = get(search(w, "/consulta-geral/icad", "0123"), w.owner);
  REQUIRE_MESSAGE(icad->status == 200, icad->body);
  CHECK(test::strings_of(*icad, "chave") == std::vector<std::string>{"inscricao"});
  auto ruas = get(search(w, "/consulta-geral/logradouros", "0123"), w.owner);
  CHECK(test::strings_of(*ruas, "chave") == std::vector<std::string>{"logradouro"});
  auto all = get(search(w, "/consulta-geral", "0123"), w.owner);
  CHECK(test::strings_of(*all, "valor").size() == 3);
  refused(*get(search(w, "/consulta-geral/icad", "0123"), w.stranger), 404, "nao_encontrado");
  refused(*get(search(w, "/consulta-geral/logradouros", "0123"), w.other_tenant), 404, "nao_encontrado");
  CHECK(request("GET", search(w, "/consulta-geral/icad", "0123"), {})->status == 401);
  refused(*get(search(w, "/consulta-geral/logradouros", "x"), w.owner), 400, "parametro_invalido", "q");
  // The variants take no field or layer list.
  CHECK(get(search(w, "/consulta-geral/icad", "0123", "&idCampos=1"), w.owner)->status == 400);
}

TEST_CASE_FIXTURE(PlatformFixture, "GET /basemap lists the tenant's base maps, OpenStreetMap and satellite seeded") {
  World w(*this);
  auto a = get("/basemap", w.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(test::strings_of(*a, "nome") == std::vector<std::string>{"OpenStreetMap", "Satélite (Esri World Imagery)"});
  w.db("insert into geografia.mapas_base (nome, tipo, url, ordem) values ('Ortofoto 2024', 'wms', "
       "'https://geo.alfa.gov.br/wms', 3) returning id");
  auto b = get("/basemap", w.reader);
  CHECK(test::strings_of(*b, "nome").back() == "Ortofoto 2024");
  CHECK(bool(b->json().at(0)["padrao"]));
  // Each tenant its own: beta still has the two seeded.
  CHECK(test::strings_of(*get("/basemap", w.other_tenant), "nome").size() == 2);
  CHECK(request("GET", "/basemap", {})->status == 401);
}
