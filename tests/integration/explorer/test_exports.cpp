// POST /explorer/{municipio}/report/{id}/export-excel and /export-pdf: the saved query run
// read-only, its rows written as a real .xlsx (read back with openpyxl) and a real PDF
// (read back with pdftotext).
#include "fixture.hpp"

using namespace cadastre::test;

namespace {
std::string create_report(const std::string& nome, const std::string& titulo, const std::string& consulta) {
  auto a = fixture().call("POST", "/explorer/alfa/relatorios",
                          R"({"nome": ")" + nome + R"(", "titulo": ")" + titulo +
                              R"(", "consulta": )" + consulta + "}");
  REQUIRE_MESSAGE(a->status == 201, a->body);
  return std::to_string(int64_t(a->json()["id"]));
}

const char* kBigLots = R"({"tabela": "lote", "colunas": ["id", "inscricao", "area_terreno", "topografia"],
  "filtros": [{"coluna": "area_terreno", "operador": ">", "valor": 300}],
  "ordem": [{"coluna": "area_terreno", "direcao": "desc"}]})";

const std::string& big_lots_report() {
  static std::string id = create_report("Lotes grandes — exportação", "Lotes com área acima de 300 m²", kBigLots);
  return id;
}
}  // namespace

TEST_CASE_FIXTURE(
    Fixture, "export-excel returns an .xlsx with the title, the header row and the report's rows") {
  auto a = call("POST", "/explorer/alfa/report/" + big_lots_report() + "/export-excel");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(a->content_type == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
  CHECK(raw_post_headers("/explorer/alfa/report/" + big_lots_report() + "/export-excel")
            .find("\r\nContent-Disposition: attachment; filename=\"Lotes_grandes_exportacao.xlsx\"; "
                  "filename*=UTF-8''Lotes%20grandes%20%E2%80%94%20exporta%C3%A7%C3%A3o.xlsx\r\n") != std::string::npos);
  CHECK(a->body.rfind("PK", 0) == 0);  // a zip container

  simdjson::dom::parser parser;
  auto rows = parser.parse(xlsx_rows(a->body)).get_array().value();
  std::size_t expected = std::stoul(db("select count(*) from cadastro.lote where area_terreno > 300"));
  REQUIRE(rows.size() == 3 + expected);
  CHECK(std::string_view(rows.at(0).at(0)) == "Lotes com área acima de 300 m²");
  std::string subtitle(std::string_view(rows.at(1).at(0)));
  CHECK(subtitle.find("Tabela lote · " + std::to_string(expected) + " registros · gerado em ") == 0);
  std::string header;
  for (auto c : rows.at(2).get_array()) header += std::string(std::string_view(c)) + ",";
  CHECK(header == "id,inscricao,area_terreno,topografia,");
  // Rows in the report's order; numeric columns are numbers in the sheet.
  std::string got;
  for (std::size_t i = 3; i < rows.size(); ++i) {
    auto r = rows.at(i);
    char area[32];
    std::snprintf(area, sizeof area, "%.2f", double(r.at(2)));
    got += std::to_string(int64_t(r.at(0))) + "|" + std::string(std::string_view(r.at(1))) + "|" + area + "|" +
           std::string(std::string_view(r.at(3))) + ";";
  }
  CHECK(got == db("select string_agg(id || '|' || inscricao || '|' || area_terreno || '|' || topografia || ';', '' "
                  "order by area_terreno desc, id) from cadastro.lote where area_terreno > 300"));
}

TEST_CASE_FIXTURE(
    Fixture,
    "export-pdf returns a PDF with the title, the header row and every row, across pages") {
  auto a = call("POST", "/explorer/alfa/report/" + big_lots_report() + "/export-pdf");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(a->content_type == "application/pdf");
  CHECK(a->header("Content-Disposition").find("attachment; filename=\"Lotes_grandes_exportacao.pdf\"") == 0);
  CHECK(a->body.rfind("%PDF-", 0) == 0);
  std::string text = pdf_text(a->body);
  CHECK(text.find("Lotes com área acima de 300 m²") != std::string::npos);
  CHECK(text.find("inscricao") != std::string::npos);
  CHECK(text.find("area_terreno") != std::string::npos);
  std::size_t expected = std::stoul(db("select count(*) from cadastro.lote where area_terreno > 300"));
  CHECK(text.find(std::to_string(expected) + " registros") != std::string::npos);
  // Every row is in the document: each inscrição and its area.
  std::string missing;
  std::string rows = db("select string_agg(inscricao || ' ' || area_terreno, ';' order by id) from cadastro.lote where "
                        "area_terreno > 300");
  std::size_t start = 0;
  while (start < rows.size()) {
    std::size_t end = rows.find(';', start);
    if (end == std::string::npos) end = rows.size();
    std::string row = rows.substr(start, end - start);
    std::string inscricao = row.substr(0, row.find(' ')), area = row.substr(row.find(' ') + 1);
    auto at = text.find(inscricao);
    if (at == std::string::npos || text.find(area, at) > text.find('\n', at)) missing += row + ";";
    start = end + 1;
  }
  CHECK(missing == "");
  int pages = pdf_pages(a->body);
  CHECK(pages >= 2);  // the fixture city has more big lots than fit on one page
  CHECK(text.find("página 1 de " + std::to_string(pages)) != std::string::npos);
  CHECK(text.find("página " + std::to_string(pages) + " de " + std::to_string(pages)) != std::string::npos);
}

TEST_CASE_FIXTURE(Fixture, "an empty result still exports the title and the header") {
  auto id = create_report("Nenhum lote", "Lotes impossíveis",
                          R"({"tabela": "lote", "colunas": ["id", "inscricao"],
                              "filtros": [{"coluna": "area_terreno", "operador": "<", "valor": 0}]})");
  auto x = call("POST", "/explorer/alfa/report/" + id + "/export-excel");
  REQUIRE(x->status == 200);
  simdjson::dom::parser parser;
  auto rows = parser.parse(xlsx_rows(x->body)).get_array().value();
  CHECK(rows.size() == 3);
  auto p = call("POST", "/explorer/alfa/report/" + id + "/export-pdf");
  REQUIRE(p->status == 200);
  std::string text = pdf_text(p->body);
  CHECK(text.find("Lotes impossíveis") != std::string::npos);
  CHECK(text.find("Nenhum registro.") != std::string::npos);
}

