// POST /v2/valores writes many values of one geometry at once, validated against the form:
// all of them or none, with a report naming every refused field. POST /copiar-valores
// copies a geometry's values into another of the same layer, or of another layer by chave,
// in one transaction audited as 'copiar'.
#include "lots.hpp"

using namespace cadastre;
using test::Lots;
using test::PlatformFixture;
using test::refused;

namespace {

struct Item {
  std::string chave, valor;
};

std::string batch(const Lots& w, std::int64_t g, const std::vector<Item>& items) {
  std::string out = R"({"idGeometria":)" + Lots::n(g) + R"(,"valores":[)";
  for (std::size_t i = 0; i < items.size(); ++i)
    out += (i ? "," : "") + std::string(R"({"idCampo":)") + Lots::n(w.field.at(items[i].chave)) + R"(,"valor":)" +
           items[i].valor + "}";
  return out + "]}";
}

// chave → motivo of the report of a refused batch.
std::map<std::string, std::string> report(test::Answer& a) {
  std::map<std::string, std::string> out;
  for (auto item : a.json()["campos"].get_array())
    out[std::string(std::string_view(item["chave"]))] = std::string(std::string_view(item["motivo"]));
  return out;
}

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture, "POST /v2/valores creates and updates a geometry's values in one go") {
  Lots w(*this);
  std::int64_t g = w.geometry();
  w.value(g, "inscricao", R"("0001")");  // the form's required field is there already
  std::int64_t old = w.value(g, "area", "10");
  std::string gen = w.generation(w.layer);

  auto a = post("/v2/valores",
                batch(w, g, {{"area", "120"}, {"valor_m2", "2.5"}, {"uso", R"("comercial")"}, {"murado", "false"}}),
                w.editor);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(int64_t(a->json()["gravados"]) == 4);
  CHECK(int64_t(a->json()["idGeometria"]) == g);
  // The geometry's values afterwards, with their fields, the calculated one included.
  std::map<std::string, std::string> by_key;
  for (auto v : a->json()["valores"].get_array())
    by_key[std::string(std::string_view(v["chave"]))] = simdjson::minify(v["valor"]);
  CHECK(by_key["area"] == "120");
  CHECK(by_key["uso"] == R"("comercial")");
  CHECK(by_key["murado"] == "false");
  CHECK(by_key["valor_total"] == "300");
  // The existing value was updated in place (same id), the others created; each audited.
  CHECK(w.db("select projeto.valor_id(" + Lots::n(g) + ", posicao) from projeto.campos where id = " +
             Lots::n(w.field["area"])) == Lots::n(old));
  CHECK(w.db("select string_agg(operacao, ',' order by campo_id) from projeto.valores_auditoria where geometria_id = " +
             Lots::n(g) + " and usuario_id = " + Lots::n(w.editor.user_id)) ==
        "alterar,criar,criar,criar,criar");  // area, uso, murado, valor_m2, valor_total (field order)
  CHECK(std::stoll(w.generation(w.layer)) == std::stoll(gen) + 1);
}

