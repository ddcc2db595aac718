// /reports/<cidade>/avaliacao and /reports/<cidade>/previa: PDFs of the municipality's own
// cadastre, only for the cities the platform enables (alfa here) and only to that city's
// users. The valuation report is read back with pdftotext and its numbers compared with
// the valuation library's own result for the same stored data; the preview sheet carries
// a map picture and the photos (pdfimages counts them). The first page of each is drawn
// with pdftoppm into the output directory.
#include <httplib.h>

#include "cadastre/valuation.hpp"
#include "reports_fixture.hpp"

using namespace cadastre;
using test::Cast;
using test::refused;
using test::ReportsFixture;
using test::Session;

namespace {

// A unit of the demo cadastre set to known values: 360 m² of land, 12 m of frontage,
// 30 m deep, R$ 450/m², 5 improvements, residential, one 120 m² R1-N house of 2000 in
// state c. Returns the unit's id.
std::int64_t known_property(ReportsFixture& f) {
  f.stack->load_demo("alfa", 12);
  std::string unit = f.db("select min(i.id) from cadastro.imobiliario i join cadastro.lote l on l.id = i.lote_id "
                          "where l.face_quadra_id is not null");
  std::string lot = f.db("select lote_id from cadastro.imobiliario where id = " + unit);
  f.db("update cadastro.lote set area_terreno = 360, testada = 12, profundidade = 30, topografia = 'plano', "
       "pedologia = 'seco', situacao = 'meio_quadra' where id = " + lot + " returning id");
  f.db("update cadastro.face_quadra set valor_m2 = 450, melhoramentos = 5 where id = (select face_quadra_id from "
       "cadastro.lote where id = " + lot + ") returning id");
  f.db("update cadastro.imobiliario set uso = 'residencial', fracao_ideal = 1 where id = " + unit + " returning id");
  f.db("delete from cadastro.edificacao where lote_id = " + lot + " returning 1");
  f.db("insert into cadastro.edificacao (lote_id, area_construida, padrao, ano_construcao, conservacao, uso, geom) "
       "select id, 120, 'R1-N', 2000, 'c', 'residencial', st_multi(st_buffer(st_pointonsurface(geom), 0.00003, 2)) "
       "from cadastro.lote where id = " + lot + " returning id");
  return std::stoll(unit);
}

// What the library computes for that unit with the default profile, ages counted to 2024.
valuation::Result expected() {
  valuation::IptuInput in;
  in.use = valuation::Use::residencial;
  valuation::LandInput land;
  land.area = 360;
  land.frontage = 12;
  land.depth = 30;
  land.unit_value = 450;
  land.topography = "plano";
  land.soil = "seco";
  land.situation = "meio_quadra";
  in.land = land;
  in.improvements = 5;
  valuation::ConstructionInput house;
  house.built_area = 120;
  house.standard = "R1-N";
  house.construction_year = 2000;
  house.reference_year = 2024;
  house.conservation = "c";
  house.use_class = "residencial";
  in.constructions.emplace_back(house);
  return valuation::iptu(in, valuation::Profile::default_profile());
}

}  // namespace

