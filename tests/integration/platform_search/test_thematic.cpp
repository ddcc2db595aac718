// POST /mapa-tematico: classes of a numeric field over a layer (equal intervals, quantiles,
// Jenks) with counts and colours of the palette. POST /pesquisa-caracteristicas: the
// layer's geometries whose values meet conditions, in one statement with bound values.
#include "cadastre/palette.hpp"
#include "world.hpp"

using namespace cadastre;
using test::PlatformFixture;
using test::refused;
using test::World;

namespace {

std::string order(const World& w, const std::string& metodo, int classes, const std::string& chave = "area") {
  return R"({"idCamada":)" + World::n(w.layer) + R"(,"idCampo":)" + World::n(w.field.at(chave)) + R"(,"metodo":")" +
         metodo + R"(","classes":)" + std::to_string(classes) + "}";
}

std::vector<double> numbers_of(simdjson::dom::element list) {
  std::vector<double> out;
  for (auto x : list.get_array()) out.push_back(double(x));
  return out;
}

std::vector<std::int64_t> counts_of(test::Answer& a) {
  std::vector<std::int64_t> out;
  for (auto c : a.json()["classes"].get_array()) out.push_back(int64_t(c["quantidade"]));
  return out;
}

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture, "POST /mapa-tematico classifies a numeric field by Jenks, quantiles and equal intervals") {
  World w(*this);
  int i = 0;
  for (double v : {1, 2, 3, 10, 11, 12, 20, 21, 22}) w.number(w.lot(++i), "area", v);
  w.lot(++i);  // a lot without area

  auto j = post("/mapa-tematico", order(w, "jenks", 3), w.reader);
  REQUIRE_MESSAGE(j->status == 200, j->body);
  CHECK(numbers_of(j->json()["quebras"]) == std::vector<double>{1, 3, 12, 22});
  CHECK(counts_of(*j) == std::vector<std::int64_t>{3, 3, 3});
  CHECK(int64_t(j->json()["total"]) == 9);
  CHECK(int64_t(j->json()["semValor"]["quantidade"]) == 1);
  CHECK(std::string_view(j->json()["semValor"]["cor"]) == palette::kNoValue);
  CHECK(std::string_view(j->json()["classes"].at(0)["cor"]) ==
        palette::hex(palette::ordered("viridis", 0, 3)));
  CHECK(std::string_view(j->json()["classes"].at(2)["cor"]) ==
        palette::hex(palette::ordered("viridis", 2, 3)));

  auto q = post("/mapa-tematico", order(w, "quantis", 2), w.owner);
  CHECK(numbers_of(q->json()["quebras"]) == std::vector<double>{1, 11, 22});
  CHECK(counts_of(*q) == std::vector<std::int64_t>{5, 4});

  auto e = post("/mapa-tematico",
                R"({"idCamada":)" + World::n(w.layer) + R"(,"idCampo":)" + World::n(w.field["area"]) +
                    R"(,"metodo":"intervalos_iguais","classes":3,"paleta":"calor"})",
                w.owner);
  CHECK(numbers_of(e->json()["quebras"]) == std::vector<double>{1, 8, 15, 22});
  CHECK(counts_of(*e) == std::vector<std::int64_t>{3, 3, 3});
  CHECK(std::string_view(e->json()["classes"].at(0)["cor"]) ==
        palette::hex(palette::ordered("calor", 0, 3)));
}

