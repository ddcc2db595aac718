// The definitions of form fields and the converter's plans
// (include/cadastre/field_definitions.hpp): validate's rules per type, apply's changes,
// plan_conversion and plan_split. Every expected value below is worked out by hand.
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cadastre/error.hpp"
#include "cadastre/field_definitions.hpp"

using namespace cadastre::field_values;
using cadastre::errc;

namespace {

// A valid definition of `tipo` (the rules of the types that need more are added by the tests).
Definition definition(std::string tipo, std::string chave = "area", std::string nome = "Área") {
  Definition d;
  d.def.id = 7;
  d.def.chave = std::move(chave);
  d.def.nome = std::move(nome);
  d.def.tipo = std::move(tipo);
  d.formulario = 3;
  d.ordem = 4;
  return d;
}

struct Refusal {
  errc code = errc::internal;
  std::string field, message;
};

// The Error `run` throws (fails the test when it throws none).
template <class F>
Refusal refusal(F&& run) {
  try {
    run();
  } catch (const cadastre::Error& e) {
    return {e.code(), e.field(), e.what()};
  }
  FAIL("no error thrown");
  return {};
}

// The attribute validate() names when it refuses `d`; every refusal is invalid_argument.
std::string refused(const Definition& d) {
  Refusal r = refusal([&] { validate(d); });
  CHECK(r.code == errc::invalid_argument);
  return r.field;
}

StoredValue text_value(std::int64_t id, std::int64_t geometria, std::optional<std::string> text) {
  return {id, geometria, Typed{"texto", std::move(text)}};
}

}  // namespace

// ---------------------------------------------------------------------------------------
// validate

TEST_CASE("a definition of each plain type with a name and a key is valid") {
  for (const char* t : {"texto", "texto_longo", "inteiro", "decimal", "data", "booleano", "foto"})
    CHECK_NOTHROW(validate(definition(t)));
}

TEST_CASE("nome must have 1 to 200 characters and not be blank") {
  CHECK(refused(definition("texto", "area", "")) == "nome");
  CHECK(refused(definition("texto", "area", " \t ")) == "nome");
  CHECK_NOTHROW(validate(definition("texto", "area", std::string(200, 'a'))));
  CHECK(refused(definition("texto", "area", std::string(201, 'a'))) == "nome");
}

TEST_CASE("chave: lowercase letters, digits and _, starting with a letter, at most 63") {
  CHECK_NOTHROW(validate(definition("texto", "area_construida_2")));
  CHECK_NOTHROW(validate(definition("texto", "a")));
  CHECK_NOTHROW(validate(definition("texto", std::string(63, 'a'))));
  CHECK(refused(definition("texto", std::string(64, 'a'))) == "chave");
  CHECK(refused(definition("texto", "")) == "chave");
  CHECK(refused(definition("texto", "1area")) == "chave");
  CHECK(refused(definition("texto", "_area")) == "chave");
  CHECK(refused(definition("texto", "Area")) == "chave");
  CHECK(refused(definition("texto", "área")) == "chave");
  CHECK(refused(definition("texto", "area-1")) == "chave");
}

TEST_CASE("an unknown tipo is refused with the list of the types") {
  Refusal r = refusal([] { validate(definition("moeda")); });
  CHECK(r.code == errc::invalid_argument);
  CHECK(r.field == "tipo");
  CHECK(r.message ==
        "tipo deve ser um de: texto, texto_longo, inteiro, decimal, data, booleano, lista, lista_dominio, "
        "multipla, foto, calculado");
}

TEST_CASE("the first rule broken is the one named: nome before chave before tipo") {
  CHECK(refused(definition("moeda", "1x", "")) == "nome");
  CHECK(refused(definition("moeda", "1x", "Área")) == "chave");
}

TEST_CASE("bounds_kind: numbers are bounded by value, texts and multiple choices by count") {
  CHECK(bounds_kind("inteiro") == "numero");
  CHECK(bounds_kind("decimal") == "numero");
  CHECK(bounds_kind("texto") == "tamanho");
  CHECK(bounds_kind("texto_longo") == "tamanho");
  CHECK(bounds_kind("multipla") == "tamanho");
  // No bounds at all: a calculated number takes its value from the formula.
  for (const char* t : {"data", "booleano", "lista", "lista_dominio", "foto", "calculado", "", "moeda"})
    CHECK(bounds_kind(t).empty());
}

TEST_CASE("is_text_type: only texto and texto_longo") {
  CHECK(is_text_type("texto"));
  CHECK(is_text_type("texto_longo"));
  for (const char* t : {"lista", "lista_dominio", "foto", "inteiro", "multipla", ""}) CHECK_FALSE(is_text_type(t));
}

