#include "cadastre/categories.hpp"

#include <simdjson.h>

#include <charconv>
#include <cstdio>
#include <stdexcept>

#include "cadastre/json.hpp"
#include "cadastre/palette.hpp"

namespace cadastre::categories {
namespace {

void write_class(JsonWriter& w, const Class& k, bool ranges) {
  w.begin_object();
  if (ranges) {
    w.key("minimo").value(k.minimo.value_or(0)).key("maximo").value(k.maximo.value_or(0));
  } else if (k.valor) {
    w.key("valor").raw(*k.valor);
  }
  w.key("cor").value(k.cor).key("total").value(k.total).end_object();
}

// A number the writer may have written as an integer ("0") or not.
std::optional<double> number_of(simdjson::dom::object o, const char* key) {
  simdjson::dom::element e;
  if (o[key].get(e)) return std::nullopt;
  if (e.is_int64()) return static_cast<double>(std::int64_t(e));
  if (e.is_uint64()) return static_cast<double>(std::uint64_t(e));
  return double(e);
}

Class read_class(simdjson::dom::object o) {
  Class k;
  simdjson::dom::element e;
  if (!o["valor"].get(e)) k.valor = simdjson::minify(e);
  k.minimo = number_of(o, "minimo");
  k.maximo = number_of(o, "maximo");
  k.cor = std::string(std::string_view(o["cor"]));
  k.total = int64_t(o["total"]);
  return k;
}

// A bound as the legend shows it: 15 significant digits (1/3 → 0.333333333333333).
std::string number_text(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", d);
  return buf;
}

// A bound as the expression compares it: the shortest text that reads back as the same
// double, so a client paints a value in the class the store counted it in (with 15 digits,
// a value between 0.333333333333333 and 1/3 would fall in the next class).
std::string exact_number(double d) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
  return std::string(buf, ec == std::errc() ? end : buf);
}

// The legend's label of a value class: the text itself, Sim/Não for booleans.
std::string value_label(const std::string& json) {
  if (json == "true") return "Sim";
  if (json == "false") return "Não";
  simdjson::dom::parser p;
  std::string_view s;
  if (!p.parse(json).get(s)) return std::string(s);
  return json;
}

}  // namespace

std::int64_t Classes::total() const {
  std::int64_t n = sem_valor.total + (outros ? outros->total : 0);
  for (const Class& k : classes) n += k.total;
  return n;
}

void paint(Classes& c) {
  for (std::size_t i = 0; i < c.classes.size(); ++i)
    c.classes[i].cor = c.tipo == "intervalos" ? palette::hex(palette::ordered(c.paleta, i, c.classes.size()))
                                              : palette::hex(palette::qualitative(i));
  if (c.outros) c.outros->cor = palette::kOthers;
  c.sem_valor.cor = palette::kNoValue;
}

std::string to_json(const Classes& c) {
  bool ranges = c.tipo == "intervalos";
  JsonWriter w;
  w.begin_object().key("idCampo").value(c.campo).key("chave").value(c.chave).key("nome").value(c.nome);
  w.key("tipoCampo").value(c.tipo_campo).key("tipo").value(c.tipo);
  w.key("metodo").value(ranges ? "intervalos_iguais" : "valores_distintos");
  w.key("paleta").value(ranges ? c.paleta : std::string("qualitativa"));
  w.key("classes").begin_array();
  for (const Class& k : c.classes) write_class(w, k, ranges);
  w.end_array().key("outros");
  if (c.outros) write_class(w, *c.outros, false);
  else w.null();
  w.key("semValor");
  write_class(w, c.sem_valor, false);
  w.key("total").value(c.total()).key("geradoEm").value(c.gerado_em).end_object();
  return std::move(w).str();
}