TEST_CASE_FIXTURE(PlatformFixture, "POST /mapa-tematico refuses bad orders, other layers' fields and strangers") {
  World w(*this);
  w.number(w.lot(1), "area", 5);
  refused(*post("/mapa-tematico", order(w, "natural", 3), w.owner), 400, "parametro_invalido", "metodo");
  refused(*post("/mapa-tematico", order(w, "jenks", 1), w.owner), 400, "parametro_invalido", "classes");
  refused(*post("/mapa-tematico", order(w, "jenks", 13), w.owner), 400, "parametro_invalido", "classes");
  refused(*post("/mapa-tematico", order(w, "jenks", 3, "bairro"), w.owner), 400, "parametro_invalido", "idCampo");
  refused(*post("/mapa-tematico", order(w, "jenks", 3, "nome_quadra"), w.owner), 400, "parametro_invalido", "idCampo");
  refused(*post("/mapa-tematico",
                R"({"idCamada":)" + World::n(w.layer) + R"(,"idCampo":)" + World::n(w.field["area"]) +
                    R"(,"metodo":"jenks","paleta":"arco-iris"})",
                w.owner),
          400, "parametro_invalido", "paleta");
  refused(*post("/mapa-tematico", R"({"idCamada":"1","idCampo":1,"metodo":"jenks"})", w.owner), 400,
          "parametro_invalido", "idCamada");
  refused(*post("/mapa-tematico", R"({"idCampo":1,"metodo":"jenks"})", w.owner), 400, "campo_obrigatorio", "idCamada");
  refused(*post("/mapa-tematico", order(w, "jenks", 3), w.stranger), 404, "nao_encontrado");
  refused(*post("/mapa-tematico", order(w, "jenks", 3), w.other_tenant), 404, "nao_encontrado");
  CHECK(request("POST", "/mapa-tematico", {}, order(w, "jenks", 3))->status == 401);
  CHECK(post("/mapa-tematico", "{" + std::string(5000, ' ') + "}", w.owner)->status == 413);
}