TEST_CASE_FIXTURE(ReportsFixture, "the valuation report prints the property and the numbers of its memória de cálculo") {
  std::int64_t unit = known_property(*this);
  Session s = user("alfa");
  std::string inscricao = db("select inscricao_cartografica from cadastro.imobiliario where id = " + n(unit));
  auto a = post("/reports/alfa/avaliacao", R"({"idImovel":)" + n(unit) + R"(,"anoReferencia":2024})", s);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(a->headers.find("Content-Type")->second == "application/pdf");
  CHECK(a->headers.find("Content-Disposition")->second.find("attachment; filename=\"avaliacao-") == 0);
  CHECK(a->body.rfind("%PDF-", 0) == 0);
  std::string file = test::save("avaliacao.pdf", a->body);
  std::string text = test::pdf_text(file);
  CAPTURE(text);

  valuation::Result r = expected();
  REQUIRE(r.components.size() == 2);
  std::vector<std::string> wanted = {
      "Laudo de avaliação do imóvel " + inscricao, "perfil de avaliação padrão", "idades contadas até 2024",
      "Área do terreno 360,00 m²", "Testada 12,00 m", "Profundidade 30,00 m", "Valor do m² (face de quadra) R$ 450,00",
      "Melhoramentos 5", "Uso residencial", "R1-N",
      "Valor venal do terreno (VVT) R$ " + test::br(*r.value_of("VVT"), 2),
      "Valor venal das construções (VVE) R$ " + test::br(*r.value_of("VVE"), 2),
      "Valor venal do imóvel (VVI) R$ " + test::br(*r.value_of("VVI"), 2), "IPTU R$ " + test::br(r.value, 2),
      "Memória de cálculo", "Fórmula: " + r.components[0].formula};
  // Every factor and intermediate value of the land, the construction and the tax.
  for (const valuation::Result* part : {&r.components[0], &r.components[1], &r}) {
    for (const auto& f : part->factors) wanted.push_back(f.name + " " + test::br(f.value, 4));
    for (const auto& [name, value] : part->values) wanted.push_back(name + " " + test::br(value, 4));
  }
  for (const auto& w : wanted) CHECK_MESSAGE(text.find(w) != std::string::npos, w);
  CHECK(r.value > 0);
  MESSAGE("first page of the valuation report: " << test::first_page_png(file));

  // By inscription, the same report.
  auto by_name = post("/reports/alfa/avaliacao", R"({"inscricao":")" + inscricao + R"(","anoReferencia":2024})", s);
  REQUIRE_MESSAGE(by_name->status == 200, by_name->body);
  CHECK(test::pdf_text(test::save("avaliacao-inscricao.pdf", by_name->body)).find("IPTU R$ " + test::br(r.value, 2)) !=
        std::string::npos);
  // The active profile of the tenant is the one applied.
  db("insert into avaliacao.perfil (nome, ativo, configuracao) values ('Planta 2024', true, '{}') returning id");
  auto profiled = post("/reports/alfa/avaliacao", R"({"idImovel":)" + n(unit) + "}", s);
  REQUIRE_MESSAGE(profiled->status == 200, profiled->body);
  CHECK(test::pdf_text(test::save("avaliacao-perfil.pdf", profiled->body)).find("perfil de avaliação Planta 2024") !=
        std::string::npos);
}