Classes from_json(std::string_view json) {
  simdjson::dom::parser p;
  simdjson::dom::object o;
  if (p.parse(json.data(), json.size()).get(o)) throw std::runtime_error("stored categorias are not an object");
  try {
    Classes c;
    c.campo = int64_t(o["idCampo"]);
    c.chave = std::string(std::string_view(o["chave"]));
    c.nome = std::string(std::string_view(o["nome"]));
    c.tipo_campo = std::string(std::string_view(o["tipoCampo"]));
    c.tipo = std::string(std::string_view(o["tipo"]));
    c.paleta = std::string(std::string_view(o["paleta"]));
    c.gerado_em = std::string(std::string_view(o["geradoEm"]));
    for (simdjson::dom::element k : simdjson::dom::array(o["classes"])) c.classes.push_back(read_class(k));
    simdjson::dom::object outros;
    if (!o["outros"].get(outros)) c.outros = read_class(outros);
    c.sem_valor = read_class(simdjson::dom::object(o["semValor"]));
    return c;
  } catch (const simdjson::simdjson_error& e) {
    throw std::runtime_error(std::string("stored categorias out of shape: ") + e.what());
  }
}

std::string front_json(const Classes& c, std::int64_t layer_id, const std::string& geometria) {
  const std::string get = "[\"get\"," + json_quote(c.chave) + "]";
  const bool ranges = c.tipo == "intervalos";
  const std::string fallback = json_quote(c.outros ? c.outros->cor : c.sem_valor.cor);
  std::string inner;
  if (c.classes.empty()) {
    inner = fallback;
  } else if (ranges) {
    if (c.classes.size() == 1) {
      inner = json_quote(c.classes[0].cor);
    } else {  // step: the first colour below the second class's lower bound, and so on
      inner = "[\"step\",[\"to-number\"," + get + "]," + json_quote(c.classes[0].cor);
      for (std::size_t i = 1; i < c.classes.size(); ++i)
        inner += "," + exact_number(c.classes[i].minimo.value_or(0)) + "," + json_quote(c.classes[i].cor);
      inner += "]";
    }
  } else {  // match on the value as text: true/false become "true"/"false"
    inner = "[\"match\",[\"to-string\"," + get + "]";
    for (const Class& k : c.classes) {
      // A text value is already a JSON string; a boolean becomes its text.
      const std::string& v = *k.valor;
      inner += "," + (v == "true" || v == "false" ? json_quote(v) : v) + "," + json_quote(k.cor);
    }
    inner += "," + fallback + "]";
  }
  const std::string expr = "[\"case\",[\"==\"," + get + ",null]," + json_quote(c.sem_valor.cor) + "," + inner + "]";

  JsonWriter w;
  w.begin_object().key("idCamada").value(layer_id).key("idCampo").value(c.campo).key("propriedade").value(c.chave);
  w.key("tipo").value(c.tipo).key("expressao").raw(expr).key("pintura").begin_object();
  if (geometria == "poligono" || geometria == "qualquer") w.key("fill-color").raw(expr);
  if (geometria == "linha" || geometria == "qualquer") w.key("line-color").raw(expr);
  if (geometria == "ponto" || geometria == "qualquer") w.key("circle-color").raw(expr);
  w.end_object().key("legenda").begin_array();
  for (const Class& k : c.classes) {
    std::string label = ranges ? number_text(k.minimo.value_or(0)) + " – " + number_text(k.maximo.value_or(0))
                               : value_label(*k.valor);
    w.begin_object().key("rotulo").value(label).key("cor").value(k.cor).key("total").value(k.total).end_object();
  }
  if (c.outros)
    w.begin_object().key("rotulo").value("Outros").key("cor").value(c.outros->cor).key("total").value(c.outros->total).end_object();
  w.begin_object().key("rotulo").value("Sem valor").key("cor").value(c.sem_valor.cor).key("total").value(c.sem_valor.total).end_object();
  w.end_array().key("geradoEm").value(c.gerado_em).end_object();
  return std::move(w).str();
}

}  // namespace cadastre::categories
