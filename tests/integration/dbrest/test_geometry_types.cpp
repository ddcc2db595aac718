// POST /dbrest/tipos/valores/geometrias/: per geometry id, the forms and typed fields that
// hold values for it, checked against the tenant database.
#include "fixture.hpp"

using namespace cadastre::test;

namespace {
// A geometry id with values in both demo forms (a lot and a building share the number).
std::string shared_id() {
  return fixture().db(
      "select min(geometria_id) from (select geometria_id from formulario.valor group by "
      "geometria_id "
      "having count(distinct formulario_id) = 2) t");
}

std::string forms_of(simdjson::dom::element geometry) {
  std::string out;
  for (auto f : geometry["formularios"].get_array())
    out += std::string(std::string_view(f["camada"])) + "." + std::string(std::string_view(f["formulario"])) + ";";
  return out;
}
}  // namespace

TEST_CASE_FIXTURE(Fixture,
                  "each geometry id gets the forms with values for it and their typed fields, in "
                  "the order sent") {
  const std::string both = shared_id();
  REQUIRE(!both.empty());
  const std::string lot_only = db("select min(geometria_id) from formulario.valor v join formulario.formulario f on "
                                  "f.id = v.formulario_id where f.nome = 'vistoria_campo' and geometria_id % 2 = 1 "
                                  "and geometria_id not in (select geometria_id from formulario.valor v2 join "
                                  "formulario.formulario f2 on f2.id = v2.formulario_id where f2.nome = 'fachada')");
  REQUIRE(!lot_only.empty());
  auto a =
      post_geometries(R"({"geometrias": [999999, )" + both + ", " + lot_only + ", " + both + "]}");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  simdjson::dom::array list = a->json()["geometrias"];
  REQUIRE(list.size() == 3);  // repeated ids answered once
  CHECK(ids(a->json()["geometrias"], "geometria_id") == "999999," + both + "," + lot_only);
  CHECK(list.at(0)["formularios"].get_array().size() == 0);
  CHECK(forms_of(list.at(1)) == "edificacao.fachada;lote.vistoria_campo;");
  CHECK(forms_of(list.at(2)) == "lote.vistoria_campo;");

  // The fields are the ones with values for that geometry, with type and value as stored.
  auto lot = list.at(2)["formularios"].at(0);
  CHECK(std::string_view(lot["titulo"]) == "Vistoria de campo do lote");
  std::string fields;
  for (auto c : lot["campos"].get_array()) {
    std::string nome{std::string_view(c["nome"])};
    fields += nome + ":" + std::string(std::string_view(c["tipo"])) + ";";
    CHECK(simdjson::minify(c["valor"]) ==
          db("select valor::text from formulario.valor v join formulario.campo c on c.id = v.campo_id where c.nome = '" +
             nome + "' and v.geometria_id = " + lot_only));
    CHECK(std::string_view(c["atualizado_por"]) == "demo");
  }
  CHECK(fields == db("select string_agg(c.nome || ':' || c.tipo || ';', '' order by c.ordem) from formulario.valor v "
                     "join formulario.campo c on c.id = v.campo_id where v.geometria_id = " + lot_only +
                     " and v.formulario_id = (select id from formulario.formulario where nome = 'vistoria_campo')"));
  CHECK(lot["campos"].at(0)["valores_permitidos"].get_array().size() == 4);
}

TEST_CASE_FIXTURE(Fixture, "'camada' restricts the answer to the forms of one layer") {
  const std::string both = shared_id();
  auto a = post_geometries(R"({"geometrias": [)" + both + R"(], "camada": "edificacao"})");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(forms_of(a->json()["geometrias"].at(0)) == "edificacao.fachada;");
  auto none = post_geometries(R"({"geometrias": [)" + both + R"(], "camada": "bairro"})");
  REQUIRE(none->status == 200);
  CHECK(none->json()["geometrias"].at(0)["formularios"].get_array().size() == 0);
  auto hostile = post_geometries(R"({"geometrias": [1], "camada": "lote;drop table x"})");
  CHECK(hostile->status == 400);
  CHECK(hostile->codigo() == "identificador_invalido");
  CHECK(post_geometries(R"({"geometrias": [1], "camada": "nao_existe"})")->codigo() ==
        "camada_nao_encontrada");
}

TEST_CASE_FIXTURE(Fixture, "a body that is not a list of 1 to 1000 positive integer ids is a 400") {
  std::string many = R"({"geometrias": [1)";
  for (int i = 2; i <= 1001; ++i) many += "," + std::to_string(i);
  many += "]}";
  const std::vector<std::string> bad = {
      R"({"geometrias": ["1"]})",   R"({"geometrias": [1.5]})", R"({"geometrias": [0]})",
      R"({"geometrias": [-4]})",    R"({"geometrias": [null]})", R"({"geometrias": []})",
      R"({"geometrias": 1})",       R"({})",                     R"({"ids": [1]})",
      R"({"geometrias": [1], "x": 1})", R"([1, 2])",             R"({"geometrias": [1)",
      R"({"geometrias": [1], "camada": 5})", R"({"geometrias": [18446744073709551615]})", many};
  for (const auto& body : bad) {
    auto a = post_geometries(body);
    CHECK_MESSAGE(a->status == 400, body.substr(0, 60) << " → " << a->body);
  }
  CHECK(post_geometries(R"({"ids": [1]})")->codigo() == "campo_desconhecido");
  CHECK(post_geometries(R"({"geometrias": [1, "x"]})")->codigo() == "parametro_invalido");
  // Exactly 1000 ids is fine.
  std::string thousand = R"({"geometrias": [1)";
  for (int i = 2; i <= 1000; ++i) thousand += "," + std::to_string(i);
  auto ok = post_geometries(thousand + "]}");
  REQUIRE(ok->status == 200);
  CHECK(ok->json()["geometrias"].get_array().size() == 1000);
}

TEST_CASE_FIXTURE(
    Fixture,
    "forms of layers the caller may not read are left out, or refused when asked for by name") {
  auto buildings = city().add_user("alfa", "tipos-edificacao@alfa.gov.br", {"edificacao:r"});
  const std::string both = shared_id();
  auto a = post_geometries(R"({"geometrias": [)" + both + "]}", buildings.token);
  REQUIRE(a->status == 200);
  CHECK(forms_of(a->json()["geometrias"].at(0)) == "edificacao.fachada;");
  auto denied =
      post_geometries(R"({"geometrias": [)" + both + R"(], "camada": "lote"})", buildings.token);
  CHECK(denied->status == 403);
  CHECK(denied->codigo() == "acesso_negado");
}
