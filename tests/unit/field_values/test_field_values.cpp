// The values of form fields (include/cadastre/field_values.hpp): checks of client values,
// the `padrao` pattern's vetting, and conversions between types with Brazilian habits.
// Every expected value below is worked out by hand.
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <string>

#include "cadastre/error.hpp"
#include "cadastre/field_values.hpp"

using namespace cadastre::field_values;

namespace {

FieldDef field(std::string tipo) {
  FieldDef f;
  f.chave = "campo";
  f.nome = "Campo";
  f.tipo = std::move(tipo);
  return f;
}

// The stored text of an accepted value (fails the test on a problem).
std::string accepted(const FieldDef& f, std::string_view json) {
  Checked c = check_value(f, json);
  INFO(f.tipo << " " << json << ": " << c.problem);
  REQUIRE(c.ok());
  REQUIRE(c.value);
  CHECK(c.value->column == column_of(f.tipo));
  return c.value->text.value_or("<null>");
}

std::string problem(const FieldDef& f, std::string_view json) {
  Checked c = check_value(f, json);
  INFO(f.tipo << " " << json);
  CHECK_FALSE(c.ok());
  CHECK_FALSE(c.value);
  return c.problem;
}

std::string converted(const FieldDef& to, std::string column, std::string text) {
  Checked c = convert(field("texto"), Typed{std::move(column), std::move(text)}, to);
  INFO(to.tipo << ": " << c.problem);
  REQUIRE(c.ok());
  return c.value->text.value_or("<null>");
}

std::string not_converted(const FieldDef& to, std::string column, std::string text) {
  Checked c = convert(field("texto"), Typed{std::move(column), std::move(text)}, to);
  CHECK_FALSE(c.ok());
  return c.problem;
}

}  // namespace

TEST_CASE("every type has its family: the type of its column in the layer's table") {
  CHECK(type_names().size() == 11);
  CHECK(column_of("texto") == "texto");
  CHECK(column_of("texto_longo") == "texto");
  CHECK(column_of("lista") == "texto");
  CHECK(column_of("lista_dominio") == "texto");
  CHECK(column_of("foto") == "texto");
  CHECK(column_of("inteiro") == "numero");
  CHECK(column_of("decimal") == "numero");
  CHECK(column_of("calculado") == "numero");
  CHECK(column_of("data") == "data");
  CHECK(column_of("booleano") == "booleano");
  CHECK(column_of("multipla") == "lista");
  CHECK(column_of("outro").empty());
  for (const auto& t : type_names()) CHECK_FALSE(column_of(t).empty());
}

TEST_CASE("an empty value is stored as null unless the field is required") {
  for (const char* t : {"texto", "inteiro", "data", "booleano", "lista", "multipla"}) {
    FieldDef f = field(t);
    CHECK(accepted(f, "null") == "<null>");
    f.obrigatorio = true;
    CHECK(problem(f, "null") == "obrigatório");
  }
  FieldDef f = field("texto");
  CHECK(accepted(f, R"("")") == "<null>");
  f.obrigatorio = true;
  CHECK(problem(f, R"("")") == "obrigatório");
  FieldDef m = field("multipla");
  m.opcoes = {"a"};
  CHECK(accepted(m, "[]") == "<null>");
}

TEST_CASE("texts: length bounds in characters, not bytes, and the pattern") {
  FieldDef f = field("texto");
  f.minimo = "2";
  f.maximo = "4";
  CHECK(accepted(f, R"("ação")") == "ação");  // 4 characters, 6 bytes
  CHECK(problem(f, R"("a")") == "menos que o mínimo de 2 caracteres");
  CHECK(problem(f, R"("ações")") == "mais que o máximo de 4 caracteres");
  CHECK(problem(f, "12") == "esperado um texto");

  FieldDef cep = field("texto");
  cep.padrao = R"(\d{5}-\d{3})";
  CHECK(accepted(cep, R"("88010-000")") == "88010-000");
  CHECK(problem(cep, R"("88010000")") == R"(não segue o padrão \d{5}-\d{3})");
  CHECK(problem(cep, R"("x88010-000")").find("padrão") != std::string::npos);  // the whole text must match

  FieldDef shortish = field("texto");
  CHECK(problem(shortish, "\"" + std::string(1001, 'a') + "\"") == "texto longo demais (até 1000 caracteres)");
  FieldDef longer = field("texto_longo");
  CHECK(accepted(longer, "\"" + std::string(1001, 'a') + "\"").size() == 1001);
}