TEST_CASE("minimo must not exceed maximo; equal bounds are accepted") {
  Definition d = definition("inteiro");
  d.def.minimo = "10";
  d.def.maximo = "5";
  Refusal r = refusal([&] { validate(d); });
  CHECK(r.field == "minimo");
  CHECK(r.message == "minimo deve ser menor ou igual a maximo");

  d.def.maximo = "10";
  CHECK_NOTHROW(validate(d));
  // Compared as numbers, not texts: "9" < "10" although '9' > '1'.
  d.def.minimo = "9";
  CHECK_NOTHROW(validate(d));
  // Negative and fractional bounds suit a number.
  Definition dec = definition("decimal");
  dec.def.minimo = "-2.5";
  dec.def.maximo = "-0.5";
  CHECK_NOTHROW(validate(dec));
}

TEST_CASE("bounds on a type without bounds name the bound given") {
  Definition d = definition("data");
  d.def.minimo = "1";
  Refusal r = refusal([&] { validate(d); });
  CHECK(r.field == "minimo");
  CHECK(r.message == "minimo não se aplica ao tipo data");

  Definition b = definition("booleano");
  b.def.maximo = "1";
  CHECK(refused(b) == "maximo");

  Definition c = definition("calculado");
  c.def.formula = "1 + 1";
  c.def.minimo = "0";
  CHECK(refused(c) == "minimo");
}

TEST_CASE("a length bound is a whole number from 0 to 1e9") {
  Definition d = definition("texto");
  d.def.minimo = "0";
  d.def.maximo = "1000000000";
  CHECK_NOTHROW(validate(d));
  d.def.maximo = "1000000001";
  CHECK(refused(d) == "maximo");
  d.def.maximo = "2.5";
  CHECK(refused(d) == "maximo");
  d.def.maximo = std::nullopt;
  d.def.minimo = "-1";
  CHECK(refused(d) == "minimo");
  // A multiple choice's bounds count options, the same rule.
  Definition m = definition("multipla");
  m.def.opcoes = {"a", "b"};
  m.def.maximo = "1.5";
  CHECK(refused(m) == "maximo");
}

TEST_CASE("a list needs options; other types take none") {
  for (const char* t : {"lista", "multipla"}) {
    Definition d = definition(t);
    Refusal r = refusal([&] { validate(d); });
    CHECK(r.field == "opcoes");
    CHECK(r.message == std::string("o tipo ") + t + " pede opcoes (uma lista de textos)");
    d.def.opcoes = {"Casa", "Apartamento"};
    CHECK_NOTHROW(validate(d));
  }
  Definition t = definition("texto");
  t.def.opcoes = {"a"};
  CHECK(refused(t) == "opcoes");
}

TEST_CASE("options: 1 to 200 characters each, no repeats, at most 500") {
  Definition d = definition("lista");
  d.def.opcoes = {"Casa", "Casa"};
  Refusal r = refusal([&] { validate(d); });
  CHECK(r.field == "opcoes");
  CHECK(r.message == "opcoes: opção repetida Casa");

  d.def.opcoes = {"Casa", "  "};
  CHECK(refused(d) == "opcoes");
  d.def.opcoes = {"Casa", ""};
  CHECK(refused(d) == "opcoes");
  d.def.opcoes = {std::string(200, 'x')};
  CHECK_NOTHROW(validate(d));
  d.def.opcoes = {std::string(201, 'x')};
  CHECK(refused(d) == "opcoes");

  d.def.opcoes.clear();
  for (int i = 0; i < 500; ++i) d.def.opcoes.push_back("o" + std::to_string(i));
  CHECK_NOTHROW(validate(d));
  d.def.opcoes.push_back("o500");  // the 501st
  CHECK(refused(d) == "opcoes");
}

TEST_CASE("padrao applies to texts only and an unsafe pattern is refused") {
  Definition d = definition("texto");
  d.def.padrao = "[0-9]{5}-[0-9]{3}";  // a CEP
  CHECK_NOTHROW(validate(d));
  d.def.tipo = "texto_longo";
  CHECK_NOTHROW(validate(d));

  d.def.tipo = "inteiro";
  Refusal r = refusal([&] { validate(d); });
  CHECK(r.field == "padrao");
  CHECK(r.message == "padrao só se aplica aos tipos texto e texto_longo");

  d.def.tipo = "texto";
  d.def.padrao = "(a+)+$";  // nested repetition: catastrophic backtracking
  r = refusal([&] { validate(d); });
  CHECK(r.field == "padrao");
  CHECK(r.message.rfind("padrao: ", 0) == 0);

  d.def.padrao = "(a)\\1";  // a back-reference
  CHECK(refused(d) == "padrao");
  d.def.padrao = "[a-";  // does not compile
  CHECK(refused(d) == "padrao");
}

TEST_CASE("lista_dominio needs a domain with a table's name; other types take none") {
  Definition d = definition("lista_dominio");
  Refusal r = refusal([&] { validate(d); });
  CHECK(r.field == "dominio");
  CHECK(r.message == "o tipo lista_dominio pede dominio (uma tabela do esquema dominio)");

  d.def.dominio = "bairros";
  CHECK_NOTHROW(validate(d));
  d.def.dominio = "Bairros";
  CHECK(refused(d) == "dominio");
  d.def.dominio = "bairros; drop table x";
  CHECK(refused(d) == "dominio");

  Definition t = definition("texto");
  t.def.dominio = "bairros";
  CHECK(refused(t) == "dominio");
}

