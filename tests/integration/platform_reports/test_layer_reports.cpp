// /relatorios-de-camada: a layer's fields, a filter (the conditions of
// /pesquisa-caracteristicas) and a grouping field, kept as a definition and rendered from
// the current values as PDF (read back with pdftotext, first page drawn with pdftoppm) and
// .xlsx (read back with openpyxl).
#include "reports_fixture.hpp"

using namespace cadastre;
using test::Cast;
using test::refused;
using test::ReportsFixture;

namespace {

struct Layer {
  std::int64_t inscricao = 0, area = 0, uso = 0;
  std::vector<std::int64_t> geometrias;
};

// Three lots with an inscription, an area and a use.
Layer lots(ReportsFixture& f, const Cast& c) {
  Layer l;
  l.inscricao = f.field(c, R"({"nome":"Inscrição","chave":"inscricao","tipo":"texto"})");
  l.area = f.field(c, R"j({"nome":"Área (m²)","chave":"area","tipo":"decimal"})j");
  l.uso = f.field(c, R"({"nome":"Uso","chave":"uso","tipo":"texto"})");
  const char* rows[][3] = {{"\"A-1\"", "100.5", "\"residencial\""}, {"\"A-2\"", "200", "\"comercial\""},
                           {"\"A-3\"", "50", "\"residencial\""}, {"\"A-4\"", "80.25", "\"residencial\""}};
  double x = -48;
  for (const auto& r : rows) {
    std::string X = std::to_string(x), X2 = std::to_string(x + 0.001);
    auto g = f.geometry(c.camada, "POLYGON((" + X + " -27," + X2 + " -27," + X2 + " -26.999," + X + " -27))", c);
    f.value(g, l.inscricao, r[0], c);
    f.value(g, l.area, r[1], c);
    f.value(g, l.uso, r[2], c);
    l.geometrias.push_back(g);
    x += 0.002;
  }
  return l;
}

}  // namespace

