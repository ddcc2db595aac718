// Copies between layers (a geometry into a form's layer, samples, values by containment)
// with the values of fields of the same chave, and the thematic class of a geometry.
#include "parcels.hpp"

using namespace cadastre;
using test::Parcels;
using test::PlatformFixture;
using test::refused;

TEST_CASE_FIXTURE(PlatformFixture, "values, geometries and samples are copied between layers by field chave") {
  Parcels w(*this);
  std::int64_t lot = w.rect(610000, 7795000, 20, 30);
  std::int64_t outside = w.rect(611000, 7795000, 20, 30);
  std::int64_t block = w.rect(609990, 7794990, 40, 50, w.blocks);
  w.value(block, w.block_field["inscricao"], "'0099'");
  w.value(block, w.block_field["area"], "2000");
  w.value(lot, w.field["area"], "600");
  test::Heard heard(*this, w.owner);

  // copiar-valores: the lot inside the block takes its values; the one outside nothing.
  auto only_area = post("/geometrias/copiar-valores/" + Parcels::n(w.lots),
                        R"({"origem":)" + Parcels::n(w.blocks) + R"(,"campos":["inscricao"]})", w.editor);
  REQUIRE_MESSAGE(only_area->status == 200, only_area->body);
  CHECK(int64_t(only_area->json()["geometrias"]) == 2);
  CHECK(int64_t(only_area->json()["comOrigem"]) == 1);
  CHECK(int64_t(only_area->json()["valores"]) == 1);
  CHECK(heard.count("valores") == 1);
  CHECK(heard.last().find(R"("idGeometria":)" + Parcels::n(lot)) != std::string::npos);
  CHECK(w.stored(lot, w.field["area"]) == "600");
  auto all = post("/geometrias/copiar-valores/" + Parcels::n(w.lots), R"({"origem":)" + Parcels::n(w.blocks) + "}",
                  w.editor);
  REQUIRE_MESSAGE(all->status == 200, all->body);
  CHECK(int64_t(all->json()["valores"]) == 2);
  CHECK(w.stored(lot, w.field["area"]) == "2000");
  CHECK(w.count_values("geometria_id = " + Parcels::n(outside)) == "0");
  CHECK(w.db("select concat_ws('|', operacao, antes, depois) from projeto.valores_auditoria where geometria_id = " +
             Parcels::n(lot) + " and campo_id = " + Parcels::n(w.field["area"]) + " order by id desc limit 1") ==
        "copiar|600|2000");
  refused(*post("/geometrias/copiar-valores/" + Parcels::n(w.lots), R"({"origem":)" + Parcels::n(w.lots) + "}", w.editor),
          400, "parametro_invalido", "origem");

  // copiar-geometria: the lot into the blocks' form, with its values of the same chave.
  auto copy = post("/geometrias/copiar-geometria/" + Parcels::n(lot) + "/" + Parcels::n(w.block_form), "", w.editor);
  REQUIRE_MESSAGE(copy->status == 201, copy->body);
  std::int64_t copied = int64_t(copy->json()["geometrias"].at(0)["id"]);
  CHECK(int64_t(copy->json()["geometrias"].at(0)["idCamada"]) == w.blocks);
  CHECK(int64_t(copy->json()["valoresCopiados"]) == 2);
  CHECK(w.stored(copied, w.block_field["inscricao"]) == "0099");
  CHECK(w.db("select st_equals(a.geom, b.geom) from projeto.geometrias a, projeto.geometrias b where a.id = " +
             Parcels::n(lot) + " and b.id = " + Parcels::n(copied)) == "t");
  CHECK(w.db("select operacao from projeto.geometrias_auditoria where geometria_id = " + Parcels::n(copied)) == "copiar");
  CHECK(heard.count("copiar") == 1);
  CHECK(heard.last().find(R"("idCamada":)" + Parcels::n(w.blocks)) != std::string::npos);
  refused(*post("/geometrias/copiar-geometria/" + Parcels::n(lot) + "/abc", "", w.editor), 400, "parametro_invalido");

  // copiar-amostras: geometries of other layers into this one; a point layer refuses polygons.
  auto samples = post("/geometrias/copiar-amostras/" + Parcels::n(w.lots),
                      R"({"ids":[)" + Parcels::n(block) + "," + Parcels::n(copied) + "]}", w.editor);
  REQUIRE_MESSAGE(samples->status == 201, samples->body);
  CHECK(samples->json()["geometrias"].get_array().size() == 2);
  CHECK(w.count("geometrias", "camada_id = " + Parcels::n(w.lots)) == "4");
  CHECK(heard.count("copiar") == 3);
  CHECK(w.count("geometrias_auditoria", "operacao = 'copiar'") == "3");
  refused(*post("/geometrias/copiar-amostras/" + Parcels::n(w.lots), R"({"ids":[)" + Parcels::n(lot) + "]}", w.editor),
          400, "parametro_invalido", "outra camada");
  std::string points = w.count("geometrias", "camada_id = " + Parcels::n(w.points));
  refused(*post("/geometrias/copiar-amostras/" + Parcels::n(w.points), R"({"ids":[)" + Parcels::n(lot) + "]}",
                w.editor),
          400, "parametro_invalido", "ponto");
  CHECK(w.count("geometrias", "camada_id = " + Parcels::n(w.points)) == points);
}