TEST_CASE("calculado needs a formula that parses; other types take none") {
  Definition d = definition("calculado");
  Refusal r = refusal([&] { validate(d); });
  CHECK(r.field == "formula");
  CHECK(r.message == "o tipo calculado pede formula");

  d.def.formula = "area_terreno * 2 + 1";
  CHECK_NOTHROW(validate(d));
  d.def.formula = "area_terreno *";  // the parser's own error, naming formula
  r = refusal([&] { validate(d); });
  CHECK(r.code == errc::invalid_argument);
  CHECK(r.field == "formula");

  Definition t = definition("decimal");
  t.def.formula = "1 + 1";
  r = refusal([&] { validate(t); });
  CHECK(r.field == "formula");
  CHECK(r.message == "formula só se aplica ao tipo calculado");
}

TEST_CASE("unico does not apply to booleans, multiple choices and calculated fields") {
  Definition b = definition("booleano");
  b.def.unico = true;
  CHECK(refused(b) == "unico");
  Definition m = definition("multipla");
  m.def.opcoes = {"a"};
  m.def.unico = true;
  CHECK(refused(m) == "unico");
  Definition c = definition("calculado");
  c.def.formula = "1";
  c.def.unico = true;
  CHECK(refused(c) == "unico");
  for (const char* t : {"texto", "inteiro", "data", "foto"}) {
    Definition d = definition(t);
    d.def.unico = true;
    CHECK_NOTHROW(validate(d));
  }
}

TEST_CASE("avaliacao is a variable name, ajuda at most 2000 bytes, ordem from 0") {
  Definition d = definition("decimal");
  d.avaliacao = "area_terreno";
  d.ajuda = std::string(2000, 'a');
  d.ordem = 0;
  CHECK_NOTHROW(validate(d));

  d.avaliacao = "Area";
  CHECK(refused(d) == "avaliacao");
  d.avaliacao = "2area";
  CHECK(refused(d) == "avaliacao");
  d.avaliacao = std::nullopt;

  d.ajuda = std::string(2001, 'a');
  CHECK(refused(d) == "ajuda");
  d.ajuda = std::nullopt;

  d.ordem = -1;
  CHECK(refused(d) == "ordem");
}

// ---------------------------------------------------------------------------------------
// apply

TEST_CASE("apply with no changes keeps every attribute") {
  Definition base = definition("lista");
  base.def.obrigatorio = true;
  base.def.opcoes = {"a", "b"};
  base.def.minimo = "1";
  base.ajuda = "ajuda";
  base.avaliacao = "area";
  Definition d = apply(base, Changes{});
  CHECK(d.def.id == 7);
  CHECK(d.def.nome == "Área");
  CHECK(d.def.chave == "area");
  CHECK(d.def.tipo == "lista");
  CHECK(d.def.obrigatorio);
  CHECK(d.def.opcoes == std::vector<std::string>{"a", "b"});
  CHECK(d.def.minimo == "1");
  CHECK(d.ajuda == "ajuda");
  CHECK(d.avaliacao == "area");
  CHECK(d.formulario == 3);
  CHECK(d.ordem == 4);
  CHECK(d.ativo);
}

TEST_CASE("apply sets what is present and a nullable holding null clears it") {
  Definition base = definition("inteiro");
  base.def.minimo = "1";
  base.def.maximo = "10";
  base.ajuda = "antes";
  base.avaliacao = "area";

  Changes c;
  c.nome = "Área construída";
  c.obrigatorio = true;
  c.unico = true;
  c.ativo = false;
  c.ordem = 9;
  c.minimo = std::optional<std::string>("0");  // set
  c.maximo.emplace();                          // null: cleared
  c.ajuda.emplace();                           // null: cleared
  // avaliacao absent: kept

  Definition d = apply(base, c);
  CHECK(d.def.nome == "Área construída");
  CHECK(d.def.chave == "area");  // absent: kept
  CHECK(d.def.tipo == "inteiro");
  CHECK(d.def.obrigatorio);
  CHECK(d.def.unico);
  CHECK_FALSE(d.ativo);
  CHECK(d.ordem == 9);
  CHECK(d.def.minimo == "0");
  CHECK_FALSE(d.def.maximo);
  CHECK_FALSE(d.ajuda);
  CHECK(d.avaliacao == "area");
  CHECK(d.def.id == 7);        // never changed by apply
  CHECK(d.formulario == 3);
}

TEST_CASE("apply replaces the options, or clears them with null") {
  Definition base = definition("lista");
  base.def.opcoes = {"a", "b"};
  Changes set;
  set.opcoes = std::optional<std::vector<std::string>>(std::vector<std::string>{"c"});
  CHECK(apply(base, set).def.opcoes == std::vector<std::string>{"c"});
  Changes clear;
  clear.opcoes.emplace();
  CHECK(apply(base, clear).def.opcoes.empty());
}