namespace {

std::string query(const World& w, const std::string& conditions, bool todas = true) {
  return R"({"idCamada":)" + World::n(w.layer) + R"(,"todas":)" + (todas ? "true" : "false") + R"(,"condicoes":[)" +
         conditions + "]}";
}
std::string cond(const World& w, const std::string& chave, const std::string& op, const std::string& valor = "") {
  return R"({"idCampo":)" + World::n(w.field.at(chave)) + R"(,"operador":")" + op + "\"" +
         (valor.empty() ? "" : R"(,"valor":)" + valor) + "}";
}
std::vector<std::int64_t> ids_of(test::Answer& a) {
  std::vector<std::int64_t> out;
  for (auto item : a.json()["content"].get_array()) out.push_back(int64_t(item["idGeometria"]));
  return out;
}

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture, "POST /pesquisa-caracteristicas finds the geometries whose values meet the conditions") {
  World w(*this);
  auto a = w.lot(1), b = w.lot(2), c = w.lot(3), d = w.lot(4);
  w.number(a, "area", 100), w.number(b, "area", 250), w.number(c, "area", 400);
  w.text(a, "uso", "comercial"), w.text(b, "uso", "residencial"), w.text(c, "uso", "comercial");
  w.text(a, "bairro", "Cambuí"), w.text(b, "bairro", "Taquaral");
  w.value(a, "murado", "true");
  w.value(b, "vistoria", "'2024-05-10'");
  w.value(c, "servicos", R"('["agua", "luz"]')");

  auto p = post("/pesquisa-caracteristicas", query(w, cond(w, "area", ">", "150") + "," + cond(w, "uso", "=", R"("comercial")")),
                w.reader);
  REQUIRE_MESSAGE(p->status == 200, p->body);
  CHECK(ids_of(*p) == std::vector<std::int64_t>{c});
  CHECK(int64_t(p->json()["totalElements"]) == 1);
  CHECK(std::string_view(p->json()["content"].at(0)["geometria"]["type"]) == "Polygon");
  CHECK(double(p->json()["content"].at(0)["valores"]["area"]) == 400);

  auto any = post("/pesquisa-caracteristicas",
                  query(w, cond(w, "area", "<=", "100") + "," + cond(w, "uso", "=", R"("RESIDENCIAL")"), false), w.owner);
  CHECK(ids_of(*any) == std::vector<std::int64_t>{a, b});
  auto between = post("/pesquisa-caracteristicas", query(w, cond(w, "area", "entre", "[200, 400]")), w.owner);
  CHECK(ids_of(*between) == std::vector<std::int64_t>{b, c});
  auto contains = post("/pesquisa-caracteristicas", query(w, cond(w, "bairro", "contem", R"("cambui")")), w.owner);
  CHECK(ids_of(*contains) == std::vector<std::int64_t>{a});
  auto empty = post("/pesquisa-caracteristicas", query(w, cond(w, "area", "vazio")), w.owner);
  CHECK(ids_of(*empty) == std::vector<std::int64_t>{d});
  auto walled = post("/pesquisa-caracteristicas", query(w, cond(w, "murado", "=", "true")), w.owner);
  CHECK(ids_of(*walled) == std::vector<std::int64_t>{a});
  auto seen = post("/pesquisa-caracteristicas", query(w, cond(w, "vistoria", ">=", R"("2024-01-01")")), w.owner);
  CHECK(ids_of(*seen) == std::vector<std::int64_t>{b});
  auto light = post("/pesquisa-caracteristicas", query(w, cond(w, "servicos", "contem", R"("luz")")), w.owner);
  CHECK(ids_of(*light) == std::vector<std::int64_t>{c});
  auto other = post("/pesquisa-caracteristicas", query(w, cond(w, "uso", "<>", R"("comercial")")), w.owner);
  CHECK(ids_of(*other) == std::vector<std::int64_t>{b});

  // Paged.
  auto page = post("/pesquisa-caracteristicas?pageSize=1&pageNumber=2", query(w, cond(w, "area", ">", "0")), w.owner);
  REQUIRE_MESSAGE(page->status == 200, page->body);
  CHECK(ids_of(*page) == std::vector<std::int64_t>{b});
  CHECK(int64_t(page->json()["totalElements"]) == 3);
  CHECK(int64_t(page->json()["totalPages"]) == 3);
  // Values are bound: SQL in a value is a value.
  auto hostile = post("/pesquisa-caracteristicas",
                      query(w, cond(w, "bairro", "=", R"("x'); drop table projeto.geometrias cascade; --")")), w.owner);
  CHECK(ids_of(*hostile).empty());
  CHECK(w.value_count() == "11");
}

TEST_CASE_FIXTURE(PlatformFixture, "POST /pesquisa-caracteristicas refuses bad conditions and strangers") {
  World w(*this);
  w.number(w.lot(1), "area", 10);
  auto bad = [&](const std::string& body, const std::string& codigo, const std::string& words) {
    refused(*post("/pesquisa-caracteristicas", body, w.owner), 400, codigo, words);
  };
  bad(query(w, cond(w, "area", "like", "1")), "parametro_invalido", "operador");
  bad(query(w, cond(w, "area", ">", R"("dez")")), "parametro_invalido", "número");
  bad(query(w, cond(w, "area", "entre", "[1]")), "parametro_invalido", "valor");
  bad(query(w, cond(w, "area", "vazio", "1")), "parametro_invalido", "valor");
  bad(query(w, cond(w, "area", ">")), "campo_obrigatorio", "valor");
  bad(query(w, cond(w, "area", "contem", "1")), "parametro_invalido", "contem");
  bad(query(w, cond(w, "murado", ">", "true")), "parametro_invalido", "booleanos");
  bad(query(w, cond(w, "vistoria", "=", R"("10/05/2024")")), "parametro_invalido", "data");
  bad(query(w, cond(w, "nome_quadra", "=", R"("A")")), "parametro_invalido", "idCampo");
  bad(query(w, ""), "campo_obrigatorio", "condicoes");
  bad(R"({"idCamada":1,"condicoes":[],"extra":1})", "campo_desconhecido", "extra");  // as every body
  std::string many;
  for (int i = 0; i < 21; ++i) many += (i ? "," : "") + cond(w, "area", ">", "1");
  bad(query(w, many), "parametro_invalido", "condicoes");
  refused(*post("/pesquisa-caracteristicas", query(w, cond(w, "area", ">", "1")), w.stranger), 404, "nao_encontrado");
  refused(*post("/pesquisa-caracteristicas", query(w, cond(w, "area", ">", "1")), w.other_tenant), 404,
          "nao_encontrado");
  CHECK(request("POST", "/pesquisa-caracteristicas", {}, query(w, cond(w, "area", ">", "1")))->status == 401);
  CHECK(post("/pesquisa-caracteristicas?pageSize=0", query(w, cond(w, "area", ">", "1")), w.owner)->status == 400);
  CHECK(post("/pesquisa-caracteristicas", "{" + std::string(70000, ' ') + "}", w.owner)->status == 413);
}