TEST_CASE_FIXTURE(ReportsFixture, "the valuation report: only enabled cities, own tenant, valid input, valuable data") {
  std::int64_t unit = known_property(*this);
  Session s = user("alfa"), beta = user("beta");
  const std::string body = R"({"idImovel":)" + n(unit) + "}";
  refused(*request("POST", "/reports/alfa/avaliacao", {}, body), 401, "nao_autenticado");
  refused(*post("/reports/beta/avaliacao", body, s), 404, "nao_encontrado");     // not the caller's city
  refused(*post("/reports/alfa/avaliacao", body, beta), 404, "nao_encontrado");  // another tenant's caller
  refused(*post("/reports/beta/avaliacao", body, beta), 404, "nao_encontrado");  // beta is not enabled
  refused(*post("/reports/campinas/avaliacao", body, s), 404, "nao_encontrado");
  refused(*post("/reports/alfa;drop/avaliacao", body, s), 400, "parametro_invalido", "cidade");
  refused(*post("/reports/alfa/avaliacao", "{}", s), 400, "campo_obrigatorio", "idImovel");
  refused(*post("/reports/alfa/avaliacao", R"({"idImovel":"1;drop"})", s), 400, "parametro_invalido", "idImovel");
  refused(*post("/reports/alfa/avaliacao", R"({"idImovel":1,"inscricao":"x"})", s), 400, "parametro_invalido");
  refused(*post("/reports/alfa/avaliacao", R"({"idImovel":1,"anoReferencia":3000})", s), 400, "parametro_invalido",
          "anoReferencia");
  refused(*post("/reports/alfa/avaliacao", R"({"idImovel":1,"dono":"x"})", s), 400, "campo_desconhecido", "dono");
  refused(*post("/reports/alfa/avaliacao", R"({"idImovel":99999999})", s), 404, "nao_encontrado", "imóvel");
  refused(*post("/reports/alfa/avaliacao", R"({"inscricao":"' or 1=1 --"})", s), 404, "nao_encontrado");
  refused(*post("/reports/alfa/avaliacao", std::string(5000, ' '), s), 413, "corpo_muito_grande");
  // Stored data the profile cannot value: a lot without a block face.
  db("update cadastro.lote set face_quadra_id = null where id = (select lote_id from cadastro.imobiliario where id = " +
     n(unit) + ") returning id");
  refused(*post("/reports/alfa/avaliacao", body, s), 422, "entidade_improcessavel", "face de quadra");
}

TEST_CASE_FIXTURE(ReportsFixture, "the preview sheet draws the lot among its neighbours with the geometry's values and photos") {
  std::int64_t unit = known_property(*this);
  Cast c = cast();
  std::string lot = db("select lote_id from cadastro.imobiliario where id = " + n(unit));
  std::string inscricao = db("select inscricao_cartografica from cadastro.imobiliario where id = " + n(unit));
  std::int64_t obs = field(c, R"({"nome":"Observação","chave":"observacao","tipo":"texto"})");
  std::int64_t murado = field(c, R"({"nome":"Murado","chave":"murado","tipo":"booleano"})");
  std::int64_t g = geometry(c.camada, db("select st_astext(st_geometryn(geom, 1)) from cadastro.lote where id = " + lot), c);
  value(g, obs, R"("muro caído na divisa")", c);
  value(g, murado, "true", c);
  httplib::MultipartFormDataItems items = {{"file", test::picture(64, 48, "JPEG"), "frente.jpg", "image/jpeg"},
                                           {"idGeometria", n(g), "", ""}};
  auto cl = client();
  auto up = test::answer(cl.Post("/fotos", headers(c.editor), items), "POST /fotos");
  REQUIRE_MESSAGE(up->status == 201, up->body);

  const std::string path = "/reports/alfa/previa?idImovel=" + n(unit) + "&idGeom=" + n(g);
  auto a = post(path, "", c.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(a->headers.find("Content-Type")->second == "application/pdf");
  CHECK(a->headers.find("Content-Disposition")->second.find("filename=\"previa-") != std::string::npos);
  std::string file = test::save("previa.pdf", a->body);
  std::string text = test::pdf_text(file);
  CAPTURE(text);
  for (const std::string& w : {"Ficha prévia do imóvel " + inscricao, std::string("geometria ") + n(g) + " da camada lotes",
                               std::string("Área do terreno 360,00 m²"), std::string("Testada 12,00 m"),
                               std::string("Localização"), std::string("Observação muro caído na divisa"),
                               std::string("Murado sim"), std::string("Fotos"), std::string("frente.jpg"),
                               std::string("R1-N")})
    CHECK_MESSAGE(text.find(w) != std::string::npos, w);
  // Two pictures: the map (PNG, 900×600) and the photo (JPEG, 64×48).
  std::string images = test::run("pdfimages -list '" + file + "'");
  CAPTURE(images);
  CHECK(images.find(" 900   600 ") != std::string::npos);
  CHECK(images.find("  64    48 ") != std::string::npos);
  MESSAGE("first page of the preview sheet: " << test::first_page_png(file));

  // Checks: the geometry's read permission, the city, the property.
  refused(*request("POST", path, {}), 401, "nao_autenticado");
  refused(*post(path, "", c.stranger), 404, "nao_encontrado");
  refused(*post(path, "", c.beta), 404, "nao_encontrado");
  refused(*post("/reports/beta/previa?idImovel=" + n(unit) + "&idGeom=" + n(g), "", c.reader), 404, "nao_encontrado");
  refused(*post("/reports/alfa/previa?idImovel=" + n(unit), "", c.reader), 400, "campo_obrigatorio", "idGeom");
  refused(*post("/reports/alfa/previa?idGeom=" + n(g), "", c.reader), 400, "campo_obrigatorio", "idImovel");
  refused(*post("/reports/alfa/previa?idImovel=1;drop&idGeom=" + n(g), "", c.reader), 400, "parametro_invalido", "idImovel");
  refused(*post("/reports/alfa/previa?idImovel=99999999&idGeom=" + n(g), "", c.reader), 404, "nao_encontrado", "imóvel");
}
