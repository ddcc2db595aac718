// Split, reshape and union with hand-checked areas (lots built in UTM 23S, EPSG:31983), and
// the delete of many: each one transaction, audited, refused whole on a stale version.
#include "parcels.hpp"

using namespace cadastre;
using test::Parcels;
using test::PlatformFixture;
using test::refused;

namespace {
const std::string kCut = R"j("srid":31983,"linha":"LINESTRING(609990 7795010,610030 7795010)")j";
}

TEST_CASE_FIXTURE(PlatformFixture, "a 20 x 30 m lot splits into 20 x 20 and 20 x 10 m parts and unites back") {
  Parcels w(*this);
  test::Heard heard(*this, w.owner);
  std::int64_t g = w.rect(610000, 7795000, 20, 30);
  w.value(g, w.field["inscricao"], "'0042'");
  CHECK(w.area(g) == doctest::Approx(600).epsilon(0.005));
  std::size_t heard_before = heard.size();

  refused(*post("/geometrias/split/" + Parcels::n(g), R"({"versao":2,)" + kCut + "}", w.editor), 409, "conflito");
  refused(*post("/geometrias/split/" + Parcels::n(g),
                R"j({"versao":1,"srid":31983,"linha":"LINESTRING(609990 7795100,610030 7795100)"})j", w.editor),
          400, "parametro_invalido", "não divide");
  refused(*post("/geometrias/split/" + Parcels::n(g), R"j({"versao":1,"linha":"POINT(1 1)"})j", w.editor), 400,
          "parametro_invalido", "LINESTRING");
  refused(*post("/geometrias/split/" + Parcels::n(g) + "?reshape=talvez", R"({"versao":1,)" + kCut + "}", w.editor),
          400, "parametro_invalido", "reshape");

  auto a = post("/geometrias/split/" + Parcels::n(g), R"({"versao":1,)" + kCut + "}", w.editor);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  REQUIRE(a->json()["partes"].get_array().size() == 2);
  CHECK(int64_t(a->json()["partes"].at(0)["id"]) == g);  // the largest part keeps the id
  std::int64_t part = int64_t(a->json()["partes"].at(1)["id"]);
  CHECK(double(a->json()["areaOriginal"]) == doctest::Approx(600).epsilon(0.005));
  CHECK(w.area(g) == doctest::Approx(400).epsilon(0.005));
  CHECK(w.area(part) == doctest::Approx(200).epsilon(0.005));
  CHECK(w.area(g) + w.area(part) == doctest::Approx(double(a->json()["areaOriginal"])).epsilon(0.001));
  CHECK(w.version(g) == "2");
  CHECK(w.stored(part, w.field["inscricao"]) == "0042");
  CHECK(w.db("select string_agg(operacao, ',' order by id) from projeto.geometrias_auditoria where geometria_id in (" +
             Parcels::n(g) + ", " + Parcels::n(part) + ")") == "criar,dividir,dividir");
  CHECK(w.db("select depois -> 'valores' ->> 'inscricao' from projeto.geometrias_auditoria where geometria_id = " +
             Parcels::n(part)) == "0042");
  CHECK(heard.size() == heard_before + 2);

  // Union back into g: its values stay, the part is deleted; 600 m² again.
  auto versions = [](std::int64_t one, int va, std::int64_t two, int vb) {
    return R"(,"versoes":{")" + Parcels::n(one) + R"(":)" + std::to_string(va) + R"(,")" + Parcels::n(two) + R"(":)" +
           std::to_string(vb) + "}}";
  };
  refused(*put("/geometrias/uniao", R"({"ids":[)" + Parcels::n(g) + "," + Parcels::n(part) + R"(],"manter":)" +
                                        Parcels::n(g) + versions(g, 1, part, 1),
               w.editor),
          409, "conflito");
  // Without the version of every geometry merged: refused, nothing read or written.
  refused(*put("/geometrias/uniao", R"({"ids":[)" + Parcels::n(g) + "," + Parcels::n(part) + R"(],"manter":)" +
                                        Parcels::n(g) + R"(,"versoes":{")" + Parcels::n(g) + R"(":2}})",
               w.editor),
          400, "campo_obrigatorio", "versoes");
  refused(*put("/geometrias/uniao", R"({"ids":[)" + Parcels::n(g) + "," + Parcels::n(part) + R"(],"manter":)" +
                                        Parcels::n(g) + "}",
               w.editor),
          400, "campo_obrigatorio", "versoes");
  std::int64_t block = w.rect(610200, 7795000, 10, 10, w.blocks);
  refused(*put("/geometrias/uniao", R"({"ids":[)" + Parcels::n(g) + "," + Parcels::n(block) + R"(],"manter":)" +
                                        Parcels::n(g) + versions(g, 2, block, 1),
               w.editor),
          400, "parametro_invalido", "mesma camada");
  refused(*put("/geometrias/uniao", R"({"ids":[)" + Parcels::n(g) + R"(],"manter":)" + Parcels::n(g) + "}", w.editor),
          400, "parametro_invalido", "duas");
  refused(*put("/geometrias/uniao", R"({"ids":[)" + Parcels::n(g) + "," + Parcels::n(part) + R"(],"manter":999999})",
               w.editor),
          400, "parametro_invalido", "manter");
  CHECK(w.count("geometrias", "id = " + Parcels::n(part)) == "1");
  auto u = put("/geometrias/uniao", R"({"ids":[)" + Parcels::n(g) + "," + Parcels::n(part) + R"(],"manter":)" +
                                        Parcels::n(g) + versions(g, 2, part, 1),
               w.editor);
  REQUIRE_MESSAGE(u->status == 200, u->body);
  CHECK(int64_t(u->json()["versao"]) == 3);
  CHECK(w.area(g) == doctest::Approx(600).epsilon(0.005));
  CHECK(w.count("geometrias", "id = " + Parcels::n(part)) == "0");
  CHECK(w.stored(g, w.field["inscricao"]) == "0042");
  CHECK(w.db("select operacao from projeto.geometrias_auditoria where geometria_id = " + Parcels::n(g) +
             " order by id desc limit 1") == "unir");
  CHECK(w.db("select operacao from projeto.geometrias_auditoria where geometria_id = " + Parcels::n(part) +
             " order by id desc limit 1") == "excluir");
  CHECK(heard.count("unir") == 1);
  CHECK(heard.count("excluir") == 1);

  // Reshape: the lot keeps its larger part (20 x 20 m) only; no new geometry.
  std::string count = w.count("geometrias");
  auto r = post("/geometrias/split/" + Parcels::n(g) + "?reshape=true", R"({"versao":3,)" + kCut + "}", w.editor);
  REQUIRE_MESSAGE(r->status == 200, r->body);
  CHECK(w.area(g) == doctest::Approx(400).epsilon(0.005));
  CHECK(w.version(g) == "4");
  CHECK(w.count("geometrias") == count);
  CHECK(w.db("select operacao from projeto.geometrias_auditoria where geometria_id = " + Parcels::n(g) +
             " order by id desc limit 1") == "remodelar");
  CHECK(heard.count("remodelar") == 1);
  CHECK(heard.last().find(R"("versao":4)") != std::string::npos);
}

