#include "cadastre/field_definitions.hpp"

#include <algorithm>
#include <set>

#include "cadastre/error.hpp"

namespace cadastre::field_values {
namespace {

constexpr std::size_t kMaxOptions = 500, kMaxParts = 20;

bool is_number(std::string_view t) { return t == "inteiro" || t == "decimal"; }

// A plain text definition: how a stored value reads as text, whatever its type.
FieldDef as_text_field() {
  FieldDef f;
  f.tipo = "texto_longo";
  return f;
}

// The options of a list built from the texts of the values, when the field has none.
std::vector<std::string> derived_options(const std::vector<std::string>& texts, const std::string& tipo) {
  std::vector<std::string> options;
  std::set<std::string> seen;
  for (const auto& t : texts) {
    std::vector<std::string> items = tipo == "multipla" ? list_items(t) : std::vector<std::string>{t};
    for (auto& item : items)
      if (!item.empty() && item.size() <= 200 && seen.insert(item).second) options.push_back(item);
  }
  if (options.size() > kMaxOptions)
    throw Error(errc::invalid_argument,
                "tipo: os valores têm " + std::to_string(options.size()) + " opções distintas, mais que as " +
                    std::to_string(kMaxOptions) + " de uma lista",
                "tipo");
  return options;
}

// The rules of `from` that mean the same under `to`'s type; the others are dropped.
Definition retyped(const Definition& from, const std::string& to) {
  Definition d = from;
  d.def.tipo = to;
  const std::string& was = from.def.tipo;
  bool same_bounds = (is_text_type(was) && is_text_type(to)) || (is_number(was) && is_number(to));
  if (!same_bounds) d.def.minimo = d.def.maximo = std::nullopt;
  if (!is_text_type(to)) d.def.padrao = std::nullopt;
  if (to != "lista" && to != "multipla") d.def.opcoes.clear();
  if (to == "booleano" || to == "multipla") d.def.unico = false;
  d.def.dominio = d.def.formula = std::nullopt;
  return d;
}

std::vector<std::string> texts_of(const std::vector<StoredValue>& values, const FieldDef& from) {
  std::vector<std::string> out;
  for (const auto& v : values) {
    Checked c = convert(from, v.value, as_text_field());
    if (c.ok() && c.value->text) out.push_back(*c.value->text);
  }
  return out;
}

// The parts of a text split at `sep`, trimmed (empty parts keep their place).
std::vector<std::string> parts_of(std::string_view text, const std::string& sep) {
  std::vector<std::string> parts;
  for (std::size_t i = 0;;) {
    std::size_t j = text.find(sep, i);
    std::string_view part = text.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i);
    std::size_t a = part.find_first_not_of(" \t\r\n"), b = part.find_last_not_of(" \t\r\n");
    parts.emplace_back(a == std::string_view::npos ? std::string_view{} : part.substr(a, b - a + 1));
    if (j == std::string_view::npos) break;
    i = j + sep.size();
  }
  return parts;
}

// At most `bytes` bytes of `s`, never cutting a UTF-8 character.
std::string prefix(const std::string& s, std::size_t bytes) {
  if (s.size() <= bytes) return s;
  while (bytes > 0 && (static_cast<unsigned char>(s[bytes]) & 0xC0) == 0x80) --bytes;
  return s.substr(0, bytes);
}

}  // namespace

bool convertible_to(std::string_view tipo) noexcept {
  for (std::string_view t : {"texto", "texto_longo", "inteiro", "decimal", "data", "booleano", "lista", "multipla"})
    if (t == tipo) return true;
  return false;
}

ConversionPlanner::ConversionPlanner(const Definition& field, const std::string& tipo, bool keep_writes)
    : from_(field.def), column_(column_of(field.def.tipo)), keep_writes_(keep_writes) {
  if (!convertible_to(tipo))
    throw Error(errc::invalid_argument,
                "tipo: o conversor leva aos tipos texto, texto_longo, inteiro, decimal, data, booleano, lista e multipla",
                "tipo");
  if (tipo == field.def.tipo) throw Error(errc::invalid_argument, "tipo: o campo já é do tipo " + tipo, "tipo");
  target_ = retyped(field, tipo);
}

bool ConversionPlanner::needs_every_value() const noexcept {
  const std::string& tipo = target_.def.tipo;
  return (tipo == "lista" || tipo == "multipla") && target_.def.opcoes.empty();
}

void ConversionPlanner::options_from(const std::vector<StoredValue>& values) {
  target_.def.opcoes = derived_options(texts_of(values, from_), target_.def.tipo);
}