TEST_CASE_FIXTURE(ReportsFixture, "layer reports: saved, then rendered from the current values as PDF and xlsx") {
  Cast c = cast();
  Layer l = lots(*this, c);
  std::string body = R"({"idCamada":)" + n(c.camada) + R"(,"nome":"Lotes grandes","descricao":"área acima de 60 m²",)"
                     R"("campos":[)" + n(l.inscricao) + "," + n(l.area) + "," + n(l.uso) + R"(],)"
                     R"("filtros":{"condicoes":[{"idCampo":)" + n(l.area) + R"(,"operador":">","valor":60}]},)"
                     R"("agrupamento":)" + n(l.uso) + "}";
  auto made = post("/relatorios-de-camada", body, c.editor);
  REQUIRE_MESSAGE(made->status == 201, made->body);
  std::int64_t id = int64_t(made->json()["id"]);
  const std::string path = "/relatorios-de-camada/" + n(id);
  CHECK(db("select array_to_string(campos, ',') || ' ' || (filtros->'condicoes'->0->>'operador') || ' ' || "
           "(filtros->>'todas') || ' ' || agrupamento || ' ' || criado_por from projeto.relatorios_camada where id = " + n(id)) ==
        n(l.inscricao) + "," + n(l.area) + "," + n(l.uso) + " > true " + n(l.uso) + " " + n(c.editor.user_id));

  auto definition = get(path, c.reader);
  REQUIRE_MESSAGE(definition->status == 200, definition->body);
  CHECK(std::string_view(definition->json()["nome"]) == "Lotes grandes");
  CHECK(int64_t(definition->json()["idProjeto"]) == c.projeto);
  CHECK(int64_t(definition->json()["agrupamento"]) == l.uso);
  CHECK(int64_t(get("/relatorios-de-camada?idCamada=" + n(c.camada), c.reader)->json()["totalElements"]) == 1);
  CHECK(int64_t(get("/relatorios-de-camada", c.stranger)->json()["totalElements"]) == 0);

  // The PDF: the rows the filter keeps, sorted by use, and the summary per use.
  auto pdf = get(path + "?formato=pdf", c.reader);
  REQUIRE_MESSAGE(pdf->status == 200, pdf->body);
  CHECK(pdf->headers.find("Content-Type")->second == "application/pdf");
  CHECK(pdf->headers.find("Content-Disposition")->second.find("filename=\"Lotes_grandes.pdf\"") != std::string::npos);
  std::string file = test::save("relatorio-de-camada.pdf", pdf->body);
  std::string text = test::pdf_text(file);
  CAPTURE(text);
  for (const char* expected : {"Lotes grandes", "Camada lotes — 3 registros", "área acima de 60 m²", "Inscrição", "Área (m²)",
                               "A-1 100.5 residencial", "A-2 200 comercial", "A-4 80.25 residencial", "Resumo por Uso",
                               "Soma de Área (m²)", "comercial 1 200", "residencial 2 180.75"})
    CHECK_MESSAGE(text.find(expected) != std::string::npos, expected);
  CHECK(text.find("A-3") == std::string::npos);
  CHECK(text.find("A-2 200 comercial") < text.find("A-1 100.5 residencial"));  // grouped: comercial first
  std::string png = test::first_page_png(file);
  MESSAGE("first page of the layer report: " << png);

  // A value changed after the report was saved shows in the next rendering.
  db("update camadas.l" + n(c.camada) + " set c_" + n(l.area) + " = 300 where id = " + n(l.geometrias[2]) +
     " returning id");
  auto sheet = get(path + "?formato=xlsx", c.reader);
  REQUIRE_MESSAGE(sheet->status == 200, sheet->body);
  CHECK(sheet->headers.find("Content-Type")->second == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
  std::string cells = test::xlsx_cells(test::save("relatorio-de-camada.xlsx", sheet->body));
  CAPTURE(cells);
  for (const char* expected : {"Registros|1|1|Lotes grandes", "Registros|3|2|Inscrição", "Registros|4|2|A-2",
                               "Registros|4|3|200", "Registros|5|2|A-1", "Registros|5|3|100.5", "Registros|6|2|A-3",
                               "Registros|6|3|300", "Registros|7|2|A-4", "Resumo|3|1|Uso", "Resumo|4|1|comercial",
                               "Resumo|5|1|residencial", "Resumo|5|2|3", "Resumo|5|3|480.75"})
    CHECK_MESSAGE(cells.find(std::string(expected) + "\n") != std::string::npos, expected);

  // Changed: no filter, no grouping.
  auto changed = put(path, R"({"filtros":{"condicoes":[]},"agrupamento":null,"nome":"Todos"})", c.editor);
  REQUIRE_MESSAGE(changed->status == 200, changed->body);
  CHECK(changed->json()["agrupamento"].is_null());
  CHECK(db("select nome || ' ' || jsonb_array_length(filtros->'condicoes') || ' ' || coalesce(agrupamento::text, '-') "
           "from projeto.relatorios_camada where id = " + n(id)) == "Todos 0 -");
  std::string all = test::xlsx_cells(test::save("relatorio-de-camada-todos.xlsx", get(path + "?formato=xlsx", c.reader)->body));
  CHECK(all.find("Registros|7|2|A-4\n") != std::string::npos);
  CHECK(all.find("Resumo|") == std::string::npos);

  CHECK(del(path, c.editor)->status == 204);
  CHECK(db("select count(*) from projeto.relatorios_camada") == "0");
  refused(*get(path, c.owner), 404, "nao_encontrado");
}

TEST_CASE_FIXTURE(ReportsFixture, "layer reports write every type of value as a person reads it") {
  Cast c = cast();
  std::int64_t servicos = field(c, R"({"nome":"Serviços","chave":"servicos","tipo":"multipla","opcoes":["água","luz"]})");
  std::int64_t murado = field(c, R"({"nome":"Murado","chave":"murado","tipo":"booleano"})");
  std::int64_t vistoria = field(c, R"({"nome":"Vistoria","chave":"vistoria","tipo":"data"})");
  std::int64_t valor = field(c, R"({"nome":"Valor","chave":"valor","tipo":"decimal"})");
  auto full = geometry(c.camada, "POINT(-48 -27)", c);
  value(full, servicos, R"(["água","luz"])", c);
  value(full, murado, "true", c);
  value(full, vistoria, R"("2024-12-31")", c);
  value(full, valor, "1.50", c);
  auto bare = geometry(c.camada, "POINT(-48.001 -27)", c);  // a geometry with no value at all
  value(bare, murado, "false", c);
  std::string body = R"({"idCamada":)" + n(c.camada) + R"(,"nome":"Tipos","campos":[)" + n(servicos) + "," + n(murado) +
                     "," + n(vistoria) + "," + n(valor) + "]}";
  std::int64_t id = created("/relatorios-de-camada", body, c.owner);
  auto sheet = get("/relatorios-de-camada/" + n(id) + "?formato=xlsx", c.reader);
  REQUIRE_MESSAGE(sheet->status == 200, sheet->body);
  std::string cells = test::xlsx_cells(test::save("relatorio-de-camada-tipos.xlsx", sheet->body));
  CAPTURE(cells);
  for (const std::string& expected : std::vector<std::string>{
           "Registros|2|1|Camada lotes — 2 registros", "Registros|4|1|" + n(full), "Registros|4|2|água, luz",
           "Registros|4|3|sim", "Registros|4|4|2024-12-31", "Registros|4|5|1.5", "Registros|5|1|" + n(bare),
           "Registros|5|3|não"})
    CHECK_MESSAGE(cells.find(expected + "\n") != std::string::npos, expected);
  CHECK(cells.find("Registros|5|2|") == std::string::npos);  // no value: an empty cell
  CHECK(cells.find("Registros|5|4|") == std::string::npos);
}

TEST_CASE_FIXTURE(ReportsFixture, "layer reports: sessions, tenants, shares and states are checked") {
  Cast c = cast();
  Layer l = lots(*this, c);
  std::string body = R"({"idCamada":)" + n(c.camada) + R"(,"nome":"R","campos":[)" + n(l.area) + "]}";
  std::int64_t id = created("/relatorios-de-camada", body, c.owner);
  const std::string path = "/relatorios-de-camada/" + n(id);
  guarded(c, "GET", path, false);
  guarded(c, "GET", path + "?formato=pdf", false);
  guarded(c, "PUT", path, true, R"({"nome":"Outro"})");
  guarded(c, "DELETE", path, true);
  guarded(c, "POST", "/relatorios-de-camada", true, body);
  refused(*request("GET", "/relatorios-de-camada", {}), 401, "nao_autenticado");
  CHECK(db("select count(*) || nome from projeto.relatorios_camada group by nome") == "1R");

  // An inactive layer refuses changes (the guard's 409); reading goes on.
  REQUIRE(post("/camadas/inativar/" + n(c.camada), "", c.owner)->status == 200);
  refused(*put(path, R"({"nome":"Inativa"})", c.editor), 409, "transicao_invalida");
  CHECK(get(path + "?formato=xlsx", c.reader)->status == 200);
}

TEST_CASE_FIXTURE(ReportsFixture, "layer reports: bad input is refused naming the field") {
  Cast c = cast();
  Layer l = lots(*this, c);
  std::int64_t other_form = created("/formularios", R"({"idCamada":)" +
                                                        n(created("/camadas", R"({"idProjeto":)" + n(c.projeto) + R"(,"nome":"outra"})", c.owner)) +
                                                        R"(,"nome":"F"})",
                                    c.owner);
  std::int64_t alien = created("/campos", R"({"idFormulario":)" + n(other_form) + R"(,"nome":"X","chave":"x","tipo":"texto"})",
                               c.owner);
  const std::string C = n(c.camada), A = n(l.area);
  auto refuse = [&](const std::string& body, const std::string& codigo, const std::string& field) {
    CAPTURE(body);
    refused(*post("/relatorios-de-camada", body, c.owner), 400, codigo, field);
  };
  refuse(R"({"nome":"R","campos":[)" + A + "]}", "campo_obrigatorio", "idCamada");
  refuse(R"({"idCamada":)" + C + R"(,"campos":[)" + A + "]}", "campo_obrigatorio", "nome");
  refuse(R"({"idCamada":)" + C + R"(,"nome":"R"})", "campo_obrigatorio", "campos");
  refuse(R"({"idCamada":)" + C + R"(,"nome":"R","campos":[]})", "parametro_invalido", "campos");
  refuse(R"({"idCamada":)" + C + R"(,"nome":"R","campos":[)" + n(alien) + "]}", "parametro_invalido", "campos");
  refuse(R"({"idCamada":)" + C + R"(,"nome":"R","campos":[)" + A + R"(],"agrupamento":)" + n(alien) + "}", "parametro_invalido",
         "agrupamento");
  refuse(R"({"idCamada":)" + C + R"(,"nome":"R","campos":[)" + A + R"(],"filtros":{"condicoes":[{"idCampo":)" + A +
             R"(,"operador":"~","valor":1}]}})",
         "parametro_invalido", "operador");
  refuse(R"({"idCamada":)" + C + R"(,"nome":"R","campos":[)" + A + R"(],"filtros":{"condicoes":[{"idCampo":)" + A +
             R"(,"operador":">","valor":"muito"}]}})",
         "parametro_invalido", "número");
  refuse(R"({"idCamada":)" + C + R"(,"nome":"R","campos":[)" + A + R"(],"filtros":{"condicoes":[{"idCampo":)" + n(alien) +
             R"(,"operador":"=","valor":"a"}]}})",
         "parametro_invalido", "idCampo");
  refuse(R"({"idCamada":)" + C + R"(,"nome":"R","campos":[)" + A + R"(],"filtros":{"ordem":1}})", "campo_desconhecido", "ordem");
  refuse(R"({"idCamada":"1;drop","nome":"R","campos":[)" + A + "]}", "parametro_invalido", "idCamada");
  std::int64_t id = created("/relatorios-de-camada", R"({"idCamada":)" + C + R"(,"nome":"R","campos":[)" + A + "]}", c.owner);
  const std::string path = "/relatorios-de-camada/" + n(id);
  refused(*get(path + "?formato=doc", c.owner), 400, "parametro_invalido", "formato");
  refused(*put(path, R"({"idCamada":)" + C + "}", c.owner), 400, "parametro_invalido", "idCamada");
  refused(*put(path, R"({"campos":[)" + n(alien) + "]}", c.owner), 400, "parametro_invalido", "campos");
  refused(*get("/relatorios-de-camada/1;drop", c.owner), 400, "parametro_invalido", "id");
  refused(*get("/relatorios-de-camada?idCamada=x", c.owner), 400, "parametro_invalido", "idCamada");
  refused(*post("/relatorios-de-camada", std::string(70000, ' '), c.owner), 413, "corpo_muito_grande");
  CHECK(db("select count(*) || ':' || array_to_string(campos, ',') from projeto.relatorios_camada group by campos") == "1:" + A);
}

TEST_CASE_FIXTURE(ReportsFixture, "a layer report's summary adds decimals exactly: 0.1 + 0.1 + 0.1 is 0.3, 0.2 + 0.7 is 0.9") {
  Cast c = cast();
  Layer l = lots(*this, c);
  // Residencial: A-1, A-3, A-4 at 0.1 each; comercial: A-2 at 0.2 and a fifth lot at 0.7.
  for (std::size_t i : {0u, 2u, 3u})
    db("update camadas.l" + n(c.camada) + " set c_" + n(l.area) + " = 0.1 where id = " + n(l.geometrias[i]) +
       " returning id");
  db("update camadas.l" + n(c.camada) + " set c_" + n(l.area) + " = 0.2 where id = " + n(l.geometrias[1]) +
     " returning id");
  auto g = geometry(c.camada, "POLYGON((-47.9 -27,-47.899 -27,-47.899 -26.999,-47.9 -27))", c);
  value(g, l.inscricao, "\"A-5\"", c);
  value(g, l.area, "0.7", c);
  value(g, l.uso, "\"comercial\"", c);
  auto made = post("/relatorios-de-camada",
                   R"({"idCamada":)" + n(c.camada) + R"(,"nome":"Somas","campos":[)" + n(l.inscricao) + "," + n(l.area) +
                       R"(],"agrupamento":)" + n(l.uso) + "}",
                   c.editor);
  REQUIRE_MESSAGE(made->status == 201, made->body);
  const std::string path = "/relatorios-de-camada/" + n(int64_t(made->json()["id"]));
  std::string cells = test::xlsx_cells(test::save("relatorio-somas.xlsx", get(path + "?formato=xlsx", c.reader)->body));
  CAPTURE(cells);
  for (const char* expected : {"Resumo|4|1|comercial", "Resumo|4|3|0.9", "Resumo|5|1|residencial", "Resumo|5|3|0.3"})
    CHECK_MESSAGE(cells.find(std::string(expected) + "\n") != std::string::npos, expected);
  CHECK(cells.find("0.30000000000000004") == std::string::npos);
  CHECK(cells.find("0.8999999999999999") == std::string::npos);
  std::string text = test::pdf_text(test::save("relatorio-somas.pdf", get(path + "?formato=pdf", c.reader)->body));
  CAPTURE(text);
  CHECK(text.find("comercial 2 0.9") != std::string::npos);
  CHECK(text.find("residencial 3 0.3") != std::string::npos);
}
