// The report writers on their own: Windows-1252 text for the PDF fonts, long and odd cells,
// many columns and many rows.
#include "fixture.hpp"
#include "server/explorer/export.hpp"

using namespace cadastre::test;
using cadastre::server::explorer::ExportTable;

TEST_CASE_FIXTURE(
    Fixture,
    "UTF-8 becomes Windows-1252: Portuguese letters keep their glyph, the rest is replaced") {
  using cadastre::server::explorer::to_cp1252;
  CHECK(to_cp1252("ação, pé, avó, Ç") == "a\xE7\xE3o, p\xE9, av\xF3, \xC7");
  CHECK(to_cp1252("m² nº 5 – “aspas” € …") == "m\xB2 n\xBA 5 \x96 \x93" "aspas\x94 \x80 \x85");
  CHECK(to_cp1252("日本") == "??");
  CHECK(to_cp1252("a\tb\nc") == "a b c");
  CHECK(to_cp1252("\xC3") == "?");      // a cut sequence
  CHECK(to_cp1252("\x80x") == "?x");    // a stray continuation byte
  CHECK(to_cp1252("😀") == "?");
}

TEST_CASE_FIXTURE(Fixture,
                  "the writers handle many rows, long cells, NULLs and text that is not a number") {
  ExportTable t;
  t.title = "Relatório de teste — acentuação";
  t.subtitle = "subtítulo";
  t.columns = {"codigo", "descricao", "valor"};
  t.numeric = {false, false, true};
  for (int i = 0; i < 200; ++i) {
    t.rows.push_back({"C" + std::to_string(i), std::string(i == 7 ? 400 : 10, 'x'),
                      i == 3 ? std::optional<std::string>() : std::optional<std::string>(std::to_string(i) + ".5")});
  }
  t.rows.push_back({"=1+1", "Ünïcödé ☃", "não é número"});

  std::string xlsx = cadastre::server::explorer::xlsx_document(t);
  simdjson::dom::parser parser;
  auto rows = parser.parse(xlsx_rows(xlsx)).get_array().value();
  REQUIRE(rows.size() == 3 + 201);
  CHECK(std::string_view(rows.at(0).at(0)) == "Relatório de teste — acentuação");
  CHECK(double(rows.at(3 + 10).at(2)) == 10.5);
  CHECK(rows.at(3 + 3).at(2).is_null());
  CHECK(std::string_view(rows.at(3 + 7).at(1)).size() == 400);
  CHECK(std::string_view(rows.at(3 + 200).at(0)) == "=1+1");  // text, never a formula
  CHECK(std::string_view(rows.at(3 + 200).at(1)) == "Ünïcödé ☃");
  CHECK(std::string_view(rows.at(3 + 200).at(2)) == "não é número");

  std::string pdf = cadastre::server::explorer::pdf_document(t);
  CHECK(pdf_pages(pdf) > 3);
  std::string text = pdf_text(pdf);
  CHECK(text.find("Relatório de teste — acentuação") != std::string::npos);
  CHECK(text.find("C199") != std::string::npos);
  CHECK(text.find("199.5") != std::string::npos);
  CHECK(text.find("Ünïcödé ?") != std::string::npos);  // the snowman has no glyph in Helvetica
  CHECK(text.find("xxxxxxxxxx…") != std::string::npos);  // the 400-character cell is cut to its column
}

TEST_CASE_FIXTURE(Fixture, "a table wider than the page is squeezed into it") {
  ExportTable t;
  t.title = "Largo";
  for (int c = 0; c < 30; ++c) {
    t.columns.push_back("coluna_numero_" + std::to_string(c));
    t.numeric.push_back(false);
  }
  t.rows.push_back(std::vector<std::optional<std::string>>(30, std::string("valor")));
  std::string pdf = cadastre::server::explorer::pdf_document(t);
  std::string text = pdf_text(pdf);
  CHECK(text.find("Largo") != std::string::npos);
  std::size_t cut = 0;
  for (std::size_t at = text.find("…"); at != std::string::npos; at = text.find("…", at + 1)) ++cut;
  CHECK(cut >= 30);  // every header cell shortened to its column
  CHECK(pdf_pages(pdf) == 1);
}