TEST_CASE_FIXTURE(PlatformFixture, "POST /v2/valores writes nothing when any field is refused, and reports each") {
  Lots w(*this);
  std::int64_t g = w.geometry(), other = w.geometry();
  w.value(other, "inscricao", R"("7777")");
  std::string values = w.layer_rows(), audits = w.count("valores_auditoria"), gen = w.generation(w.layer);

  // One bad field among good ones.
  auto a = post("/v2/valores", batch(w, g, {{"inscricao", R"("1234")"}, {"area", "999999"}, {"uso", R"("comercial")"}}),
                w.owner);
  refused(*a, 400, "parametro_invalido");
  auto r = report(*a);
  REQUIRE(r.size() == 1);
  CHECK(r["area"].find("máximo") != std::string::npos);
  CHECK(int64_t(a->json()["campos"].at(0)["idCampo"]) == w.field["area"]);

  // Several at once: type, options, pattern, unique, and the form's required field left empty.
  a = post("/v2/valores",
           batch(w, g, {{"pavimentos", R"("dois")"}, {"servicos", R"(["agua","gas"])"}, {"uso", R"("comercial")"}}),
           w.owner);
  refused(*a, 400, "parametro_invalido");
  r = report(*a);
  CHECK(r.size() == 3);
  CHECK(r.count("pavimentos"));
  CHECK(r["servicos"].find("gas") != std::string::npos);
  CHECK(r["inscricao"].find("obrigatório") != std::string::npos);
  a = post("/v2/valores", batch(w, g, {{"inscricao", R"("7777")"}, {"topografia", R"("montanha")"}}), w.owner);
  r = report(*a);
  CHECK(r["inscricao"].find("único") != std::string::npos);
  CHECK(r["topografia"].find("montanha") != std::string::npos);

  CHECK(w.layer_rows() == values);
  CHECK(w.count("valores_auditoria") == audits);
  CHECK(w.generation(w.layer) == gen);

  // The body's own mistakes.
  refused(*post("/v2/valores", R"({"idGeometria":)" + Lots::n(g) + R"(,"valores":[]})", w.owner), 400,
          "parametro_invalido", "valores");
  refused(*post("/v2/valores", R"({"idGeometria":)" + Lots::n(g) + "}", w.owner), 400, "campo_obrigatorio", "valores");
  refused(*post("/v2/valores", batch(w, g, {{"area", "1"}, {"area", "2"}}), w.owner), 400, "parametro_invalido",
          "repetido");
  std::string many = R"({"idGeometria":)" + Lots::n(g) + R"(,"valores":[)";
  for (int i = 0; i < 501; ++i) many += (i ? "," : "") + std::string(R"({"idCampo":)") + std::to_string(i + 1) + R"(,"valor":1})";
  refused(*post("/v2/valores", many + "]}", w.owner), 400, "parametro_invalido", "500");
  // A field of another layer is reported, not written.
  a = post("/v2/valores",
           R"({"idGeometria":)" + Lots::n(g) + R"(,"valores":[{"idCampo":)" + Lots::n(w.building["area"]) +
               R"(,"valor":1}]})",
           w.owner);
  refused(*a, 400, "parametro_invalido");
  CHECK(int64_t(a->json()["campos"].at(0)["idCampo"]) == w.building["area"]);
  CHECK(w.layer_rows() == values);
}