TEST_CASE("a pattern with nested repetition is refused; a long text is not matched at all") {
  CHECK(pattern_problem(R"(\d{5}-\d{3})").empty());
  CHECK(pattern_problem(R"(^[A-Z]{3}-?\d[A-Z0-9]\d{2}$)").empty());  // a Mercosul plate
  CHECK(pattern_problem(R"((\d{3}\.){2}\d{3}-\d{2})").empty());     // bounded repetition: a CPF
  CHECK(pattern_problem("(ab)+").empty());
  CHECK_FALSE(pattern_problem("(a+)+$").empty());
  CHECK_FALSE(pattern_problem("(a|aa)*b").empty());
  CHECK_FALSE(pattern_problem("((a*)b)*").empty());
  CHECK_FALSE(pattern_problem("(x+x+)+y").empty());
  CHECK_FALSE(pattern_problem(R"((a)\1)").empty());
  CHECK_FALSE(pattern_problem("(abc").empty());
  CHECK_FALSE(pattern_problem("").empty());

  // A pattern stored before the vetting still cannot hang a write: past 1000 characters the
  // text is refused before the engine sees it.
  FieldDef f = field("texto_longo");
  f.padrao = "(a+)+$";
  auto start = std::chrono::steady_clock::now();
  std::string p = problem(f, "\"" + std::string(5000, 'a') + "!\"");
  CHECK(p == "texto longo demais para conferir o padrão (até 1000 caracteres)");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
}

TEST_CASE("integers: int64 only, bounds inclusive") {
  FieldDef f = field("inteiro");
  CHECK(accepted(f, "42") == "42");
  CHECK(accepted(f, "-9223372036854775808") == "-9223372036854775808");
  CHECK(accepted(f, "9223372036854775807") == "9223372036854775807");
  CHECK(accepted(f, "12.0") == "12");
  CHECK(problem(f, "9223372036854775808") == "inteiro fora do intervalo de 64 bits");
  CHECK(problem(f, "1e30") == "inteiro fora do intervalo de 64 bits");
  CHECK(problem(f, "12.5") == "esperado um número inteiro");
  CHECK(problem(f, R"("12")") == "esperado um número inteiro");
  CHECK(problem(f, "true") == "esperado um número inteiro");
  f.minimo = "0";
  f.maximo = "100";
  CHECK(accepted(f, "0") == "0");
  CHECK(accepted(f, "100") == "100");
  CHECK(problem(f, "101") == "acima do máximo 100");
  CHECK(problem(f, "-1") == "abaixo do mínimo 0");
}

TEST_CASE("decimals keep the digits the client wrote") {
  FieldDef f = field("decimal");
  CHECK(accepted(f, "12.50") == "12.50");
  CHECK(accepted(f, " 0.1 ") == "0.1");
  CHECK(accepted(f, "3") == "3");
  CHECK(accepted(f, "-2.5e3") == "-2.5e3");  // PostgreSQL's numeric reads it as -2500
  CHECK(problem(f, R"("12,5")") == "esperado um número");
  f.minimo = "0.5";
  f.maximo = "2.5";
  CHECK(problem(f, "0.49") == "abaixo do mínimo 0.5");
  CHECK(problem(f, "2.51") == "acima do máximo 2.5");
  CHECK(accepted(f, "2.5") == "2.5");
}

TEST_CASE("dates: ISO and real calendar days") {
  FieldDef f = field("data");
  CHECK(accepted(f, R"("2024-02-29")") == "2024-02-29");  // 2024 is a leap year
  CHECK(accepted(f, R"("2000-02-29")") == "2000-02-29");  // divisible by 400
  CHECK(problem(f, R"("1900-02-29")").find("data inválida") == 0);  // by 100, not 400
  CHECK(problem(f, R"("2023-02-29")").find("data inválida") == 0);
  CHECK(problem(f, R"("2024-04-31")").find("data inválida") == 0);
  CHECK(problem(f, R"("2024-13-01")").find("data inválida") == 0);
  CHECK(problem(f, R"("31/12/2024")").find("data inválida") == 0);  // clients send ISO
  CHECK(problem(f, R"("2024-1-01")").find("data inválida") == 0);
  CHECK(problem(f, "20240101") == "esperado um texto");
}

