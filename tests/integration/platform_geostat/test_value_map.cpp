// POST /gerarPVGEO from a stored regression model, who may generate a value map, and
// POST /update/pvg/residuos/{point,line,polygon}: a model's residuals as features.
#include <thread>

#include "samples.hpp"

using namespace cadastre;
using test::GeostatFixture;
using test::refused;
using test::Samples;

namespace {

std::string stored_model(GeostatFixture& f, const Samples& w) {
  auto a = f.post("/rlm/final", w.fit_body(R"(,"nome":"preço")"), w.owner);
  REQUIRE_MESSAGE(a->status == 201, a->body);
  return std::to_string(int64_t(a->json()["id"]));
}

}  // namespace

TEST_CASE_FIXTURE(GeostatFixture, "a stored model generates a value map version; only administrators may") {
  Samples w(*this);
  const std::string model = stored_model(*this, w);
  const std::string body =
      R"({"idModelo":)" + model + R"(,"idCamada":)" + Samples::n(w.layer) + R"(,"raio":300})";
  refused(*request("POST", "/gerarPVGEO", {}, body), 401, "nao_autenticado");
  refused(*post("/gerarPVGEO", body, w.editor), 403, "acesso_negado");
  refused(*post("/gerarPVGEO", body, w.reader), 403, "acesso_negado");
  refused(*post("/gerarPVGEO", body, w.other_tenant), 404, "nao_encontrado");
  refused(*post("/gerarPVGEO", R"({"idModelo":)" + model + "}", w.owner), 400, "campo_obrigatorio", "idCamada");
  refused(*post("/gerarPVGEO", R"({"idModelo":)" + model + R"(,"idCamadaRaster":1})", w.owner), 400,
          "parametro_invalido", "idCamadaRaster");
  refused(*post("/gerarPVGEO", R"({"idCamadaRaster":)" + Samples::n(w.layer) + "}", w.owner), 400,
          "parametro_invalido", "idCamadaRaster");
  refused(*post("/gerarPVGEO", R"({"idModelo":)" + model + R"(,"idCamada":)" + Samples::n(w.layer) + R"(,"raio":0})",
                w.owner),
          400, "parametro_invalido", "raio");
  refused(*post("/gerarPVGEO", R"({"idModelo":"1;drop"})", w.owner), 400, "parametro_invalido", "idModelo");
  CHECK(w.db("select count(*) from avaliacao.pvg_versoes") == "0");

  auto a = post("/gerarPVGEO", body, w.owner);
  REQUIRE_MESSAGE(a->status == 201, a->body);
  CHECK(std::string_view(a->json()["versao"]["origem"]) == "modelo");
  CHECK(std::to_string(int64_t(a->json()["versao"]["idModelo"])) == model);
  CHECK(int64_t(a->json()["facesComValor"]) > 0);
  // Each valued face holds the median of the model's estimates at the samples within 300 m.
  a = post("/rlm/" + model, R"({"idCamada":)" + Samples::n(w.layer) + R"(,"idCampoDestino":)" +
                                 Samples::n(w.field.at("estimado")) + "}",
           w.owner);
  REQUIRE(a->status == 200);
  std::string check = w.db(
      "select count(*) filter (where abs(f.valor_m2 - round(m.v::numeric, 2)) > 0.005) || '/' || count(*) from "
      "cadastro.face_quadra f cross join lateral (select percentile_cont(0.5) within group (order by v." +
      w.column("estimado") + ") v from " + w.table() + " v join projeto.geometrias g on g.id = v.id where v." +
      w.column("estimado") + " is not null and st_dwithin(f.geom::geography, g.geom::geography, 300)) m "
      "where m.v is not null");
  CHECK(check.substr(0, 2) == "0/");
  CHECK(check != "0/0");
  CHECK(w.db("select count(*) from avaliacao.pvg_versoes") == "2");

  // Two generations at once: one after the other, each a complete map of its own number.
  std::unique_ptr<test::Answer> first, second;
  std::thread t1([&] { first = post("/gerarPVGEO", body, w.owner); });
  std::thread t2([&] { second = post("/gerarPVGEO", body, w.owner); });
  t1.join();
  t2.join();
  CHECK(first->status == 201);
  CHECK(second->status == 201);
  CHECK(w.db("select string_agg(numero::text, ',' order by numero) from avaliacao.pvg_versoes") == "1,2,3,4");
  CHECK(w.db("select count(distinct c) from (select count(*) c from avaliacao.pvg_valores group by versao_id) q") ==
        "1");
}