TEST_CASE_FIXTURE(PlatformFixture, "POST /copiar-valores copies within a layer and across layers by chave") {
  Lots w(*this);
  std::int64_t from = w.geometry(), to = w.geometry();
  w.value(from, "inscricao", R"("0100")");
  w.value(from, "area", "80");
  w.value(from, "valor_m2", "3");
  w.value(from, "uso", R"("comercial")");
  w.value(from, "logradouro", R"("Rua XV")");
  w.value(to, "area", "5");
  std::string gen = w.generation(w.layer);

  // Same layer, chosen fields: the unique inscricao stays behind; area replaces the old one.
  auto a = post("/copiar-valores",
                R"({"idGeometriaOrigem":)" + Lots::n(from) + R"(,"idGeometriaDestino":)" + Lots::n(to) +
                    R"(,"idCampos":[)" + Lots::n(w.field["area"]) + "," + Lots::n(w.field["valor_m2"]) + "," +
                    Lots::n(w.field["murado"]) + "]}",
                w.editor);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(int64_t(a->json()["copiados"]) == 2);
  CHECK(std::string_view(a->json()["ignorados"].at(0)["chave"]) == "murado");
  CHECK(w.stored(to, w.field["area"]) == "80");
  CHECK(w.stored(to, w.field["valor_m2"]) == "3");
  CHECK(w.stored(to, w.field["valor_total"]) == "240");  // recomputed at the destination
  CHECK(w.stored(to, w.field["uso"]) == "");
  CHECK(w.db("select string_agg(concat_ws(':', operacao, antes, depois), ',' order by campo_id) from "
             "projeto.valores_auditoria where geometria_id = " + Lots::n(to) + " and usuario_id = " +
             Lots::n(w.editor.user_id)) == "copiar:5:80,copiar:3,criar:240");
  CHECK(std::stoll(w.generation(w.layer)) == std::stoll(gen) + 1);
  // The origin is untouched.
  CHECK(w.stored(from, w.field["area"]) == "80");

  // Another layer of the project: by chave (area and uso exist there; the rest is reported).
  std::int64_t house = w.square(-48.6, -27.7, 0.0001, w.buildings);
  a = post("/copiar-valores",
           R"({"idGeometriaOrigem":)" + Lots::n(from) + R"(,"idGeometriaDestino":)" + Lots::n(house) + "}", w.owner);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(int64_t(a->json()["copiados"]) == 2);
  CHECK(w.stored(house, w.building["area"]) == "80");
  CHECK(w.stored(house, w.building["uso"]) == R"("comercial")");
  // Not copied: inscricao, logradouro and valor_m2 (no such chave there), valor_total (calculated).
  CHECK(a->json()["ignorados"].get_array().size() == 4);

  // A chosen field with no counterpart, or a value the destination's rules refuse: nothing copied.
  std::string audits = w.count("valores_auditoria");
  refused(*post("/copiar-valores",
                R"({"idGeometriaOrigem":)" + Lots::n(from) + R"(,"idGeometriaDestino":)" + Lots::n(house) +
                    R"(,"idCampos":[)" + Lots::n(w.field["area"]) + "," + Lots::n(w.field["logradouro"]) + "]}",
                w.owner),
          400, "parametro_invalido", "logradouro");
  w.db("update projeto.campos set maximo = 50 where id = " + Lots::n(w.building["area"]) + " returning 1");
  refused(*post("/copiar-valores",
                R"({"idGeometriaOrigem":)" + Lots::n(from) + R"(,"idGeometriaDestino":)" + Lots::n(house) + "}",
                w.owner),
          400, "parametro_invalido", "area");
  CHECK(w.count("valores_auditoria") == audits);
  CHECK(w.stored(house, w.building["uso"]) == R"("comercial")");

  // A unique value copied onto another geometry is the same conflict as writing it.
  refused(*post("/copiar-valores",
                R"({"idGeometriaOrigem":)" + Lots::n(from) + R"(,"idGeometriaDestino":)" + Lots::n(to) +
                    R"(,"idCampos":[)" + Lots::n(w.field["inscricao"]) + "]}",
                w.owner),
          409, "conflito", "inscricao");

  refused(*post("/copiar-valores", R"({"idGeometriaOrigem":)" + Lots::n(from) + R"(,"idGeometriaDestino":)" +
                                       Lots::n(from) + "}",
                w.owner),
          400, "parametro_invalido", "idGeometriaDestino");
  refused(*post("/copiar-valores", R"({"idGeometriaOrigem":)" + Lots::n(from) + "}", w.owner), 400,
          "campo_obrigatorio", "idGeometriaDestino");
  refused(*post("/copiar-valores",
                R"({"idGeometriaOrigem":)" + Lots::n(from) + R"(,"idGeometriaDestino":)" + Lots::n(to) +
                    R"(,"idCampos":[)" + Lots::n(w.building["padrao"]) + "]}",
                w.owner),
          400, "parametro_invalido", "idCampos");
}

TEST_CASE_FIXTURE(PlatformFixture, "POST /copiar-valores refuses geometries of two projects, even both the caller's") {
  Lots w(*this);
  std::int64_t from = w.geometry();
  w.value(from, "area", "80");
  // Another project of the same owner, with a layer of the same chave.
  std::int64_t other = w.id("insert into projeto.projetos (nome, criado_por) values ('Outro', " + Lots::n(w.owner.user_id) +
                            ") returning id");
  std::int64_t layer = w.id("insert into projeto.camadas (projeto_id, nome, geometria, criado_por) values (" +
                            Lots::n(other) + ", 'lotes', 'poligono', " + Lots::n(w.owner.user_id) + ") returning id");
  std::int64_t form = w.id("insert into projeto.formularios (camada_id, nome) values (" + Lots::n(layer) +
                           ", 'Ficha') returning id");
  std::int64_t area = w.id("insert into projeto.campos (formulario_id, nome, chave, tipo, ordem) values (" +
                           Lots::n(form) + ", 'area', 'area', 'decimal', 0) returning id");
  std::int64_t to = w.square(-48.5, -27.6, 0.001, layer);
  const std::string audits = w.count("valores_auditoria");
  refused(*post("/copiar-valores",
                R"({"idGeometriaOrigem":)" + Lots::n(from) + R"(,"idGeometriaDestino":)" + Lots::n(to) + "}", w.owner),
          400, "parametro_invalido", "mesmo projeto");
  CHECK(w.stored(to, area).empty());
  CHECK(w.count("valores_auditoria") == audits);
}
