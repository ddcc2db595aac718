// The classes of a categorised layer (include/cadastre/categories.hpp): their colours, the
// stored JSON and the MapLibre expression a web client paints them with. The counting itself
// (the values ranked by frequency, width_bucket over equal intervals) is the platform
// store's SQL; here the classes are given as the store hands them over, and what a client
// does with them is checked by evaluating the expression the way MapLibre does (case, ==,
// get, to-string, to-number, match, step). Every expected value is worked out by hand.
#include <doctest/doctest.h>
#include <simdjson.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "cadastre/categories.hpp"
#include "cadastre/palette.hpp"

using namespace cadastre::categories;
namespace palette = cadastre::palette;

namespace {

// ---------------------------------------------------------------------------------------
// Classes as the store hands them over.

// Value classes in the store's order (frequency rank), the rest in outros when given.
Classes value_classes(const std::vector<std::pair<std::string, std::int64_t>>& values,
                      std::optional<std::int64_t> outros, std::int64_t sem_valor) {
  Classes c;
  c.campo = 7;
  c.chave = "uso";
  c.nome = "Uso do imóvel";
  c.tipo_campo = "lista";
  c.tipo = "valores";
  c.paleta = "calor";  // the store always sets the requested ramp; values ignore it
  c.gerado_em = "2026-03-01T12:00:00Z";
  for (const auto& [v, n] : values) {
    Class k;
    k.valor = v;
    k.total = n;
    c.classes.push_back(k);
  }
  if (outros) {
    Class o;
    o.total = *outros;
    c.outros = o;
  }
  c.sem_valor.total = sem_valor;
  return c;
}

// Interval classes (minimo, maximo, total) in order.
Classes interval_classes(const std::vector<std::tuple<double, double, std::int64_t>>& intervals,
                         std::int64_t sem_valor, std::string ramp = "cinza") {
  Classes c;
  c.campo = 9;
  c.chave = "area";
  c.nome = "Área (m²)";
  c.tipo_campo = "decimal";
  c.tipo = "intervalos";
  c.paleta = std::move(ramp);
  c.gerado_em = "2026-03-01T12:00:00Z";
  for (const auto& [lo, hi, n] : intervals) {
    Class k;
    k.minimo = lo;
    k.maximo = hi;
    k.total = n;
    c.classes.push_back(k);
  }
  c.sem_valor.total = sem_valor;
  return c;
}

// ---------------------------------------------------------------------------------------
// The expression, evaluated as MapLibre does for one feature whose property `chave` holds
// `v` (null: the feature has no such property).

using Value = std::variant<std::monostate, std::string, double, bool>;

struct Evaluator {
  std::string chave;
  Value property;

  Value eval(simdjson::dom::element e) const {
    if (e.is_null()) return std::monostate{};
    if (e.is_string()) return std::string(std::string_view(e));
    if (e.is_bool()) return bool(e);
    if (e.is_number()) return double(e);
    simdjson::dom::array a = e;
    REQUIRE(a.size() >= 2);
    const std::string op(std::string_view(a.at(0)));
    if (op == "get") {
      CHECK(std::string(std::string_view(a.at(1))) == chave);
      return property;
    }
    if (op == "==") return eval(a.at(1)) == eval(a.at(2));
    if (op == "case") {  // cond, out, ..., fallback
      for (std::size_t i = 1; i + 1 < a.size(); i += 2)
        if (std::get<bool>(eval(a.at(i)))) return eval(a.at(i + 1));
      return eval(a.at(a.size() - 1));
    }
    if (op == "to-string") {
      Value x = eval(a.at(1));
      if (auto* s = std::get_if<std::string>(&x)) return *s;
      if (auto* b = std::get_if<bool>(&x)) return std::string(*b ? "true" : "false");
      if (auto* d = std::get_if<double>(&x)) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", *d);
        return std::string(buf);
      }
      return std::string();
    }
    if (op == "to-number") {
      Value x = eval(a.at(1));
      if (auto* d = std::get_if<double>(&x)) return *d;
      if (auto* s = std::get_if<std::string>(&x)) return std::strtod(s->c_str(), nullptr);
      if (auto* b = std::get_if<bool>(&x)) return *b ? 1.0 : 0.0;
      return 0.0;
    }
    if (op == "match") {  // input, label, out, ..., fallback; labels are literals
      Value x = eval(a.at(1));
      for (std::size_t i = 2; i + 2 < a.size(); i += 2) {
        simdjson::dom::element label = a.at(i);
        REQUIRE((label.is_string() || label.is_number()));
        if (eval(label) == x) return eval(a.at(i + 1));
      }
      return eval(a.at(a.size() - 1));
    }
    if (op == "step") {  // input, out0, stop1, out1, ...: the last stop <= input wins
      double x = std::get<double>(eval(a.at(1)));
      Value out = eval(a.at(2));
      for (std::size_t i = 3; i + 1 < a.size(); i += 2) {
        if (x < double(a.at(i))) break;
        out = eval(a.at(i + 1));
      }
      return out;
    }
    FAIL("unexpected operator " << op);
    return std::monostate{};
  }
};