TEST_CASE("apply does not validate: a change that breaks a rule is validate's to refuse") {
  Definition base = definition("texto");
  Changes c;
  c.tipo = "lista";  // without options
  Definition d = apply(base, c);
  CHECK(d.def.tipo == "lista");
  CHECK(refused(d) == "opcoes");
}

// ---------------------------------------------------------------------------------------
// plan_conversion

TEST_CASE("convertible_to: the types that need nothing the converter cannot derive") {
  for (const char* t : {"texto", "texto_longo", "inteiro", "decimal", "data", "booleano", "lista", "multipla"})
    CHECK(convertible_to(t));
  for (const char* t : {"lista_dominio", "foto", "calculado", "", "moeda"}) CHECK_FALSE(convertible_to(t));
}

TEST_CASE("plan_conversion refuses a type it cannot take and the field's own type") {
  Definition f = definition("texto");
  for (const char* t : {"calculado", "foto", "lista_dominio", "moeda"}) {
    Refusal r = refusal([&] { plan_conversion(f, {}, t); });
    CHECK(r.code == errc::invalid_argument);
    CHECK(r.field == "tipo");
  }
  Refusal r = refusal([&] { plan_conversion(f, {}, "texto"); });
  CHECK(r.field == "tipo");
  CHECK(r.message == "tipo: o campo já é do tipo texto");
}

TEST_CASE("texts become integers the Brazilian way; each value is a write or one failure") {
  Definition f = definition("texto");
  std::vector<StoredValue> values = {
      text_value(1, 101, "12"),
      text_value(2, 102, "1.234"),  // dots grouping threes are thousands: 1234
      text_value(3, 103, "12,0"),   // a zero fraction is still an integer: 12
      text_value(4, 104, "12,5"),
      text_value(5, 105, "abc"),
      text_value(6, 106, std::nullopt),  // empty: stays empty
      text_value(7, 107, "-3"),
  };
  Plan p = plan_conversion(f, values, "inteiro");
  CHECK(p.total == 7);
  REQUIRE(p.failures.size() == 2);
  CHECK(p.converted() == 5);  // 7 - 2
  CHECK(p.writes.size() + p.failures.size() == p.total);

  REQUIRE(p.writes.size() == 5);
  CHECK(p.writes[0].valor == 1);
  CHECK(p.writes[0].geometria == 101);
  CHECK(p.writes[0].campo == 0);
  CHECK(p.writes[0].antes == "\"12\"");
  CHECK(p.writes[0].depois.column == "numero");
  CHECK(p.writes[0].depois.text == "12");
  CHECK(p.writes[1].depois.text == "1234");
  CHECK(p.writes[2].depois.text == "12");
  CHECK(p.writes[3].valor == 6);
  CHECK(p.writes[3].antes == "null");
  CHECK(p.writes[3].depois.column == "numero");
  CHECK_FALSE(p.writes[3].depois.text);
  CHECK(p.writes[4].depois.text == "-3");

  CHECK(p.failures[0].valor == 4);
  CHECK(p.failures[0].geometria == 104);
  CHECK(p.failures[0].json == "\"12,5\"");
  CHECK(p.failures[0].motivo == "'12,5' não é um número inteiro");
  CHECK(p.failures[1].valor == 5);
  CHECK(p.failures[1].motivo == "'abc' não é um número");

  REQUIRE(p.campos.size() == 1);
  CHECK(p.campos[0].def.tipo == "inteiro");
  CHECK(p.campos[0].def.chave == "area");
  CHECK(p.campos[0].def.id == 7);
}

TEST_CASE("a dry run's plan counts what converts and keeps no writes") {
  std::vector<StoredValue> values = {text_value(1, 101, "12"), text_value(2, 102, "abc"), text_value(3, 103, "7")};
  Plan p = plan_conversion(definition("texto"), values, "inteiro", false);
  CHECK(p.total == 3);
  CHECK(p.converted() == 2);
  CHECK(p.writes.empty());
  REQUIRE(p.failures.size() == 1);
  CHECK(p.failures[0].valor == 2);
}

TEST_CASE("a conversion planned value by value is the plan of the whole vector") {
  std::vector<StoredValue> values = {text_value(1, 101, "12"), text_value(2, 102, "abc"), text_value(3, 103, "1.234")};
  ConversionPlanner planner(definition("texto"), "inteiro");
  CHECK_FALSE(planner.needs_every_value());
  for (const auto& v : values) planner.add(v);
  Plan p = std::move(planner).finish();
  Plan whole = plan_conversion(definition("texto"), values, "inteiro");
  CHECK(p.total == whole.total);
  CHECK(p.failed == whole.failed);
  REQUIRE(p.writes.size() == 2);
  CHECK(p.writes[1].depois.text == "1234");
  CHECK(p.failures[0].valor == whole.failures[0].valor);
  REQUIRE(p.campos.size() == 1);
  CHECK(p.campos[0].def.tipo == "inteiro");
  // A list without options takes them from every value first.
  ConversionPlanner list(definition("texto"), "lista");
  CHECK(list.needs_every_value());
  list.options_from(values);
  for (const auto& v : values) list.add(v);
  Plan l = std::move(list).finish();
  CHECK(l.failed == 0);
  CHECK(l.campos[0].def.opcoes == std::vector<std::string>{"12", "abc", "1.234"});
  CHECK_THROWS_AS(ConversionPlanner(definition("texto"), "geometria"), cadastre::Error);
}

