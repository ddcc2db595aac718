// Result lookup helpers and its JSON rendering (the shape the servers and the Python
// binding expose: keep it stable).
#include "cadastre/json.hpp"
#include "cadastre/valuation.hpp"

namespace cadastre::valuation {
namespace {

void write(JsonWriter& w, const Result& r) {
  w.begin_object();
  w.key("tipo").value(r.kind);
  w.key("valor").value(r.value);
  w.key("formula").value(r.formula);
  w.key("fatores").begin_array();
  for (const auto& f : r.factors) {
    w.begin_object();
    w.key("nome").value(f.name).key("valor").value(f.value);
    w.key("entrada").value(f.input).key("regra").value(f.rule);
    w.end_object();
  }
  w.end_array();
  w.key("intermediarios").begin_object();
  for (const auto& [name, value] : r.values) w.key(name).value(value);
  w.end_object();
  w.key("faixas").begin_array();
  for (const auto& b : r.bands) {
    w.begin_object();
    w.key("de").value(b.from);
    w.key("ate");
    if (b.to) {
      w.value(*b.to);
    } else {
      w.null();
    }
    w.key("aliquota").value(b.rate).key("base").value(b.base).key("imposto").value(b.tax);
    w.end_object();
  }
  w.end_array();
  w.key("componentes").begin_array();
  for (const auto& c : r.components) write(w, c);
  w.end_array();
  w.end_object();
}

}  // namespace

std::optional<double> Result::value_of(std::string_view name) const {
  for (const auto& [n, v] : values) {
    if (n == name) return v;
  }
  return std::nullopt;
}

const Factor* Result::factor(std::string_view name) const {
  for (const auto& f : factors) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::string Result::to_json() const {
  JsonWriter w;
  write(w, *this);
  return std::move(w).str();
}

}  // namespace cadastre::valuation