// The colour a web client paints a feature with, from front_json's expressao.
std::string colour_for(const Classes& c, Value property) {
  const std::string front = front_json(c, 1, "poligono");
  simdjson::dom::parser p;
  simdjson::dom::element root = p.parse(front);
  Evaluator ev{c.chave, std::move(property)};
  return std::get<std::string>(ev.eval(root["expressao"]));
}

std::string text(simdjson::dom::element e) { return std::string(std::string_view(e)); }

// The message of the std::runtime_error `f` throws ("" if it throws none).
template <typename F>
std::string runtime_error_of(F f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Values classes

TEST_CASE("at most kMaxValues value classes: fifty, each coloured by its frequency rank") {
  CHECK(kMaxValues == 50);
  std::vector<std::pair<std::string, std::int64_t>> values;
  for (int i = 0; i < kMaxValues; ++i)  // "v00" 100 times, "v01" 99 times, ... "v49" 51 times
    values.emplace_back("\"v" + std::string(i < 10 ? "0" : "") + std::to_string(i) + "\"", 100 - i);
  Classes c = value_classes(values, /*outros=*/20, /*sem_valor=*/3);
  paint(c);
  REQUIRE(c.classes.size() == 50);
  for (std::size_t i = 0; i < c.classes.size(); ++i) {
    INFO("class " << i);
    CHECK(c.classes[i].cor == palette::hex(palette::qualitative(i)));
  }
  // The first three of the qualitative palette, by hand: (141,211,199) (230,200,60) (190,186,218).
  CHECK(c.classes[0].cor == "#8dd3c7");
  CHECK(c.classes[1].cor == "#e6c83c");
  CHECK(c.classes[2].cor == "#bebada");
  CHECK(c.outros->cor == "#737373");
  CHECK(c.sem_valor.cor == "#bdbdbd");
  // 100 + 99 + ... + 51 = 50 · (100 + 51) / 2 = 3775; + 20 outros + 3 sem valor = 3798.
  CHECK(c.total() == 3798);
}

TEST_CASE("a value outside every class takes the colour of outros") {
  Classes c = value_classes({{"\"residencial\"", 40}, {"\"comercial\"", 12}}, /*outros=*/5, 1);
  paint(c);
  CHECK(colour_for(c, std::string("residencial")) == "#8dd3c7");
  CHECK(colour_for(c, std::string("comercial")) == "#e6c83c");
  CHECK(colour_for(c, std::string("industrial")) == "#737373");  // lumped into outros
}

TEST_CASE("without outros, a value outside every class takes the colour of sem valor") {
  // Every value had a class when counted; one written since has none until recounted.
  Classes c = value_classes({{"\"residencial\"", 40}}, std::nullopt, 2);
  paint(c);
  CHECK_FALSE(c.outros);
  CHECK(colour_for(c, std::string("industrial")) == "#bdbdbd");
}

TEST_CASE("values tied in frequency keep the store's order and take their colours by position") {
  // The store ranks ties by value ("a" before "b"); paint colours by position, not by total.
  Classes c = value_classes({{"\"a\"", 5}, {"\"b\"", 5}}, std::nullopt, 0);
  paint(c);
  CHECK(c.classes[0].cor == "#8dd3c7");
  CHECK(c.classes[1].cor == "#e6c83c");
  CHECK(colour_for(c, std::string("b")) == "#e6c83c");
}

TEST_CASE("one value class: its colour is the qualitative palette's first") {
  Classes c = value_classes({{"\"único\"", 1}}, std::nullopt, 0);
  paint(c);
  CHECK(c.classes[0].cor == palette::hex(palette::qualitative(0)));
  CHECK(colour_for(c, std::string("único")) == "#8dd3c7");
  CHECK(c.total() == 1);
}

TEST_CASE("boolean values match as the text true/false and read Sim/Não in the legend") {
  Classes c = value_classes({{"true", 8}, {"false", 3}}, std::nullopt, 1);
  c.tipo_campo = "booleano";
  paint(c);
  CHECK(colour_for(c, true) == "#8dd3c7");
  CHECK(colour_for(c, false) == "#e6c83c");

  simdjson::dom::parser p;
  simdjson::dom::element front = p.parse(front_json(c, 4, "ponto"));
  simdjson::dom::array match = front["expressao"].at(3);
  CHECK(text(match.at(0)) == "match");
  CHECK(text(match.at(2)) == "true");  // a string label: match takes no boolean labels
  CHECK(text(match.at(4)) == "false");
  simdjson::dom::array legend = front["legenda"];
  CHECK(text(legend.at(0)["rotulo"]) == "Sim");
  CHECK(text(legend.at(1)["rotulo"]) == "Não");
}

// ---------------------------------------------------------------------------------------
// Equal intervals

TEST_CASE("four equal intervals from 0 to 10: lower bound included, the last interval closed") {
  // The store's bounds: lo + (hi - lo) · (i - 1) / k for i = 1..4, k = 4: 0, 2.5, 5, 7.5, 10.
  Classes c = interval_classes({{0, 2.5, 3}, {2.5, 5, 1}, {5, 7.5, 0}, {7.5, 10, 2}}, 4);
  paint(c);
  // cinza runs from (0,0,0) to (255,255,255); class k of 4 sits at t = k/3:
  // 0 → #000000, 255/3 = 85 → #555555, 2·85 = 170 → #aaaaaa, 255 → #ffffff.
  CHECK(c.classes[0].cor == "#000000");
  CHECK(c.classes[1].cor == "#555555");
  CHECK(c.classes[2].cor == "#aaaaaa");
  CHECK(c.classes[3].cor == "#ffffff");

  CHECK(colour_for(c, 0.0) == "#000000");     // the first lower bound
  CHECK(colour_for(c, 2.4999) == "#000000");  // just below the second lower bound
  CHECK(colour_for(c, 2.5) == "#555555");     // a lower bound belongs to its own class
  CHECK(colour_for(c, 5.0) == "#aaaaaa");
  CHECK(colour_for(c, 7.5) == "#ffffff");
  CHECK(colour_for(c, 10.0) == "#ffffff");              // the maximum: in the last class, closed
  CHECK(colour_for(c, std::string("6")) == "#aaaaaa");  // to-number of a text property
  CHECK(c.total() == 10);                               // 3 + 1 + 0 + 2 + 4 sem valor
}

TEST_CASE("a number outside the stored range takes the colour of the nearest end class") {
  // Values written after the count: below the minimum → the first class, above → the last.
  Classes c = interval_classes({{10, 20, 1}, {20, 30, 1}}, 0);
  paint(c);
  CHECK(c.classes[0].cor == "#000000");  // cinza, 2 classes: t = 0 and t = 1
  CHECK(c.classes[1].cor == "#ffffff");
  CHECK(colour_for(c, -5.0) == "#000000");
  CHECK(colour_for(c, 31.0) == "#ffffff");
}

TEST_CASE("one interval (every value equal) paints every number with the ramp's end") {
  // min = max: the store makes one class; ordered(ramp, 0, 1) is the ramp's end, t = 1.
  Classes c = interval_classes({{42, 42, 6}}, 0, "calor");
  paint(c);
  CHECK(c.classes[0].cor == palette::hex(palette::ordered("calor", 0, 1)));
  CHECK(c.classes[0].cor == "#bd0026");  // calor's last stop (189, 0, 38)
  CHECK(colour_for(c, 42.0) == "#bd0026");
  CHECK(colour_for(c, 1000.0) == "#bd0026");

  simdjson::dom::parser p;
  simdjson::dom::element front = p.parse(front_json(c, 1, "poligono"));
  CHECK(text(front["expressao"].at(3)) == "#bd0026");  // a plain colour, no step
  CHECK(text(front["legenda"].at(0)["rotulo"]) == "42 – 42");
}

TEST_CASE("interval colours come from the requested ramp, in order") {
  Classes c =
      interval_classes({{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {3, 4, 1}, {4, 5, 1}}, 0, "viridis");
  paint(c);
  for (std::size_t i = 0; i < 5; ++i) {
    INFO("class " << i);
    CHECK(c.classes[i].cor == palette::hex(palette::ordered("viridis", i, 5)));
  }
  // Five classes on viridis's five stops: t = 0, .25, .5, .75, 1 hit them exactly.
  CHECK(c.classes[0].cor == "#440154");  // (68, 1, 84)
  CHECK(c.classes[1].cor == "#3b528b");  // (59, 82, 139)
  CHECK(c.classes[2].cor == "#21918c");  // (33, 145, 140)
  CHECK(c.classes[3].cor == "#5ec962");  // (94, 201, 98)
  CHECK(c.classes[4].cor == "#fde725");  // (253, 231, 37)
}

TEST_CASE("interval bounds compare exactly in the step and read with 15 digits in the legend") {
  // 0 to 1 in 3: bounds 0, 1/3, 2/3, 1. The step carries the shortest text that reads back
  // as the same double (0.3333333333333333, 16 threes), the legend %.15g (15 threes).
  Classes c = interval_classes({{0, 1.0 / 3, 1}, {1.0 / 3, 2.0 / 3, 1}, {2.0 / 3, 1, 1}}, 0);
  paint(c);
  const std::string front = front_json(c, 1, "poligono");
  CHECK(front.find(",0.3333333333333333,") != std::string::npos);
  CHECK(front.find(",0.6666666666666666,") != std::string::npos);
  CHECK(front.find("\"0 – 0.333333333333333\"") != std::string::npos);
  CHECK(colour_for(c, 0.5) == "#808080");  // the middle class of cinza: t = .5, 127.5 → 128
  // Between 0.333333333333333 and 1/3: below the second class's lower bound, so the first
  // class, as the store counted it (with 15 digits in the step it would be the second).
  CHECK(colour_for(c, 0.3333333333333332) == colour_for(c, 0.1));
}

// ---------------------------------------------------------------------------------------
// The sem valor class

TEST_CASE(
    "a feature without the property takes the colour of sem valor, values and intervals alike") {
  Classes v = value_classes({{"\"residencial\"", 4}}, 2, 9);
  paint(v);
  CHECK(colour_for(v, std::monostate{}) == "#bdbdbd");
  Classes n = interval_classes({{0, 1, 1}, {1, 2, 1}}, 9);
  paint(n);
  CHECK(colour_for(n, std::monostate{}) == "#bdbdbd");  // not to-number(null) = 0 → the first class
  CHECK(palette::kNoValue == std::string("#bdbdbd"));
  CHECK(palette::kOthers == std::string("#737373"));
}

TEST_CASE("a layer where no geometry has a value: no classes, everything is sem valor") {
  Classes c = interval_classes({}, 12);
  paint(c);
  CHECK(c.total() == 12);
  simdjson::dom::parser p;
  simdjson::dom::element front = p.parse(front_json(c, 3, "linha"));
  simdjson::dom::array expr = front["expressao"];
  CHECK(expr.size() == 4);
  CHECK(text(expr.at(2)) == "#bdbdbd");
  CHECK(text(expr.at(3)) == "#bdbdbd");  // the fallback: no outros, so sem valor
  simdjson::dom::array legend = front["legenda"];
  REQUIRE(legend.size() == 1);
  CHECK(text(legend.at(0)["rotulo"]) == "Sem valor");
  CHECK(std::int64_t(legend.at(0)["total"]) == 12);
  CHECK(colour_for(c, 3.0) == "#bdbdbd");
}

// ---------------------------------------------------------------------------------------
// The expression and answer a web client gets

TEST_CASE("values: case on null, then match on the value as text with outros as fallback") {
  Classes c = value_classes({{"\"residencial\"", 40}, {"\"comercial\"", 12}}, 5, 1);
  paint(c);
  simdjson::dom::parser p;
  simdjson::dom::element front = p.parse(front_json(c, 31, "poligono"));
  CHECK(std::int64_t(front["idCamada"]) == 31);
  CHECK(std::int64_t(front["idCampo"]) == 7);
  CHECK(text(front["propriedade"]) == "uso");
  CHECK(text(front["tipo"]) == "valores");
  CHECK(text(front["geradoEm"]) == "2026-03-01T12:00:00Z");

  // ["case", ["==", ["get","uso"], null], "#bdbdbd",
  //  ["match", ["to-string", ["get","uso"]], "residencial", "#8dd3c7", "comercial", "#e6c83c",
  //  "#737373"]]
  simdjson::dom::array expr = front["expressao"];
  REQUIRE(expr.size() == 4);
  CHECK(text(expr.at(0)) == "case");
  simdjson::dom::array is_null = expr.at(1);
  CHECK(text(is_null.at(0)) == "==");
  CHECK(text(is_null.at(1).at(0)) == "get");
  CHECK(text(is_null.at(1).at(1)) == "uso");
  CHECK(is_null.at(2).is_null());
  CHECK(text(expr.at(2)) == "#bdbdbd");
  simdjson::dom::array match = expr.at(3);
  REQUIRE(match.size() == 7);  // op, input, 2 · (label, colour), fallback
  CHECK(text(match.at(0)) == "match");
  CHECK(text(match.at(1).at(0)) == "to-string");
  CHECK(text(match.at(1).at(1).at(1)) == "uso");
  CHECK(text(match.at(2)) == "residencial");
  CHECK(text(match.at(3)) == "#8dd3c7");
  CHECK(text(match.at(4)) == "comercial");
  CHECK(text(match.at(5)) == "#e6c83c");
  CHECK(text(match.at(6)) == "#737373");

  simdjson::dom::array legend = front["legenda"];
  REQUIRE(legend.size() == 4);  // two values, Outros, Sem valor
  CHECK(text(legend.at(0)["rotulo"]) == "residencial");
  CHECK(text(legend.at(0)["cor"]) == "#8dd3c7");
  CHECK(std::int64_t(legend.at(0)["total"]) == 40);
  CHECK(text(legend.at(2)["rotulo"]) == "Outros");
  CHECK(text(legend.at(2)["cor"]) == "#737373");
  CHECK(std::int64_t(legend.at(2)["total"]) == 5);
  CHECK(text(legend.at(3)["rotulo"]) == "Sem valor");
  CHECK(std::int64_t(legend.at(3)["total"]) == 1);
}

TEST_CASE("intervals: case on null, then step over to-number with each class's lower bound") {
  Classes c = interval_classes({{0, 2.5, 3}, {2.5, 5, 1}, {5, 7.5, 0}, {7.5, 10, 2}}, 4);
  paint(c);
  simdjson::dom::parser p;
  simdjson::dom::element front = p.parse(front_json(c, 2, "poligono"));
  CHECK(text(front["tipo"]) == "intervalos");
  // [..., ["step", ["to-number", ["get","area"]], "#000000", 2.5, "#555555", 5, "#aaaaaa", 7.5,
  // "#ffffff"]]
  simdjson::dom::array step = front["expressao"].at(3);
  REQUIRE(step.size() ==
          9);  // op, input, first colour, 3 · (stop, colour): no stop for the first class
  CHECK(text(step.at(0)) == "step");
  CHECK(text(step.at(1).at(0)) == "to-number");
  CHECK(text(step.at(1).at(1).at(1)) == "area");
  CHECK(text(step.at(2)) == "#000000");
  CHECK(double(step.at(3)) == 2.5);
  CHECK(text(step.at(4)) == "#555555");
  CHECK(double(step.at(5)) == 5.0);
  CHECK(text(step.at(6)) == "#aaaaaa");
  CHECK(double(step.at(7)) == 7.5);
  CHECK(text(step.at(8)) == "#ffffff");

  simdjson::dom::array legend = front["legenda"];
  REQUIRE(legend.size() == 5);  // four intervals and Sem valor; no Outros for intervals
  CHECK(text(legend.at(0)["rotulo"]) == "0 – 2.5");
  CHECK(text(legend.at(3)["rotulo"]) == "7.5 – 10");
  CHECK(text(legend.at(3)["cor"]) == "#ffffff");
  CHECK(text(legend.at(4)["rotulo"]) == "Sem valor");
}

TEST_CASE("the paint properties follow the layer's geometry, each the same expression") {
  Classes c = value_classes({{"\"a\"", 1}}, std::nullopt, 0);
  paint(c);
  struct Case {
    const char* geometria;
    bool fill, line, circle;
  };
  for (Case k : {Case{"poligono", true, false, false}, Case{"linha", false, true, false},
                 Case{"ponto", false, false, true}, Case{"qualquer", true, true, true}}) {
    INFO(k.geometria);
    simdjson::dom::parser p;
    simdjson::dom::element front = p.parse(front_json(c, 1, k.geometria));
    const std::string expr = simdjson::minify(front["expressao"]);
    simdjson::dom::object pintura = front["pintura"];
    CHECK(pintura.size() == std::size_t(k.fill) + k.line + k.circle);
    for (auto [key, want] : {std::pair{"fill-color", k.fill}, std::pair{"line-color", k.line},
                             std::pair{"circle-color", k.circle}}) {
      simdjson::dom::element e;
      bool has = !pintura[key].get(e);
      CHECK(has == want);
      if (has) CHECK(simdjson::minify(e) == expr);
    }
  }
}

TEST_CASE("a text value with quotes and a key with odd characters stay valid JSON") {
  Classes c = value_classes({{"\"casa \\\"A\\\"\"", 2}}, std::nullopt, 0);  // the text: casa "A"
  c.chave = "uso \"x\"";
  paint(c);
  simdjson::dom::parser p;
  simdjson::dom::element front = p.parse(front_json(c, 1, "poligono"));
  CHECK(text(front["propriedade"]) == "uso \"x\"");
  CHECK(text(front["expressao"].at(3).at(2)) == "casa \"A\"");
  CHECK(text(front["legenda"].at(0)["rotulo"]) == "casa \"A\"");
  CHECK(colour_for(c, std::string("casa \"A\"")) == "#8dd3c7");
}

// ---------------------------------------------------------------------------------------
// The stored JSON

TEST_CASE("the stored JSON of value classes: metodo, a qualitative paleta, outros and the total") {
  Classes c = value_classes({{"\"residencial\"", 40}, {"\"comercial\"", 12}}, 5, 1);
  paint(c);
  simdjson::dom::parser p;
  simdjson::dom::element j = p.parse(to_json(c));
  CHECK(std::int64_t(j["idCampo"]) == 7);
  CHECK(text(j["chave"]) == "uso");
  CHECK(text(j["nome"]) == "Uso do imóvel");
  CHECK(text(j["tipoCampo"]) == "lista");
  CHECK(text(j["tipo"]) == "valores");
  CHECK(text(j["metodo"]) == "valores_distintos");
  CHECK(text(j["paleta"]) == "qualitativa");  // not the requested ramp: values ignore it
  simdjson::dom::array classes = j["classes"];
  REQUIRE(classes.size() == 2);
  CHECK(text(classes.at(0)["valor"]) == "residencial");
  CHECK(text(classes.at(0)["cor"]) == "#8dd3c7");
  CHECK(std::int64_t(classes.at(0)["total"]) == 40);
  CHECK(text(j["outros"]["cor"]) == "#737373");
  CHECK(std::int64_t(j["outros"]["total"]) == 5);
  CHECK(text(j["semValor"]["cor"]) == "#bdbdbd");
  CHECK(std::int64_t(j["total"]) == 58);  // 40 + 12 + 5 + 1
  CHECK(text(j["geradoEm"]) == "2026-03-01T12:00:00Z");
}

TEST_CASE("the stored JSON of intervals: intervalos_iguais, the ramp, no outros") {
  Classes c = interval_classes({{0, 2.5, 3}, {2.5, 5, 1}}, 4, "azul");
  paint(c);
  simdjson::dom::parser p;
  simdjson::dom::element j = p.parse(to_json(c));
  CHECK(text(j["metodo"]) == "intervalos_iguais");
  CHECK(text(j["paleta"]) == "azul");
  CHECK(j["outros"].is_null());
  simdjson::dom::array classes = j["classes"];
  CHECK(double(classes.at(1)["minimo"]) == 2.5);
  CHECK(double(classes.at(1)["maximo"]) == 5.0);
  simdjson::dom::element ignored;
  CHECK(classes.at(0)["valor"].get(ignored) != simdjson::SUCCESS);  // no valor in an interval
  CHECK(std::int64_t(j["total"]) == 8);                             // 3 + 1 + 4
}

TEST_CASE("stored classes read back as they were written") {
  Classes v =
      value_classes({{"\"residencial\"", 40}, {"true", 3}, {"\"casa \\\"A\\\"\"", 1}}, 5, 1);
  paint(v);
  Classes back = from_json(to_json(v));
  CHECK(back.campo == 7);
  CHECK(back.chave == "uso");
  CHECK(back.nome == "Uso do imóvel");
  CHECK(back.tipo_campo == "lista");
  CHECK(back.tipo == "valores");
  CHECK(back.paleta == "qualitativa");  // what was stored
  CHECK(back.gerado_em == "2026-03-01T12:00:00Z");
  REQUIRE(back.classes.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    INFO("class " << i);
    CHECK(back.classes[i].valor == v.classes[i].valor);
    CHECK(back.classes[i].cor == v.classes[i].cor);
    CHECK(back.classes[i].total == v.classes[i].total);
    CHECK_FALSE(back.classes[i].minimo);
  }
  REQUIRE(back.outros);
  CHECK(back.outros->total == 5);
  CHECK(back.outros->cor == "#737373");
  CHECK(back.sem_valor.total == 1);
  CHECK(back.total() == v.total());

  // Whole-number bounds, which the writer may write as integers ("0"), read back as numbers.
  Classes n = interval_classes({{0, 2.5, 3}, {2.5, 5, 1}, {5, 7.5, 0}, {7.5, 10, 2}}, 4);
  paint(n);
  Classes nb = from_json(to_json(n));
  CHECK_FALSE(nb.outros);
  REQUIRE(nb.classes.size() == 4);
  CHECK(*nb.classes[0].minimo == 0.0);
  CHECK(*nb.classes[3].maximo == 10.0);
  CHECK(*nb.classes[1].minimo == 2.5);
  CHECK_FALSE(nb.classes[0].valor);
  CHECK(front_json(nb, 2, "poligono") == front_json(n, 2, "poligono"));
}

TEST_CASE("bounds stored as integers, beyond int64 too, read back as numbers") {
  Classes c = from_json(
      R"({"idCampo":9,"chave":"area","nome":"Área","tipoCampo":"inteiro","tipo":"intervalos",)"
      R"("metodo":"intervalos_iguais","paleta":"cinza","classes":[{"minimo":0,"maximo":18446744073709551615,)"
      R"("cor":"#000000","total":2}],"outros":null,"semValor":{"cor":"#bdbdbd","total":0},"total":2,)"
      R"("geradoEm":"2026-03-01T12:00:00Z"})");
  REQUIRE(c.classes.size() == 1);
  CHECK(*c.classes[0].minimo == 0.0);                     // int64
  CHECK(*c.classes[0].maximo == 18446744073709551615.0);  // beyond int64: uint64
}

// ---------------------------------------------------------------------------------------
// Refusals

TEST_CASE("stored categorias that are not a JSON object are refused") {
  CHECK(runtime_error_of([] { from_json("[1,2]"); }) == "stored categorias are not an object");
  CHECK(runtime_error_of([] { from_json("{\"idCampo\":"); }) ==
        "stored categorias are not an object");
  CHECK(runtime_error_of([] { from_json(""); }) == "stored categorias are not an object");
}

TEST_CASE("stored categorias out of shape are refused, naming the shape") {
  auto out_of_shape = [](const std::string& json) {
    std::string m = runtime_error_of([&] { from_json(json); });
    INFO(json << " → " << m);
    CHECK(m.rfind("stored categorias out of shape: ", 0) == 0);
  };
  Classes c = value_classes({{"\"a\"", 1}}, std::nullopt, 0);
  paint(c);
  const std::string good = to_json(c);
  REQUIRE_NOTHROW(from_json(good));
  auto without = [&](const std::string& member, const std::string& replacement) {
    std::string s = good;
    std::size_t at = s.find(member);
    REQUIRE(at != std::string::npos);
    return s.replace(at, member.size(), replacement);
  };
  out_of_shape(without("\"semValor\"", "\"semvalor\""));                // a required member missing
  out_of_shape(without("\"idCampo\":7", "\"idCampo\":\"7\""));          // a number as text
  out_of_shape(without("\"classes\":[", "\"classes\":\"x\",\"y\":["));  // classes not an array
  out_of_shape(without("\"cor\":\"#8dd3c7\",", ""));  // a class without its colour
}

TEST_CASE("intervals on an unknown ramp are refused by the palette") {
  // The route refuses an unknown paleta first (400 naming paleta); paint itself throws.
  Classes c = interval_classes({{0, 1, 1}, {1, 2, 1}}, 0, "magma");
  CHECK_THROWS_AS(paint(c), std::invalid_argument);
  // Values ignore the ramp: an unknown one is no matter there.
  Classes v = value_classes({{"\"a\"", 1}}, std::nullopt, 0);
  v.paleta = "magma";
  CHECK_NOTHROW(paint(v));
}