TEST_CASE("a plan describes its first 1,000 failures and counts the others") {
  ConversionPlanner planner(definition("texto"), "decimal", false);
  for (std::int64_t i = 1; i <= 2500; ++i) planner.add(text_value(i, 100 + i, i % 2 ? "Rua " + std::to_string(i) : "7"));
  Plan p = std::move(planner).finish();
  CHECK(p.total == 2500);
  CHECK(p.failed == 1250);
  CHECK(p.converted() == 1250);
  REQUIRE(p.failures.size() == kKeptFailures);
  CHECK(p.failures.front().valor == 1);
  CHECK(p.failures.front().motivo == "'Rua 1' não é um número");
  CHECK(p.failures.back().valor == 1999);
  CHECK(p.failures.back().motivo == "'Rua 1999' não é um número");
}

TEST_CASE("texts become decimals: comma decimal, dotted thousands, or a lone decimal point") {
  Definition f = definition("texto");
  Plan p = plan_conversion(f,
                           {text_value(1, 1, "12,5"), text_value(2, 1, "1.234,56"), text_value(3, 1, "12.5"),
                            text_value(4, 1, " 7 "), text_value(5, 1, "R$ 10")},
                           "decimal");
  REQUIRE(p.writes.size() == 4);
  CHECK(p.writes[0].depois.text == "12.5");
  CHECK(p.writes[1].depois.text == "1234.56");  // "1.234" are thousands, ",56" the fraction
  CHECK(p.writes[2].depois.text == "12.5");     // "12.5" does not group three digits: a point
  CHECK(p.writes[3].depois.text == "7");        // trimmed
  REQUIRE(p.failures.size() == 1);
  CHECK(p.failures[0].valor == 5);
  CHECK(p.failures[0].motivo == "'R$ 10' não é um número");
}

TEST_CASE("texts become dates written dd/mm/aaaa, d/m/aaaa, with - or . too, or ISO") {
  Definition f = definition("texto");
  Plan p = plan_conversion(f,
                           {text_value(1, 1, "31/12/2024"), text_value(2, 1, "1/2/2024"),
                            text_value(3, 1, "31.12.2024"), text_value(4, 1, "2024-02-29"),
                            text_value(5, 1, "29/02/2023"), text_value(6, 1, "31/12/24")},
                           "data");
  REQUIRE(p.writes.size() == 4);
  CHECK(p.writes[0].depois.column == "data");
  CHECK(p.writes[0].depois.text == "2024-12-31");
  CHECK(p.writes[1].depois.text == "2024-02-01");  // day 1 of February
  CHECK(p.writes[2].depois.text == "2024-12-31");
  CHECK(p.writes[3].depois.text == "2024-02-29");  // 2024 is a leap year
  REQUIRE(p.failures.size() == 2);
  // 2023 is not a leap year (2023 % 4 = 3): no 29 February.
  CHECK(p.failures[0].motivo == "'29/02/2023' não é uma data válida (dd/mm/aaaa ou aaaa-mm-dd)");
  CHECK(p.failures[1].valor == 6);  // a two-digit year is not read
}

TEST_CASE("texts become booleans: sim/não, s/n, x, 1/0, any case, não with or without its accent") {
  Definition f = definition("texto");
  Plan p = plan_conversion(f,
                           {text_value(1, 1, "Sim"), text_value(2, 1, "NÃO"), text_value(3, 1, "nao"),
                            text_value(4, 1, "x"), text_value(5, 1, "0"), text_value(6, 1, "talvez")},
                           "booleano");
  REQUIRE(p.writes.size() == 5);
  CHECK(p.writes[0].depois.column == "booleano");
  CHECK(p.writes[0].depois.text == "true");
  CHECK(p.writes[1].depois.text == "false");
  CHECK(p.writes[2].depois.text == "false");
  CHECK(p.writes[3].depois.text == "true");
  CHECK(p.writes[4].depois.text == "false");
  REQUIRE(p.failures.size() == 1);
  CHECK(p.failures[0].motivo == "'talvez' não é sim nem não");
}

TEST_CASE("no values: an empty plan that still retypes the field") {
  Plan p = plan_conversion(definition("texto"), {}, "inteiro");
  CHECK(p.total == 0);
  CHECK(p.converted() == 0);
  CHECK(p.writes.empty());
  CHECK(p.failures.empty());
  REQUIRE(p.campos.size() == 1);
  CHECK(p.campos[0].def.tipo == "inteiro");
}