TEST_CASE_FIXTURE(PlatformFixture, "the thematic index is the class of the layer's categorisation the value falls in") {
  Parcels w(*this);
  std::int64_t small = w.rect(610000, 7795000, 20, 30), big = w.rect(610100, 7795000, 20, 30),
               bare = w.rect(610200, 7795000, 20, 30), huge = w.rect(610300, 7795000, 20, 30);
  w.value(small, w.field["area"], "600");
  w.value(big, w.field["area"], "3000");
  w.value(huge, w.field["area"], "9000");
  const std::string area = Parcels::n(w.field["area"]);
  test::Heard heard(*this, w.owner);
  auto index = [&](std::int64_t g, const std::string& campo) {
    return put("/geometrias/" + Parcels::n(g) + "/indexMapaTematico", R"({"idCampo":)" + campo + "}", w.editor);
  };
  refused(*index(small, area), 409, "transicao_invalida", "categorização");
  w.db("update projeto.camadas set categorias = '{\"idCampo\":" + area +
       ",\"chave\":\"area\",\"tipo\":\"intervalos\",\"classes\":[{\"minimo\":0,\"maximo\":1000,\"cor\":\"#eeeeee\","
       "\"total\":1},{\"minimo\":1000,\"maximo\":3000,\"cor\":\"#333333\",\"total\":1}],\"outros\":{\"cor\":\"#999999\","
       "\"total\":1},\"semValor\":{\"cor\":\"#cccccc\",\"total\":1}}' where id = " + Parcels::n(w.lots) + " returning 1");
  auto a = index(small, area);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(int64_t(a->json()["indice"]) == 0);
  CHECK(std::string_view(a->json()["classe"]["cor"]) == "#eeeeee");
  CHECK(int64_t(index(big, area)->json()["indice"]) == 1);  // the last class includes its maximo
  CHECK(int64_t(index(huge, area)->json()["indice"]) == -1);
  auto none = index(bare, area);
  REQUIRE_MESSAGE(none->status == 200, none->body);
  CHECK(none->json()["indice"].is_null());
  CHECK(w.db("select concat_ws('|', indice_tematico, campo_tematico_id) from projeto.geometrias where id = " +
             Parcels::n(big)) == "1|" + area);
  CHECK(w.db("select operacao from projeto.geometrias_auditoria where geometria_id = " + Parcels::n(big) +
             " order by id desc limit 1") == "tematico");
  CHECK(heard.count("tematico") == 4);
  refused(*index(small, Parcels::n(w.field["inscricao"])), 400, "parametro_invalido", "idCampo");
}

TEST_CASE_FIXTURE(PlatformFixture, "copiar-valores by location writes as the values area does: the destination's rules, "
                                   "unique values, calculated fields recomputed, all or nothing") {
  Parcels w(*this);
  // The lots' form gains a calculated field and a limit on area; inscricao becomes unique.
  std::int64_t dobro = w.id("insert into projeto.campos (formulario_id, nome, chave, tipo, formula) values (" +
                            Parcels::n(w.lot_form) + ", 'dobro', 'dobro', 'calculado', 'area * 2') returning id");
  std::int64_t a = w.rect(610000, 7795000, 20, 30), b = w.rect(610030, 7795000, 20, 30);
  std::int64_t block = w.rect(609990, 7794990, 80, 50, w.blocks);  // covers both lots
  w.value(block, w.block_field["inscricao"], "'0099'");
  w.value(block, w.block_field["area"], "2000");
  const std::string lots_gen = w.generation(w.lots), audits = w.count("valores_auditoria");
  const std::string path = "/geometrias/copiar-valores/" + Parcels::n(w.lots);
  const std::string only_area = R"({"origem":)" + Parcels::n(w.blocks) + R"(,"campos":["area"]})";

  // Over the destination field's maximo: 400 naming the field and a geometry, nothing written.
  w.db("update projeto.campos set maximo = 1000 where id = " + Parcels::n(w.field["area"]) + " returning 1");
  refused(*post(path, only_area, w.editor), 400, "parametro_invalido", "area");
  CHECK(w.count_values("geometria_id in (" + Parcels::n(a) + ", " + Parcels::n(b) + ")") == "0");
  CHECK(w.count("valores_auditoria") == audits);
  CHECK(w.generation(w.lots) == lots_gen);

  // Within the rules: written, audited as copiar, and the calculated field recomputed.
  w.db("update projeto.campos set maximo = null where id = " + Parcels::n(w.field["area"]) + " returning 1");
  auto ok = post(path, only_area, w.editor);
  REQUIRE_MESSAGE(ok->status == 200, ok->body);
  CHECK(int64_t(ok->json()["valores"]) == 2);
  for (std::int64_t g : {a, b}) {
    CHECK(w.stored(g, dobro) == "4000");
    CHECK(w.db("select string_agg(operacao, ',' order by id) from projeto.valores_auditoria where geometria_id = " +
               Parcels::n(g)) == "copiar,criar");
  }
  CHECK(std::stoll(w.generation(w.lots)) == std::stoll(lots_gen) + 1);

  // A unique field: the block's inscricao on two lots is the conflict a single write would meet.
  w.db("update projeto.campos set unico = true where id = " + Parcels::n(w.field["inscricao"]) + " returning 1");
  refused(*post(path, R"({"origem":)" + Parcels::n(w.blocks) + R"(,"campos":["inscricao"]})", w.editor), 409, "conflito",
          "inscricao");
  CHECK(w.count_values("campo_id = " + Parcels::n(w.field["inscricao"])) == "0");
  // An inactive destination field is left alone.
  w.db("update projeto.campos set unico = false, ativo = false where id = " + Parcels::n(w.field["inscricao"]) +
       " returning 1");
  auto skipped = post(path, R"({"origem":)" + Parcels::n(w.blocks) + R"(,"campos":["inscricao"]})", w.editor);
  REQUIRE_MESSAGE(skipped->status == 200, skipped->body);
  CHECK(int64_t(skipped->json()["valores"]) == 0);
  CHECK(w.count_values("campo_id = " + Parcels::n(w.field["inscricao"])) == "0");
}