void ConversionPlanner::add(const StoredValue& v) {
  if (v.value.text) return add_text(v.id, v.geometria, v.value.column, *v.value.text);
  ++plan_.total;
  Checked c = convert(from_, v.value, target_.def);
  if (!c.ok()) plan_.fail([&] { return Failure{v.id, v.geometria, "null", std::move(c.problem)}; });
  else if (keep_writes_) plan_.writes.push_back({v.id, v.geometria, 0, "null", *c.value});
}

void ConversionPlanner::add(std::int64_t id, std::int64_t geometria, std::string_view text) {
  add_text(id, geometria, column_, text);
}

void ConversionPlanner::add_text(std::int64_t id, std::int64_t geometria, std::string_view column,
                                 std::string_view text) {
  ++plan_.total;
  // Only the failures the plan keeps are described; the others are counted.
  Checked c = convert(column, text, target_.def, plan_.failed < kKeptFailures);
  auto before = [&] { return to_json(Typed{std::string(column), std::string(text)}); };
  if (!c.ok()) plan_.fail([&] { return Failure{id, geometria, before(), std::move(c.problem)}; });
  else if (keep_writes_) plan_.writes.push_back({id, geometria, 0, before(), *c.value});
}

Plan ConversionPlanner::finish() && {
  plan_.campos.push_back(std::move(target_));
  return std::move(plan_);
}

Plan plan_conversion(const Definition& field, const std::vector<StoredValue>& values, const std::string& tipo,
                     bool keep_writes) {
  ConversionPlanner planner(field, tipo, keep_writes);
  if (planner.needs_every_value()) planner.options_from(values);
  for (const auto& v : values) planner.add(v);
  return std::move(planner).finish();
}

Plan plan_split(const Definition& field, const std::vector<StoredValue>& values, const std::string& tipo,
                const std::string& separator) {
  if (!is_text_type(field.def.tipo))
    throw Error(errc::invalid_argument, "split: só campos de texto se dividem (o campo é " + field.def.tipo + ")",
                "split");
  if (!convertible_to(tipo))
    throw Error(errc::invalid_argument,
                "tipo: o conversor leva aos tipos texto, texto_longo, inteiro, decimal, data, booleano, lista e multipla",
                "tipo");
  Plan plan;
  plan.total = values.size();
  std::vector<std::vector<std::string>> parts(values.size());
  std::size_t count = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!values[i].value.text) continue;
    parts[i] = parts_of(*values[i].value.text, separator);
    if (parts[i].size() <= kMaxParts) count = std::max(count, parts[i].size());
  }
  if (field.def.chave.size() + 1 + std::to_string(count).size() > 63)
    throw Error(errc::invalid_argument, "chave: " + field.def.chave + " é longa demais para receber _1, _2...",
                "chave");
  for (std::size_t n = 1; n <= count; ++n) {
    Definition d;
    d.def.tipo = tipo;
    d.def.chave = field.def.chave + "_" + std::to_string(n);
    d.def.nome = prefix(field.def.nome, 190) + " " + std::to_string(n);
    d.formulario = field.formulario;
    d.ordem = field.ordem;
    if (tipo == "lista" || tipo == "multipla") {
      std::vector<std::string> texts;
      for (const auto& p : parts)
        if (p.size() >= n && p.size() <= kMaxParts && !p[n - 1].empty()) texts.push_back(p[n - 1]);
      d.def.opcoes = derived_options(texts, tipo);
    }
    plan.campos.push_back(std::move(d));
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    const StoredValue& v = values[i];
    if (parts[i].size() > kMaxParts) {
      plan.fail([&] {
        return Failure{v.id, v.geometria, to_json(v.value),
                       "tem " + std::to_string(parts[i].size()) + " partes; no máximo " + std::to_string(kMaxParts)};
      });
      continue;
    }
    std::vector<Write> writes;
    std::string problems;
    for (std::size_t n = 0; n < parts[i].size(); ++n) {
      if (parts[i][n].empty()) continue;
      Checked c = convert(field.def, Typed{"texto", parts[i][n]}, plan.campos[n].def);
      if (!c.ok()) problems += (problems.empty() ? "" : "; ") + ("parte " + std::to_string(n + 1) + ": " + c.problem);
      else writes.push_back({0, v.geometria, n, to_json(v.value), *c.value});
    }
    if (!problems.empty()) plan.fail([&] { return Failure{v.id, v.geometria, to_json(v.value), std::move(problems)}; });
    else plan.writes.insert(plan.writes.end(), writes.begin(), writes.end());
  }
  return plan;
}

}  // namespace cadastre::field_values