TEST_CASE_FIXTURE(GeostatFixture, "a model's residuals become features of a layer, replaced on update") {
  Samples w(*this);
  const std::string model = stored_model(*this, w);
  std::int64_t points = w.new_layer("residuos", "ponto"), lines = w.new_layer("residuos em linha", "linha");
  const std::string field = Samples::n(w.decimal_field(points, "residuo"));
  const std::string line_field = Samples::n(w.decimal_field(lines, "residuo"));
  auto features = [&](const std::string& geometry, const std::string& where = "") {
    return w.db("select json_agg(json_build_object('idAmostra', m.geometria_id, 'geometria', " + geometry +
                "::json) order by m.geometria_id) from projeto.modelo_amostras m join projeto.geometrias g on g.id = "
                "m.geometria_id where m.modelo_id = " + model + where);
  };
  const std::string as_points = features("st_asgeojson(g.geom)");
  auto body = [&](std::int64_t layer, const std::string& f, const std::string& feicoes) {
    return R"({"idModelo":)" + model + R"(,"idCamada":)" + Samples::n(layer) + R"(,"idCampo":)" + f +
           R"(,"feicoes":)" + feicoes + "}";
  };

  auto a = post("/update/pvg/residuos/point", body(points, field, as_points), w.editor);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(a->json()["feicoes"].get_array().size() == 49);
  const std::string p = Samples::n(points);
  CHECK(w.db("select count(*) from projeto.geometrias where camada_id = " + p) == "49");
  CHECK(w.db("select count(*) from projeto.modelo_residuos where modelo_id = " + model) == "49");
  // The value written is the model's residual of that sample.
  CHECK(w.db("select count(*) from projeto.modelo_residuos r join camadas.l" + p + " v on v.id = r.geometria_id "
             "join projeto.modelo_amostras m on m.modelo_id = r.modelo_id and m.geometria_id = r.amostra_id "
             "where abs(v.c_" + field + " - m.residuo::numeric) < 1e-6") == "49");
  CHECK(w.db("select count(*) from projeto.geometrias_auditoria where operacao = 'criar' and camada_id = " + p) == "49");

  // Again: the previous features go (audited), the new ones take their place.
  a = post("/update/pvg/residuos/point", body(points, field, as_points), w.owner);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(w.db("select count(*) from projeto.geometrias where camada_id = " + p) == "49");
  CHECK(w.db("select count(*) from projeto.geometrias_auditoria where operacao = 'excluir' and camada_id = " + p) ==
        "49");

  // Lines, into a line layer.
  a = post("/update/pvg/residuos/line",
           body(lines, line_field, features("st_asgeojson(st_makeline(g.geom, st_translate(g.geom, 0.0001, 0)))")),
           w.owner);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(w.db("select count(*) from projeto.geometrias where camada_id = " + Samples::n(lines)) == "49");

  // Validated against the model and the route's kind.
  refused(*post("/update/pvg/residuos/polygon", body(points, field, as_points), w.owner), 400, "parametro_invalido",
          "idCamada");
  refused(*post("/update/pvg/residuos/line", body(lines, line_field, as_points), w.owner), 400, "parametro_invalido",
          "feicoes[0].geometria");
  refused(*post("/update/pvg/residuos/point",
                body(points, field, features("st_asgeojson(g.geom)", " and m.geometria_id <> " +
                                                                       Samples::n(w.first_sample()))),
                w.owner),
          400, "parametro_invalido", "feicoes");
  refused(*post("/update/pvg/residuos/point",
                body(points, field, R"([{"idAmostra":999999,"geometria":{"type":"Point","coordinates":[0,0]}}])"),
                w.owner),
          400, "parametro_invalido", "feicoes");
  refused(*post("/update/pvg/residuos/point", body(points, Samples::n(w.field.at("nome")), as_points), w.owner), 400,
          "parametro_invalido", "idCampo");
  refused(*post("/update/pvg/residuos/point", R"({"idModelo":)" + model + "}", w.owner), 400, "campo_obrigatorio");
  refused(*post("/update/pvg/residuos/point", body(points, field, as_points), w.reader), 403, "acesso_negado");
  refused(*post("/update/pvg/residuos/point", body(points, field, as_points), w.stranger), 404, "nao_encontrado");
  refused(*post("/update/pvg/residuos/point", body(points, field, as_points), w.other_tenant), 404, "nao_encontrado");
  refused(*request("POST", "/update/pvg/residuos/point", {}, body(points, field, as_points)), 401, "nao_autenticado");
  CHECK(w.db("select count(*) from projeto.geometrias where camada_id = " + p) == "49");
}