TEST_CASE("rules that mean the same under the new type are kept and checked; the others dropped") {
  // texto → texto_longo: the length bound and the pattern still hold.
  Definition t = definition("texto");
  t.def.maximo = "5";
  t.def.padrao = "[a-z]+";
  t.def.unico = true;
  Plan p = plan_conversion(t, {text_value(1, 1, "abc"), text_value(2, 1, "abcdefg"), text_value(3, 1, "ab1")},
                           "texto_longo");
  REQUIRE(p.campos.size() == 1);
  CHECK(p.campos[0].def.maximo == "5");
  CHECK(p.campos[0].def.padrao == "[a-z]+");
  CHECK(p.campos[0].def.unico);
  REQUIRE(p.writes.size() == 1);
  CHECK(p.writes[0].depois.text == "abc");
  REQUIRE(p.failures.size() == 2);
  CHECK(p.failures[0].motivo == "'abcdefg': mais que o máximo de 5 caracteres");  // 7 > 5
  CHECK(p.failures[1].motivo == "'ab1': não segue o padrão [a-z]+");

  // texto → inteiro: a length of 2 is no bound on the number, the pattern goes too.
  t.def.minimo = "2";
  Plan n = plan_conversion(t, {text_value(1, 1, "1")}, "inteiro");
  CHECK_FALSE(n.campos[0].def.minimo);
  CHECK_FALSE(n.campos[0].def.maximo);
  CHECK_FALSE(n.campos[0].def.padrao);
  CHECK(n.failures.empty());  // 1 < 2 would have failed a kept bound

  // decimal → inteiro: the numeric bounds are kept.
  Definition d = definition("decimal");
  d.def.maximo = "100";
  Plan i = plan_conversion(
      d, {{1, 1, Typed{"numero", "150.0"}}, {2, 1, Typed{"numero", "99.5"}}, {3, 1, Typed{"numero", "42.00"}}},
      "inteiro");
  CHECK(i.campos[0].def.maximo == "100");
  REQUIRE(i.writes.size() == 1);
  CHECK(i.writes[0].antes == "42.00");
  CHECK(i.writes[0].depois.text == "42");
  REQUIRE(i.failures.size() == 2);
  CHECK(i.failures[0].motivo == "'150.0': acima do máximo 100");  // 150 > 100
  CHECK(i.failures[1].motivo == "'99.5' não é um número inteiro");

  // → booleano: unico goes (two values only).
  Definition u = definition("texto");
  u.def.unico = true;
  CHECK_FALSE(plan_conversion(u, {}, "booleano").campos[0].def.unico);
}

TEST_CASE("a list without options takes the distinct values found, in order of appearance") {
  Definition f = definition("texto");
  Plan p = plan_conversion(f,
                           {text_value(1, 1, "Casa"), text_value(2, 1, "Apto"), text_value(3, 1, "Casa"),
                            text_value(4, 1, std::nullopt)},
                           "lista");
  REQUIRE(p.campos.size() == 1);
  CHECK(p.campos[0].def.opcoes == std::vector<std::string>{"Casa", "Apto"});
  CHECK(p.failures.empty());
  REQUIRE(p.writes.size() == 4);
  CHECK(p.writes[2].depois.column == "texto");
  CHECK(p.writes[2].depois.text == "Casa");
}

TEST_CASE("a multiple choice without options takes the items of the texts, split at ; or ,") {
  Definition f = definition("texto");
  // "a; b" splits at ";" → a, b; "b, c" has no ";" and splits at "," → b, c.
  Plan p = plan_conversion(f, {text_value(1, 1, "a; b"), text_value(2, 1, "b, c")}, "multipla");
  CHECK(p.campos[0].def.opcoes == std::vector<std::string>{"a", "b", "c"});
  REQUIRE(p.writes.size() == 2);
  CHECK(p.writes[0].depois.column == "lista");
  CHECK(p.writes[0].depois.text == "[\"a\",\"b\"]");
  CHECK(p.writes[1].depois.text == "[\"b\",\"c\"]");
}

TEST_CASE("a list keeps the field's own options and a value outside them fails") {
  Definition f = definition("multipla");
  f.def.opcoes = {"a", "b"};
  Plan p = plan_conversion(f, {{1, 1, Typed{"lista", "[\"a\"]"}}, {2, 1, Typed{"lista", "[\"a\",\"b\"]"}}}, "lista");
  CHECK(p.campos[0].def.opcoes == std::vector<std::string>{"a", "b"});
  REQUIRE(p.writes.size() == 1);
  CHECK(p.writes[0].antes == "[\"a\"]");
  CHECK(p.writes[0].depois.text == "a");
  REQUIRE(p.failures.size() == 1);
  // The two options read as one text "a; b", not an option of the list.
  CHECK(p.failures[0].motivo == "'a; b': não é uma das opções: a; b");
}

