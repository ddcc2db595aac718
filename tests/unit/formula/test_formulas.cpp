// The formulas of calculated fields (cadastre/formula.hpp), on hand-computed values.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "cadastre/error.hpp"
#include "cadastre/formula.hpp"

using namespace cadastre::formula;

TEST_CASE("formulas: arithmetic, precedence, functions and variables") {
  std::map<std::string, double> v = {{"area", 250}, {"testada", 12.5}, {"fator", 0.8}};
  CHECK(*evaluate("1 + 2 * 3", {}) == 7);
  CHECK(*evaluate("(1 + 2) * 3", {}) == 9);
  CHECK(*evaluate("10 - 4 - 3", {}) == 3);  // left to right
  CHECK(*evaluate("24 / 4 / 2", {}) == 3);
  CHECK(*evaluate("-2 * -3", {}) == 6);
  CHECK(*evaluate("area * fator", v) == 200);
  CHECK(*evaluate("area / testada", v) == 20);
  CHECK(*evaluate("min(area, testada, 3)", v) == 3);
  CHECK(*evaluate("max(area, testada)", v) == 250);
  CHECK(*evaluate("abs(testada - area)", v) == 237.5);
  CHECK(*evaluate("round(2.5)", {}) == 3);
  CHECK(*evaluate("round(-2.5)", {}) == -3);  // half away from zero
  CHECK(*evaluate("round(area / 3, 2)", v) == doctest::Approx(83.33));
  CHECK(*evaluate(".5 + 5.", {}) == 5.5);
  CHECK(variables("area * fator + area / testada") == std::vector<std::string>{"area", "fator", "testada"});
  CHECK(variables("min(1, 2)").empty());
  // A key without a value leaves the result empty.
  CHECK_FALSE(evaluate("area * profundidade", v));

  Formula f = Formula::parse("area * fator");
  CHECK(*f.evaluate(v) == 200);
  CHECK(*f.evaluate({{"area", 10}, {"fator", 2}}) == 20);
}

TEST_CASE("formulas: malformed text, division by zero and deep nesting are clear errors") {
  auto refused = [](std::string_view formula, const std::string& words) {
    try {
      Formula::parse(formula);
      FAIL("accepted: " << formula);
    } catch (const cadastre::Error& e) {
      CHECK(e.code() == cadastre::errc::invalid_argument);
      CHECK(e.field() == "formula");
      CHECK_MESSAGE(std::string(e.what()).find(words) != std::string::npos, e.what());
    }
  };
  refused("", "vazia");
  refused("1 +", "fim inesperado");
  refused("(1 + 2", "')' esperado");
  refused("1 + 2)", "')' inesperado");
  refused("area * Fator", "'F' inesperado");
  refused("pow(2, 3)", "função desconhecida pow");
  refused("abs(1, 2)", "abs recebe um argumento");
  refused("round(1, 2, 3)", "round recebe");
  refused("1..2", "número inválido");
  refused("2 ^ 3", "'^' inesperado");
  refused(std::string(2001, '1'), "longa demais");
  refused(std::string(65, '(') + "1" + std::string(65, ')'), "aninhamento");
  refused(std::string(500, '-') + "1", "aninhamento");
  CHECK(*evaluate(std::string(60, '(') + "1" + std::string(60, ')'), {}) == 1);
  // A long flat chain is not nesting: the evaluator has no recursion.
  std::string chain = "1";
  for (int i = 0; i < 900; ++i) chain += "+1";
  CHECK(*evaluate(chain, {}) == 901);

  try {
    evaluate("area / (testada - 12.5)", {{"area", 1}, {"testada", 12.5}});
    FAIL("no error");
  } catch (const cadastre::Error& e) {
    CHECK(std::string(e.what()) == "formula: divisão por zero");
  }
  CHECK_THROWS_AS(evaluate("round(1, 11)", {}), cadastre::Error);
  CHECK_THROWS_AS(evaluate("a * a * a * a", {{"a", 1e200}}), cadastre::Error);
}