TEST_CASE_FIXTURE(Fixture,
                  "exports: 404 for a missing report or another tenant's, 400 for a bad id") {
  CHECK(call("POST", "/explorer/alfa/report/999999/export-excel")->status == 404);
  CHECK(call("POST", "/explorer/alfa/report/999999/export-pdf")->codigo() == "nao_encontrado");
  CHECK(call("POST", "/explorer/alfa/report/abc/export-excel")->status == 400);
  CHECK(call("POST", "/explorer/alfa/report/1%3B%20drop/export-pdf")->status == 400);
  CHECK(call("POST", "/explorer/alfa/report/-1/export-pdf")->status == 400);
  // alfa's report, asked of beta by beta's user: beta has no such report.
  const std::string& id = big_lots_report();
  auto beta = request("POST", "/explorer/beta/report/" + id + "/export-excel",
                      Stack::bearer(city().user("beta").token));
  CHECK(beta->status == 404);
  // alfa's user may not reach beta at all.
  CHECK(call("POST", "/explorer/beta/report/" + id + "/export-excel")->status == 403);
}

TEST_CASE_FIXTURE(Fixture, "exports need read permission on explorer and on the report's table") {
  const auto& none = user_with("so-lote@alfa.gov.br", {"lote:r"});
  const auto& reader = user_with("leitor-relatorios@alfa.gov.br", {"lote:r", "explorer:r"});
  const std::string& id = big_lots_report();
  CHECK(call("POST", "/explorer/alfa/report/" + id + "/export-excel", "", none.token)->status == 403);
  CHECK(call("POST", "/explorer/alfa/report/" + id + "/export-pdf", "", reader.token)->status == 200);
  auto people = create_report("Nomes de pessoas", "Pessoas", R"({"tabela": "pessoa", "colunas": ["nome"]})");
  CHECK(call("POST", "/explorer/alfa/report/" + people + "/export-excel", "", reader.token)->status == 403);
}

TEST_CASE_FIXTURE(Fixture, "a report that no longer fits the catalog is 422") {
  auto id = create_report("Desatualizado", "Desatualizado", R"({"tabela": "lote", "colunas": ["id"]})");
  db("update explorer.relatorio set consulta = '{\"tabela\": \"lote\", \"colunas\": [\"coluna_removida\"]}' where id = " +
     id + " returning id");
  auto a = call("POST", "/explorer/alfa/report/" + id + "/export-excel");
  CHECK(a->status == 422);
  CHECK(a->mensagem().find("coluna_removida") != std::string::npos);
}
