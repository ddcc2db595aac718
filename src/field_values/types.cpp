#include "cadastre/field_values.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <set>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "core/json_in.hpp"
#include "core/utf8.hpp"

namespace cadastre::field_values {

// Types are compared with string_view literals: their lengths first, then the bytes (a
// std::string compared with a char* compares the bytes always).
using namespace std::string_view_literals;

namespace {

// Longest texts (in characters): a one-line text, and the column's own limit.
constexpr std::size_t kMaxText = 1000, kMaxLongText = 100000, kMaxMedia = 2000;

Checked fail(std::string problem) { return {std::nullopt, std::move(problem)}; }
Checked stored(std::string_view tipo, std::optional<std::string> text) {
  return {Typed{std::string(column_of(tipo)), std::move(text)}, {}};
}

std::string_view trimmed(std::string_view s) {
  auto space = [](unsigned char c) { return std::isspace(c) != 0; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}
std::string trim(std::string_view s) { return std::string(trimmed(s)); }

// Writes a number for messages without trailing zeros ("100", "2.5").
std::string shown(double v) {
  JsonWriter w;
  w.value(v);
  return std::move(w).str();
}

std::optional<double> bound(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(text->c_str(), &end);
  if (end == text->c_str()) return std::nullopt;
  return v;
}

// min/max of a number.
std::string outside(const FieldDef& f, double v) {
  if (auto lo = bound(f.minimo); lo && v < *lo) return "abaixo do mínimo " + shown(*lo);
  if (auto hi = bound(f.maximo); hi && v > *hi) return "acima do máximo " + shown(*hi);
  return {};
}

// min/max of a count (a text's characters, a multiple choice's options).
std::string count_outside(const FieldDef& f, std::size_t n, const char* unit) {
  if (auto lo = bound(f.minimo); lo && static_cast<double>(n) < *lo)
    return "menos que o mínimo de " + shown(*lo) + " " + unit;
  if (auto hi = bound(f.maximo); hi && static_cast<double>(n) > *hi)
    return "mais que o máximo de " + shown(*hi) + " " + unit;
  return {};
}

bool is_option(const FieldDef& f, std::string_view v) {
  return std::find(f.opcoes.begin(), f.opcoes.end(), v) != f.opcoes.end();
}

bool leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

bool real_date(int y, int m, int d) {
  static constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (y < 1 || y > 9999 || m < 1 || m > 12 || d < 1) return false;
  return d <= days[m - 1] + (m == 2 && leap(y) ? 1 : 0);
}

// Digits at s[from, from+n) as a number, or -1.
int digits(std::string_view s, std::size_t from, std::size_t n) {
  if (from + n > s.size()) return -1;
  int v = 0;
  for (std::size_t i = from; i < from + n; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

std::string iso(int y, int m, int d) {
  char out[40];  // room for any int, so the output is never cut (the callers pass a valid date)
  std::snprintf(out, sizeof out, "%04d-%02d-%02d", y, m, d);
  return out;
}

// yyyy-mm-dd, a real calendar date.
std::optional<std::string> iso_date(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return std::nullopt;
  int y = digits(s, 0, 4), m = digits(s, 5, 2), d = digits(s, 8, 2);
  if (!real_date(y, m, d)) return std::nullopt;
  return iso(y, m, d);
}

// A date as Brazilians write it: dd/mm/aaaa (also d/m/aaaa, dd-mm-aaaa, dd.mm.aaaa), or ISO.
std::optional<std::string> brazilian_date(std::string_view s) {
  if (auto d = iso_date(s)) return d;
  int parts[3] = {0, 0, 0};
  std::size_t part = 0, len = 0;
  char sep = 0;
  for (char c : s) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      if (++len > (part == 2 ? 4u : 2u)) return std::nullopt;
      parts[part] = parts[part] * 10 + (c - '0');
    } else if ((c == '/' || c == '-' || c == '.') && (sep == 0 || c == sep) && len > 0 && part < 2) {
      sep = c;
      ++part;
      len = 0;
    } else {
      return std::nullopt;
    }
  }
  if (part != 2 || len != 4 || !real_date(parts[2], parts[1], parts[0])) return std::nullopt;
  return iso(parts[2], parts[1], parts[0]);
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

// 1.234.567 (groups of three after the first).
bool thousands(std::string_view s) {
  std::size_t first = s.find('.');
  if (first == std::string_view::npos) return all_digits(s);
  if (first == 0 || first > 3 || !all_digits(s.substr(0, first))) return false;
  for (std::size_t i = first; i < s.size(); i += 4)
    if (s[i] != '.' || !all_digits(s.substr(i + 1, 3)) || i + 4 > s.size() ||
        (i + 4 < s.size() && s[i + 4] != '.'))
      return false;
  return true;
}

struct Decimal {
  bool negative = false;
  std::string whole, fraction;  ///< digits; whole without leading zeros ("0" for zero)
  std::string text() const {
    std::string out = negative && (whole != "0"sv || fraction.find_first_not_of('0') != std::string::npos) ? "-" : "";
    out += whole;
    if (!fraction.empty()) out += "." + fraction;
    return out;
  }
  bool integral() const { return fraction.find_first_not_of('0') == std::string::npos; }
};

// A number as Brazilians write it: "12,5", "1.234,56", "1.234" (a thousand and more: dots
// grouping threes are thousands), "-3"; also "12.5" (a single point that does not group
// three digits is a decimal point).
std::optional<Decimal> brazilian_number(std::string_view text) {
  Decimal d;
  std::string_view v = trimmed(text);
  if (!v.empty() && (v.front() == '-' || v.front() == '+')) {
    d.negative = v.front() == '-';
    v.remove_prefix(1);
  }
  std::string_view whole = v, fraction;
  if (auto comma = v.find(','); comma != std::string_view::npos) {
    whole = v.substr(0, comma);
    fraction = v.substr(comma + 1);
    if (!thousands(whole) || !all_digits(fraction)) return std::nullopt;
  } else if (v.find('.') != std::string_view::npos && !thousands(v)) {
    auto point = v.find('.');
    whole = v.substr(0, point);
    fraction = v.substr(point + 1);
    if (whole.empty()) whole = "0";
    if (!all_digits(whole) || !all_digits(fraction)) return std::nullopt;
  } else if (!thousands(v)) {
    return std::nullopt;
  }
  for (char c : whole)
    if (c != '.') d.whole += c;
  d.whole.erase(0, std::min(d.whole.find_first_not_of('0'), d.whole.size() - 1));
  d.fraction = std::string(fraction);
  return d;
}

// A stored numeric text (PostgreSQL writes "-12.50", "NaN", "Infinity").
std::optional<Decimal> plain_number(std::string_view s) {
  Decimal d;
  if (!s.empty() && s.front() == '-') {
    d.negative = true;
    s.remove_prefix(1);
  }
  auto point = s.find('.');
  std::string_view whole = s.substr(0, point);
  if (!all_digits(whole)) return std::nullopt;
  if (point != std::string_view::npos) {
    if (!all_digits(s.substr(point + 1))) return std::nullopt;
    d.fraction = std::string(s.substr(point + 1));
  }
  d.whole = std::string(whole);
  d.whole.erase(0, std::min(d.whole.find_first_not_of('0'), d.whole.size() - 1));
  return d;
}

bool fits_int64(const Decimal& d) {
  static const std::string max = "9223372036854775807", min = "9223372036854775808";
  const std::string& limit = d.negative ? min : max;
  return d.whole.size() < limit.size() || (d.whole.size() == limit.size() && d.whole <= limit);
}

std::string lower_unaccented(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    // ã and Ã (U+00E3, U+00C3), the only accent of "não".
    if (c == 0xC3 && i + 1 < s.size() && (static_cast<unsigned char>(s[i + 1]) == 0xA3 ||
                                          static_cast<unsigned char>(s[i + 1]) == 0x83)) {
      out += 'a';
      ++i;
    } else {
      out += static_cast<char>(std::tolower(c));
    }
  }
  return out;
}

std::optional<bool> brazilian_boolean(std::string_view text) {
  static const std::set<std::string> yes = {"sim", "s", "true", "t", "verdadeiro", "v", "1", "x"};
  static const std::set<std::string> no = {"nao", "n", "false", "f", "falso", "0"};
  std::string s = lower_unaccented(trim(text));
  if (yes.count(s)) return true;
  if (no.count(s)) return false;
  return std::nullopt;
}

// A media reference: an http(s) URL, or a key of the file store (letters, digits, . _ - /,
// no "..", not absolute). Never spaces or control characters.
bool media_reference(std::string_view s) {
  if (s.size() > kMaxMedia) return false;
  for (unsigned char c : s)
    if (c <= ' ' || c == 0x7F || c == '"' || c == '\\' || c == '<' || c == '>') return false;
  for (std::string_view scheme : {"https://", "http://"})
    if (s.rfind(scheme, 0) == 0) return s.size() > scheme.size();
  if (s.empty() || s.front() == '/' || s.find("..") != std::string_view::npos) return false;
  return std::all_of(s.begin(), s.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '.' || c == '_' || c == '-' || c == '/';
  });
}

Checked check_text(const FieldDef& f, std::string_view v, std::size_t longest) {
  std::size_t n = utf8::characters(v);
  if (n > longest) return fail("texto longo demais (até " + std::to_string(longest) + " caracteres)");
  if (auto p = count_outside(f, n, "caracteres"); !p.empty()) return fail(p);
  if (f.padrao) {
    std::string problem;
    if (!pattern_matches(*f.padrao, v, problem))
      return fail(problem.empty() ? "não segue o padrão " + *f.padrao : problem);
  }
  return stored(f.tipo, std::string(v));
}

Checked check_integer(const FieldDef& f, simdjson::dom::element e) {
  std::int64_t i = 0;
  if (e.is_int64()) {
    i = e.get_int64().value();
  } else if (e.is_uint64()) {
    return fail("inteiro fora do intervalo de 64 bits");
  } else if (e.is_double()) {
    double d = e.get_double().value();
    if (d != std::floor(d)) return fail("esperado um número inteiro");
    if (d < -9223372036854775808.0 || d >= 9223372036854775808.0) return fail("inteiro fora do intervalo de 64 bits");
    i = static_cast<std::int64_t>(d);
  } else {
    return fail("esperado um número inteiro");
  }
  if (auto p = outside(f, static_cast<double>(i)); !p.empty()) return fail(p);
  return stored(f.tipo, std::to_string(i));
}

Checked check_decimal(const FieldDef& f, simdjson::dom::element e, std::string_view token) {
  if (!e.is_number()) return fail("esperado um número");
  double d = e.get_double().value();  // int64 and uint64 convert
  if (!std::isfinite(d)) return fail("número fora do intervalo");
  if (auto p = outside(f, d); !p.empty()) return fail(p);
  // The number as the client wrote it: PostgreSQL's numeric keeps every digit of it.
  return stored(f.tipo, trim(token));
}

Checked check_multiple(const FieldDef& f, simdjson::dom::element e, bool required) {
  simdjson::dom::array items;
  if (e.get(items)) return fail("esperada uma lista de opções");
  std::set<std::string_view> seen;
  std::string out = "[";
  for (auto item : items) {
    std::string_view v;
    if (item.get(v)) return fail("esperada uma lista de opções (textos)");
    if (!is_option(f, v)) return fail("opção desconhecida: " + std::string(v));
    if (!seen.insert(v).second) return fail("opção repetida: " + std::string(v));
    out += (out.size() > 1 ? "," : "") + json_quote(v);
  }
  if (seen.empty()) return required ? fail("obrigatório") : stored(f.tipo, std::nullopt);
  if (auto p = count_outside(f, seen.size(), "opções"); !p.empty()) return fail(p);
  return stored(f.tipo, out + "]");
}

// `required`: whether an empty value is refused (the field's obrigatorio, or false for a
// conversion: a value empty before stays empty).
Checked check_element(const FieldDef& f, simdjson::dom::element e, std::string_view json, bool required) {
  const std::string& t = f.tipo;
  if (t == "calculado"sv) return fail("campo calculado: o valor vem da fórmula, não do cliente");
  if (e.is_null()) return required ? fail("obrigatório") : stored(t, std::nullopt);
  if (t == "multipla"sv) return check_multiple(f, e, required);
  if (t == "inteiro"sv) return check_integer(f, e);
  if (t == "decimal"sv) return check_decimal(f, e, json);
  if (t == "booleano"sv) {
    if (!e.is_bool()) return fail("esperado verdadeiro ou falso");
    return stored(t, e.get_bool().value() ? "true" : "false");
  }
  std::string_view v;
  if (t == "lista_dominio"sv && e.is_int64()) {
    return stored(t, std::to_string(e.get_int64().value()));  // numeric domain codes
  }
  if (e.get(v)) return fail("esperado um texto");
  if (v.empty()) return required ? fail("obrigatório") : stored(t, std::nullopt);
  if (t == "texto"sv) return check_text(f, v, kMaxText);
  if (t == "texto_longo"sv) return check_text(f, v, kMaxLongText);
  if (t == "lista"sv) {
    if (!is_option(f, v)) return fail("não é uma das opções: " + std::string(v));
    return stored(t, std::string(v));
  }
  if (t == "lista_dominio"sv) {
    if (utf8::characters(v) > kMaxText) return fail("código longo demais");
    return stored(t, std::string(v));  // the domain table's codes are the store's check
  }
  if (t == "data"sv) {
    auto d = iso_date(v);
    if (!d) return fail("data inválida: " + std::string(v) + " (use aaaa-mm-dd, uma data do calendário)");
    return stored(t, *d);
  }
  if (t == "foto"sv) {
    if (!media_reference(v)) return fail("referência de foto inválida");
    return stored(t, std::string(v));
  }
  return fail("tipo de campo desconhecido: " + t);
}

// The stored value as text for a text-family target (a multiple choice's options joined
// by `separator`).
std::optional<std::string> as_text(std::string_view column, std::string_view v, const char* separator = "; ") {
  if (column == "texto"sv || column == "numero"sv || column == "data"sv) return std::string(v);
  if (column == "booleano"sv) return v == "t"sv || v == "true"sv ? "sim" : "não";
  if (column == "lista"sv) {  // a multiple choice: its options joined by "; "
    simdjson::dom::parser parser;
    simdjson::dom::array items;
    if (parser.parse(v).get(items)) return std::nullopt;
    std::string out;
    for (auto item : items) {
      std::string_view o;
      if (item.get(o)) return std::nullopt;
      out += (out.empty() ? "" : separator) + std::string(o);
    }
    return out;
  }
  return std::nullopt;
}

// The value as a sentence shows it: as text (a multiple choice's options joined), or as
// stored.
std::string shown(std::string_view column, std::string_view v) { return as_text(column, v).value_or(std::string(v)); }

// The candidate JSON for `to` from the stored text `v` of a `column`, or a problem: a
// sentence naming the value when `describe`, else kUndescribed.
std::pair<std::string, std::string> candidate(std::string_view column, std::string_view v, const std::string& to,
                                              bool describe) {
  auto problem = [&](const char* what) -> std::pair<std::string, std::string> {
    if (!describe) return {"", kUndescribed};  // a failure only counted: no sentence composed
    return {"", "'" + shown(column, v) + "' " + what};
  };
  if (to == "inteiro"sv || to == "decimal"sv) {
    std::optional<Decimal> d = column == "numero"sv  ? plain_number(v)
                               : column == "texto"sv ? brazilian_number(v)
                                                     : std::nullopt;
    if (!d) return problem("não é um número");
    if (to == "inteiro"sv && !d->integral()) return problem("não é um número inteiro");
    if (to == "inteiro"sv) {
      d->fraction.clear();
      if (!fits_int64(*d)) return problem("está fora do intervalo dos inteiros");
    }
    return {d->text(), ""};
  }
  if (to == "booleano"sv) {
    std::optional<bool> b;
    if (column == "booleano"sv) b = v == "t"sv || v == "true"sv;
    else if (column == "texto"sv) b = brazilian_boolean(v);
    else if (auto n = column == "numero"sv ? plain_number(v) : std::nullopt;
             n && n->integral() && (n->whole == "0"sv || n->whole == "1"sv))
      b = n->whole == "1"sv;
    if (!b) return problem("não é sim nem não");
    return {*b ? "true" : "false", ""};
  }
  if (to == "data"sv) {
    std::optional<std::string> d;
    if (column == "data"sv || column == "texto"sv) d = brazilian_date(trimmed(v));
    if (!d) return problem("não é uma data válida (dd/mm/aaaa ou aaaa-mm-dd)");
    return {json_quote(*d), ""};
  }
  auto text = as_text(column, v);
  if (to == "multipla"sv) {
    if (column == "lista"sv) return {std::string(v), ""};
    if (!text) return problem("não vira uma lista de opções");
    std::vector<std::string> items = list_items(*text);
    std::string out = "[";
    for (const auto& item : items) out += (out.size() > 1 ? "," : "") + json_quote(item);
    return {out + "]", ""};
  }
  if (!text) return {"", "o valor não vira texto"};
  return {json_quote(*text), ""};
}

}  // namespace

const std::vector<std::string>& type_names() {
  static const std::vector<std::string> names = {"texto",         "texto_longo", "inteiro",  "decimal",
                                                 "data",          "booleano",    "lista",    "lista_dominio",
                                                 "multipla",      "foto",        "calculado"};
  return names;
}

std::string_view column_of(std::string_view tipo) noexcept {
  if (tipo == "texto"sv || tipo == "texto_longo"sv || tipo == "lista"sv || tipo == "lista_dominio"sv || tipo == "foto"sv)
    return "texto";
  if (tipo == "inteiro"sv || tipo == "decimal"sv || tipo == "calculado"sv) return "numero";
  if (tipo == "data"sv) return "data";
  if (tipo == "booleano"sv) return "booleano";
  if (tipo == "multipla"sv) return "lista";
  return {};
}

namespace {

Checked check_json(const FieldDef& field, std::string_view json, bool required) {
  thread_local simdjson::dom::parser parser;
  simdjson::dom::element e;
  try {
    e = jsonin::parse(parser, json);
  } catch (const Error&) {
    // simdjson refuses integers past 64 bits and doubles past their range: still numbers.
    std::string token = trim(json);
    bool numeric = !token.empty() && token.find_first_not_of("0123456789+-.eE") == std::string::npos;
    if (numeric && column_of(field.tipo) == "numero"sv) return fail("número fora do intervalo");
    return fail("valor não é JSON válido");
  }
  return check_element(field, e, json, required);
}

// The refusal of a target no value converts into, if it is one.
std::optional<Checked> unconvertible(const FieldDef& to) {
  if (to.tipo == "calculado"sv) return fail("um campo calculado tira os valores da fórmula: não se converte para ele");
  if (column_of(to.tipo).empty()) return fail("tipo de campo desconhecido: " + to.tipo);
  return std::nullopt;
}

}  // namespace

Checked check_value(const FieldDef& field, std::string_view json) { return check_json(field, json, field.obrigatorio); }

// The stored column says how to read the value, so the source definition is not needed.
Checked convert(const FieldDef&, const Typed& stored_value, const FieldDef& to, bool describe) {
  if (!stored_value.text) {
    if (auto refused = unconvertible(to)) return *refused;
    return stored(to.tipo, std::nullopt);
  }
  return convert(stored_value.column, *stored_value.text, to, describe);
}

Checked convert(std::string_view column, std::string_view text, const FieldDef& to, bool describe) {
  if (auto refused = unconvertible(to)) return *refused;
  auto [json, problem] = candidate(column, text, to.tipo, describe);
  if (!problem.empty()) return fail(std::move(problem));
  // The target's own rules (options, bounds, pattern) hold for converted values too; an
  // empty value stays empty even in a required field (it was already empty).
  Checked c = check_json(to, json, false);
  if (!c.ok() && describe) {
    c.problem = "'" + shown(column, text) + "': " + c.problem;
  }
  return c;
}

std::vector<std::string> list_items(std::string_view text) {
  char sep = text.find(';') != std::string_view::npos ? ';' : ',';
  std::vector<std::string> items;
  for (std::size_t i = 0; i <= text.size();) {
    std::size_t j = std::min(text.find(sep, i), text.size());
    std::string item = trim(text.substr(i, j - i));
    if (!item.empty() && std::find(items.begin(), items.end(), item) == items.end()) items.push_back(item);
    i = j + 1;
  }
  return items;
}

std::string to_json(const Typed& s) {
  if (!s.text) return "null";
  const std::string& v = *s.text;
  if (s.column == "numero"sv) return plain_number(v) ? plain_number(v)->text() : "null";
  if (s.column == "booleano"sv) return v == "t"sv || v == "true"sv ? "true" : "false";
  if (s.column == "lista"sv) return v;
  return json_quote(v);
}

std::optional<std::string> display(const Typed& s) {
  if (!s.text) return std::nullopt;
  return as_text(s.column, *s.text, ", ").value_or(*s.text);
}

}  // namespace cadastre::field_values