TEST_CASE_FIXTURE(PlatformFixture, "PUT /geometrias/deletar deletes all or nothing") {
  Parcels w(*this);
  test::Heard heard(*this, w.owner);
  std::int64_t a = w.rect(610000, 7795000, 20, 30), b = w.rect(610100, 7795000, 20, 30);
  const std::string ids = Parcels::n(a) + "," + Parcels::n(b);
  refused(*put("/geometrias/deletar", R"({"ids":[)" + ids + R"(],"versoes":{")" + Parcels::n(b) + R"(":7}})", w.editor),
          409, "conflito");
  refused(*put("/geometrias/deletar", R"({"ids":[)" + ids + "," + Parcels::n(a) + "]}", w.editor), 400,
          "parametro_invalido", "repetido");
  refused(*put("/geometrias/deletar", R"({"ids":[]})", w.editor), 400, "parametro_invalido", "ids");
  CHECK(w.count("geometrias") == "2");
  auto d = put("/geometrias/deletar", R"({"ids":[)" + ids + "]}", w.editor);
  CHECK_MESSAGE(d->status == 204, d->body);
  CHECK(w.count("geometrias") == "0");
  CHECK(w.count("geometrias_auditoria", "operacao = 'excluir'") == "2");
  CHECK(heard.count("excluir") == 2);
}