TEST_CASE("booleans, lists, multiple choices, photos and calculated fields") {
  FieldDef b = field("booleano");
  CHECK(accepted(b, "true") == "true");
  CHECK(accepted(b, "false") == "false");
  CHECK(problem(b, R"("sim")") == "esperado verdadeiro ou falso");

  FieldDef l = field("lista");
  l.opcoes = {"casa", "apartamento"};
  CHECK(accepted(l, R"("casa")") == "casa");
  CHECK(problem(l, R"("Casa")") == "não é uma das opções: Casa");

  FieldDef m = field("multipla");
  m.opcoes = {"água", "luz", "esgoto"};
  CHECK(accepted(m, R"(["luz","água"])") == R"(["luz","água"])");
  CHECK(problem(m, R"(["luz","luz"])") == "opção repetida: luz");
  CHECK(problem(m, R"(["gás"])") == "opção desconhecida: gás");
  CHECK(problem(m, R"("luz")") == "esperada uma lista de opções");
  CHECK(problem(m, "[1]") == "esperada uma lista de opções (textos)");
  m.maximo = "2";
  CHECK(problem(m, R"(["luz","água","esgoto"])") == "mais que o máximo de 2 opções");

  FieldDef d = field("lista_dominio");
  CHECK(accepted(d, R"("plano")") == "plano");
  CHECK(accepted(d, "7") == "7");

  FieldDef foto = field("foto");
  CHECK(accepted(foto, R"("fotos/2024/lote-12.jpg")") == "fotos/2024/lote-12.jpg");
  CHECK(accepted(foto, R"("https://arquivos.exemplo.gov.br/f/1.jpg")") == "https://arquivos.exemplo.gov.br/f/1.jpg");
  CHECK(problem(foto, R"("../../etc/passwd")") == "referência de foto inválida");
  CHECK(problem(foto, R"("/etc/passwd")") == "referência de foto inválida");
  CHECK(problem(foto, R"("foto com espaço.jpg")") == "referência de foto inválida");

  FieldDef c = field("calculado");
  CHECK(problem(c, "12").find("calculado") != std::string::npos);
  CHECK(problem(c, "null").find("calculado") != std::string::npos);
}

TEST_CASE("a value that is not JSON is a problem, not an exception") {
  FieldDef f = field("texto");
  CHECK(problem(f, "{") == "valor não é JSON válido");
  CHECK(problem(f, "\"a\" \"b\"") == "valor não é JSON válido");
}

TEST_CASE("to_json gives the typed JSON of a stored value") {
  CHECK(to_json({"texto", "a\"b"}) == R"("a\"b")");
  CHECK(to_json({"numero", "12.50"}) == "12.50");
  CHECK(to_json({"numero", "-0.5"}) == "-0.5");
  CHECK(to_json({"numero", "NaN"}) == "null");
  CHECK(to_json({"data", "2024-12-31"}) == R"("2024-12-31")");
  CHECK(to_json({"booleano", "t"}) == "true");
  CHECK(to_json({"booleano", "false"}) == "false");
  CHECK(to_json({"lista", R"(["a", "b"])"}) == R"(["a", "b"])");
  CHECK(to_json({"texto", std::nullopt}) == "null");
}

TEST_CASE("converting texts to numbers reads them the Brazilian way") {
  FieldDef dec = field("decimal"), integer = field("inteiro");
  CHECK(converted(dec, "texto", "12,5") == "12.5");
  CHECK(converted(dec, "texto", "1.234,56") == "1234.56");
  CHECK(converted(dec, "texto", "1.234.567,8") == "1234567.8");
  CHECK(converted(dec, "texto", " -0,25 ") == "-0.25");
  CHECK(converted(dec, "texto", "12.5") == "12.5");  // a point that does not group three digits
  CHECK(converted(dec, "texto", "007") == "7");
  CHECK(converted(integer, "texto", "1.234") == "1234");  // groups of three: thousands
  CHECK(converted(integer, "texto", "12,00") == "12");
  CHECK(converted(integer, "numero", "12.000") == "12");
  CHECK(not_converted(integer, "texto", "12,5") == "'12,5' não é um número inteiro");
  CHECK(not_converted(integer, "numero", "12.50") == "'12.50' não é um número inteiro");
  CHECK(not_converted(dec, "texto", "doze") == "'doze' não é um número");
  CHECK(not_converted(dec, "texto", "1.23,4") == "'1.23,4' não é um número");
  CHECK(not_converted(dec, "texto", "1,2,3") == "'1,2,3' não é um número");
  CHECK(not_converted(integer, "texto", "99999999999999999999") ==
        "'99999999999999999999' está fora do intervalo dos inteiros");
  CHECK(not_converted(dec, "data", "2024-01-01") == "'2024-01-01' não é um número");
  // The target's rules hold for converted values.
  integer.maximo = "100";
  CHECK(not_converted(integer, "texto", "1.000") == "'1.000': acima do máximo 100");
}

TEST_CASE("converting to booleans and dates") {
  FieldDef b = field("booleano");
  CHECK(converted(b, "texto", "Sim") == "true");
  CHECK(converted(b, "texto", "NÃO") == "false");
  CHECK(converted(b, "texto", "nao") == "false");
  CHECK(converted(b, "texto", " s ") == "true");
  CHECK(converted(b, "numero", "1") == "true");
  CHECK(converted(b, "numero", "0.00") == "false");
  CHECK(not_converted(b, "texto", "talvez") == "'talvez' não é sim nem não");
  CHECK(not_converted(b, "numero", "2") == "'2' não é sim nem não");

  FieldDef d = field("data");
  CHECK(converted(d, "texto", "31/12/2024") == "2024-12-31");
  CHECK(converted(d, "texto", "1/2/2024") == "2024-02-01");
  CHECK(converted(d, "texto", "29-02-2024") == "2024-02-29");
  CHECK(converted(d, "texto", "2024-12-31") == "2024-12-31");
  CHECK(not_converted(d, "texto", "31/02/2024").find("não é uma data válida") != std::string::npos);
  CHECK(not_converted(d, "texto", "12/31/2024").find("não é uma data válida") != std::string::npos);
  CHECK(not_converted(d, "texto", "31/12/24").find("não é uma data válida") != std::string::npos);
}

TEST_CASE("converting to texts, lists and multiple choices") {
  FieldDef t = field("texto");
  CHECK(converted(t, "numero", "12.50") == "12.50");
  CHECK(converted(t, "booleano", "t") == "sim");
  CHECK(converted(t, "booleano", "f") == "não");
  CHECK(converted(t, "data", "2024-12-31") == "2024-12-31");
  CHECK(converted(t, "lista", R"(["água", "luz"])") == "água; luz");

  FieldDef l = field("lista");
  l.opcoes = {"casa", "terreno"};
  CHECK(converted(l, "texto", "casa") == "casa");
  CHECK(not_converted(l, "texto", "sobrado") == "'sobrado': não é uma das opções: sobrado");

  FieldDef m = field("multipla");
  m.opcoes = {"água", "luz", "esgoto"};
  CHECK(converted(m, "texto", "água; luz; água") == R"(["água","luz"])");
  CHECK(converted(m, "texto", "luz, esgoto") == R"(["luz","esgoto"])");
  CHECK(converted(m, "texto", "luz") == R"(["luz"])");
  CHECK(not_converted(m, "texto", "luz; gás") == "'luz; gás': opção desconhecida: gás");

  CHECK(converted(t, "texto", "x") == "x");
  Checked empty = convert(field("texto"), Typed{"texto", std::nullopt}, field("inteiro"));
  REQUIRE(empty.ok());
  CHECK(empty.value->column == "numero");
  CHECK_FALSE(empty.value->text);
  CHECK_FALSE(convert(field("inteiro"), Typed{"numero", "1"}, field("calculado")).ok());
}

TEST_CASE("a conversion not described fails and succeeds as the described one, without the sentence") {
  FieldDef required = field("inteiro");
  required.obrigatorio = true;  // a conversion keeps an empty value empty even so
  required.maximo = "100";
  for (const auto& [column, text] : std::vector<std::pair<std::string, std::string>>{
           {"texto", "12"}, {"texto", "1.234"}, {"texto", "Rua A, 2"}, {"texto", "2,5"}, {"texto", " 7 "},
           {"numero", "99.0"}, {"data", "2024-12-31"}, {"texto", "101"}}) {
    Typed stored{column, text};
    Checked described = convert(field("texto"), stored, required);
    Checked quiet = convert(field("texto"), stored, required, false);
    INFO(column << " " << text);
    CHECK(described.ok() == quiet.ok());
    if (described.ok()) {
      CHECK(quiet.value->text == described.value->text);
    } else {
      CHECK(described.problem.find("'" + text + "'") == 0);  // the described sentence names the value
      CHECK(quiet.problem.find(text) == std::string::npos);
    }
  }
  CHECK(convert(field("texto"), Typed{"texto", "Rua A"}, field("decimal"), false).problem == kUndescribed);
  CHECK(convert(field("texto"), Typed{"texto", "Rua A"}, field("data"), false).problem == kUndescribed);
  CHECK(convert(field("texto"), Typed{"texto", "talvez"}, field("booleano"), false).problem == kUndescribed);
  Checked empty = convert(field("texto"), Typed{"texto", ""}, required, false);
  CHECK_FALSE(empty.ok());  // an empty text is no number; a NULL would stay NULL
}

TEST_CASE("display shows a stored value as a report prints it") {
  CHECK(display(Typed{"texto", "Rua A"}) == "Rua A");
  CHECK(display(Typed{"numero", "1.50"}) == "1.50");  // the stored scale, not a float's rounding
  CHECK(display(Typed{"data", "2024-12-31"}) == "2024-12-31");
  CHECK(display(Typed{"booleano", "true"}) == "sim");
  CHECK(display(Typed{"booleano", "f"}) == "não");
  CHECK(display(Typed{"lista", R"(["água","luz"])"}) == "água, luz");
  CHECK(display(Typed{"lista", "[]"}) == "");
  CHECK_FALSE(display(Typed{"texto", std::nullopt}));
}