TEST_CASE("more than 500 distinct values cannot make a list") {
  std::vector<StoredValue> values;
  for (int i = 0; i < 501; ++i) values.push_back(text_value(i + 1, i + 1, "v" + std::to_string(i)));
  Refusal r = refusal([&] { plan_conversion(definition("texto"), values, "lista"); });
  CHECK(r.code == errc::invalid_argument);
  CHECK(r.field == "tipo");
  CHECK(r.message == "tipo: os valores têm 501 opções distintas, mais que as 500 de uma lista");
  values.pop_back();  // exactly 500
  CHECK(plan_conversion(definition("texto"), values, "lista").campos[0].def.opcoes.size() == 500);
}

// ---------------------------------------------------------------------------------------
// plan_split

TEST_CASE("plan_split splits texts into chave_1..n, as many as the most parts of a value") {
  Definition f = definition("texto", "endereco", "Endereço");
  Plan p = plan_split(f,
                      {text_value(1, 101, "Rua A, 10"), text_value(2, 102, "Rua B, 20, fundos"),
                       text_value(3, 103, std::nullopt)},
                      "texto", ",");
  CHECK(p.total == 3);
  CHECK(p.failures.empty());
  CHECK(p.converted() == 3);
  REQUIRE(p.campos.size() == 3);  // "Rua B, 20, fundos" has three parts
  for (std::size_t n = 0; n < 3; ++n) {
    CHECK(p.campos[n].def.chave == "endereco_" + std::to_string(n + 1));
    CHECK(p.campos[n].def.nome == "Endereço " + std::to_string(n + 1));
    CHECK(p.campos[n].def.tipo == "texto");
    CHECK(p.campos[n].def.id == 0);  // new fields
    CHECK(p.campos[n].formulario == 3);
    CHECK(p.campos[n].ordem == 4);
  }
  // 2 parts + 3 parts; the empty value writes nothing.
  REQUIRE(p.writes.size() == 5);
  CHECK(p.writes[0].valor == 0);  // a new row
  CHECK(p.writes[0].geometria == 101);
  CHECK(p.writes[0].campo == 0);
  CHECK(p.writes[0].antes == "\"Rua A, 10\"");
  CHECK(p.writes[0].depois.column == "texto");
  CHECK(p.writes[0].depois.text == "Rua A");
  CHECK(p.writes[1].campo == 1);
  CHECK(p.writes[1].depois.text == "10");  // trimmed
  CHECK(p.writes[4].geometria == 102);
  CHECK(p.writes[4].campo == 2);
  CHECK(p.writes[4].depois.text == "fundos");
}

TEST_CASE("plan_split: an empty part keeps its place and writes nothing; no separator is one part") {
  Definition f = definition("texto", "cod");
  Plan p = plan_split(f, {text_value(1, 1, "a;;c"), text_value(2, 2, "abc")}, "texto", ";");
  REQUIRE(p.campos.size() == 3);
  REQUIRE(p.writes.size() == 3);
  CHECK(p.writes[0].campo == 0);
  CHECK(p.writes[1].campo == 2);  // "c" is still the third part
  CHECK(p.writes[1].depois.text == "c");
  CHECK(p.writes[2].geometria == 2);
  CHECK(p.writes[2].campo == 0);
  CHECK(p.writes[2].depois.text == "abc");
  // A separator of several characters.
  Plan q = plan_split(f, {text_value(1, 1, "a - b")}, "texto", " - ");
  REQUIRE(q.writes.size() == 2);
  CHECK(q.writes[1].depois.text == "b");
}

TEST_CASE("plan_split: a value whose part fails is one failure listing every failing part") {
  Definition f = definition("texto", "medidas");
  Plan p = plan_split(f, {text_value(1, 11, "10;x;y"), text_value(2, 12, "1.234;5;6")}, "inteiro", ";");
  REQUIRE(p.campos.size() == 3);
  CHECK(p.campos[0].def.tipo == "inteiro");
  REQUIRE(p.failures.size() == 1);
  CHECK(p.failures[0].valor == 1);
  CHECK(p.failures[0].geometria == 11);
  CHECK(p.failures[0].json == "\"10;x;y\"");
  CHECK(p.failures[0].motivo == "parte 2: 'x' não é um número; parte 3: 'y' não é um número");
  // Nothing of the failing value is written, not even its good part "10".
  REQUIRE(p.writes.size() == 3);
  for (const auto& w : p.writes) CHECK(w.geometria == 12);
  CHECK(p.writes[0].depois.text == "1234");
  CHECK(p.converted() == 1);  // 2 values - 1 failure
}

TEST_CASE("plan_split: at most 20 parts; a value with more fails and makes no fields") {
  auto joined = [](int n) {
    std::string s;
    for (int i = 1; i <= n; ++i) s += (i > 1 ? ";" : "") + std::to_string(i);
    return s;
  };
  Definition f = definition("texto", "partes");
  Plan p = plan_split(f, {text_value(1, 1, "a;b"), text_value(2, 2, joined(21))}, "texto", ";");
  CHECK(p.campos.size() == 2);  // from "a;b": the 21 parts do not count
  REQUIRE(p.failures.size() == 1);
  CHECK(p.failures[0].valor == 2);
  CHECK(p.failures[0].motivo == "tem 21 partes; no máximo 20");
  CHECK(p.writes.size() == 2);

  Plan twenty = plan_split(f, {text_value(1, 1, joined(20))}, "texto", ";");
  REQUIRE(twenty.campos.size() == 20);
  CHECK(twenty.campos[19].def.chave == "partes_20");
  CHECK(twenty.writes.size() == 20);
  CHECK(twenty.failures.empty());
}

TEST_CASE("plan_split: the new keys must fit in 63 characters") {
  // 61 + "_" + "2" = 63: fits.
  Plan ok = plan_split(definition("texto", std::string(61, 'k')), {text_value(1, 1, "a,b")}, "texto", ",");
  CHECK(ok.campos[1].def.chave == std::string(61, 'k') + "_2");
  // 62 + "_" + "2" = 64: too long.
  Refusal r = refusal(
      [] { plan_split(definition("texto", std::string(62, 'k')), {text_value(1, 1, "a,b")}, "texto", ","); });
  CHECK(r.code == errc::invalid_argument);
  CHECK(r.field == "chave");
  // 60 + "_" + "10" = 63 fits ten fields; 61 + "_" + "10" = 64 does not.
  std::string ten = "1,2,3,4,5,6,7,8,9,10";
  CHECK(plan_split(definition("texto", std::string(60, 'k')), {text_value(1, 1, ten)}, "texto", ",").campos.size() ==
        10);
  CHECK(refusal([&] {
          plan_split(definition("texto", std::string(61, 'k')), {text_value(1, 1, ten)}, "texto", ",");
        }).field == "chave");
}

TEST_CASE("plan_split: a long name is cut at 190 bytes without cutting a character") {
  // 189 'a' then "ç" (2 bytes: 189 and 190): byte 190 is inside the ç, so the cut falls
  // back to 189 bytes.
  std::string nome = std::string(189, 'a') + "ç";
  Plan p = plan_split(definition("texto", "x", nome), {text_value(1, 1, "a|b")}, "texto", "|");
  REQUIRE(p.campos.size() == 2);
  CHECK(p.campos[0].def.nome == std::string(189, 'a') + " 1");
  // A name of 190 bytes or less is whole.
  Plan q = plan_split(definition("texto", "x", "Endereço"), {text_value(1, 1, "a")}, "texto", "|");
  CHECK(q.campos[0].def.nome == "Endereço 1");
}

TEST_CASE("plan_split into lists derives each new field's options from its own parts") {
  Definition f = definition("texto", "uso");
  Plan p = plan_split(f,
                      {text_value(1, 1, "Casa;Térreo"), text_value(2, 2, "Apto;1º andar"),
                       text_value(3, 3, "Casa;Térreo")},
                      "lista", ";");
  REQUIRE(p.campos.size() == 2);
  CHECK(p.campos[0].def.opcoes == std::vector<std::string>{"Casa", "Apto"});
  CHECK(p.campos[1].def.opcoes == std::vector<std::string>{"Térreo", "1º andar"});
  CHECK(p.failures.empty());
  CHECK(p.writes.size() == 6);
}

TEST_CASE("plan_split refuses a field that is not text and a type it cannot take") {
  Refusal r = refusal([] { plan_split(definition("inteiro"), {}, "texto", ","); });
  CHECK(r.code == errc::invalid_argument);
  CHECK(r.field == "split");
  CHECK(r.message == "split: só campos de texto se dividem (o campo é inteiro)");
  r = refusal([] { plan_split(definition("texto"), {}, "foto", ","); });
  CHECK(r.field == "tipo");
  // texto_longo splits too; no values make no fields.
  Plan p = plan_split(definition("texto_longo"), {}, "texto", ",");
  CHECK(p.total == 0);
  CHECK(p.campos.empty());
}

TEST_CASE("a plan counts every failure and describes the first kKeptFailures, in the values' order") {
  Definition f = definition("texto");
  std::vector<StoredValue> values;
  for (std::int64_t i = 1; i <= 1500; ++i) values.push_back(text_value(i, 100 + i, "rua " + std::to_string(i)));
  values.push_back(text_value(1501, 1601, "42"));
  Plan p = plan_conversion(f, values, "decimal");
  CHECK(p.total == 1501);
  CHECK(p.failed == 1500);
  CHECK(p.converted() == 1);
  REQUIRE(p.failures.size() == kKeptFailures);
  CHECK(p.failures.front().valor == 1);
  CHECK(p.failures.back().valor == 1000);
  CHECK(p.failures.back().motivo == "'rua 1000' não é um número");
  REQUIRE(p.writes.size() == 1);
  CHECK(p.writes[0].depois.text == "42");
}
