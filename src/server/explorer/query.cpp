#include "server/explorer/query.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <set>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"

namespace cadastre::server::explorer {
namespace {

constexpr std::size_t kMaxFilters = 100;
constexpr std::size_t kMaxInValues = 1000;
constexpr std::size_t kMaxValueLength = 10000;

struct OperatorName {
  Operator op;
  std::string_view name;
};
constexpr std::array<OperatorName, 12> kOperators = {{{Operator::eq, "="},
                                                      {Operator::ne, "<>"},
                                                      {Operator::lt, "<"},
                                                      {Operator::le, "<="},
                                                      {Operator::gt, ">"},
                                                      {Operator::ge, ">="},
                                                      {Operator::contains, "contains"},
                                                      {Operator::icontains, "icontains"},
                                                      {Operator::in, "in"},
                                                      {Operator::is_null, "is null"},
                                                      {Operator::is_not_null, "is not null"},
                                                      {Operator::bbox, "bbox"}}};

std::string_view operator_name(Operator op) {
  for (const auto& o : kOperators)
    if (o.op == op) return o.name;
  return "=";
}

std::string path(std::string_view where, std::string_view member) {
  return where.empty() ? std::string(member) : std::string(where) + "." + std::string(member);
}

std::string indexed(std::string_view base, std::size_t i) { return std::string(base) + "[" + std::to_string(i) + "]"; }

[[noreturn]] void invalid(const std::string& message, const std::string& field) {
  throw Error(errc::invalid_argument, message, field);
}

// Every member of `o` must be one of `known`: a typo must not silently drop a filter.
void check_members(jsonin::object o, std::initializer_list<std::string_view> known, std::string_view where) {
  for (auto [key, value] : o) {
    (void)value;
    bool ok = false;
    for (auto k : known) ok = ok || key == k;
    if (!ok) throw Error(errc::unknown_field, "membro desconhecido '" + std::string(key) + "'", path(where, key));
  }
}

std::string number_text(double d) {
  char buf[40];
  auto end = std::to_chars(buf, buf + sizeof buf, d).ptr;
  return std::string(buf, end);
}

// Decimal number text as PostgreSQL reads a numeric literal: -12, 3.5, .5, 1e-3.
bool looks_numeric(std::string_view s) {
  std::size_t i = 0, digits = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    std::size_t exp = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++exp;
    if (exp == 0) return false;
  }
  return i == s.size() && s.size() <= 100;
}

Scalar scalar(jsonin::element e, const std::string& field) {
  Scalar v;
  std::string_view s;
  bool b = false;
  std::int64_t i = 0;
  std::uint64_t u = 0;
  double d = 0;
  if (!e.get(s)) {
    if (s.find('\0') != std::string_view::npos) invalid("o valor não pode conter o caractere NUL", field);
    if (s.size() > kMaxValueLength) invalid("valor longo demais (máximo 10000 bytes)", field);
    v.kind = Scalar::string;
    v.text = std::string(s);
  } else if (!e.get(i)) {
    v.kind = Scalar::number;
    v.text = std::to_string(i);
  } else if (!e.get(u)) {
    v.kind = Scalar::number;
    v.text = std::to_string(u);
  } else if (!e.get(d)) {
    v.kind = Scalar::number;
    v.text = number_text(d);
  } else if (!e.get(b)) {
    v.kind = Scalar::boolean;
    v.text = b ? "true" : "false";
  } else if (e.is_null()) {
    invalid("valor nulo: use o operador 'is null' ou 'is not null'", field);
  } else {
    invalid("o valor deve ser um texto, número ou booleano", field);
  }
  return v;
}

Operator parse_operator(std::string_view text, const std::string& field) {
  for (const auto& o : kOperators)
    if (o.name == text) return o.op;
  invalid("operador desconhecido '" + std::string(text) +
              "' (use =, <>, <, <=, >, >=, contains, icontains, in, is null, is not null ou bbox)",
          field);
}

void check_bbox(const std::vector<Scalar>& v, const std::string& field) {
  double n[4];
  for (int k = 0; k < 4; ++k) {
    if (v[k].kind != Scalar::number) invalid("bbox: os quatro valores devem ser números", field);
    n[k] = std::strtod(v[k].text.c_str(), nullptr);
    if (!std::isfinite(n[k])) invalid("bbox: valor não finito", field);
  }
  if (n[0] < -180 || n[0] > 180 || n[2] < -180 || n[2] > 180) invalid("bbox: longitude fora de [-180, 180]", field);
  if (n[1] < -90 || n[1] > 90 || n[3] < -90 || n[3] > 90) invalid("bbox: latitude fora de [-90, 90]", field);
  if (n[0] > n[2] || n[1] > n[3]) invalid("bbox: o mínimo é maior que o máximo ([minLon, minLat, maxLon, maxLat])", field);
}

Filter parse_filter(jsonin::element e, const std::string& where) {
  auto o = jsonin::as_object(e, where);
  check_members(o, {"coluna", "operador", "valor"}, where);
  Filter f;
  auto col = jsonin::find(o, "coluna");
  if (!col) throw Error(errc::missing_field, "o filtro precisa de 'coluna'", path(where, "coluna"));
  f.column = jsonin::to_string(*col, path(where, "coluna"));
  query::check_identifier(f.column, path(where, "coluna"));
  auto op = jsonin::find(o, "operador");
  if (!op) throw Error(errc::missing_field, "o filtro precisa de 'operador'", path(where, "operador"));
  f.op = parse_operator(jsonin::to_string(*op, path(where, "operador")), path(where, "operador"));
  auto value = jsonin::find(o, "valor");
  std::string vfield = path(where, "valor");
  switch (f.op) {
    case Operator::is_null:
    case Operator::is_not_null:
      if (value) invalid("o operador '" + std::string(operator_name(f.op)) + "' não leva valor", vfield);
      break;
    case Operator::in:
    case Operator::bbox: {
      if (!value) throw Error(errc::missing_field, "o filtro precisa de 'valor' (uma lista)", vfield);
      auto list = jsonin::as_array(*value, vfield);
      std::size_t k = 0;
      for (auto item : list) f.values.push_back(scalar(item, indexed(vfield, k++)));
      if (f.op == Operator::in && (f.values.empty() || f.values.size() > kMaxInValues))
        invalid("'in' precisa de 1 a 1000 valores", vfield);
      if (f.op == Operator::bbox) {
        if (f.values.size() != 4) invalid("bbox precisa de [minLon, minLat, maxLon, maxLat]", vfield);
        check_bbox(f.values, vfield);
      }
      break;
    }
    default:
      if (!value) throw Error(errc::missing_field, "o filtro precisa de 'valor'", vfield);
      f.values.push_back(scalar(*value, vfield));
  }
  return f;
}

OrderKey parse_order(jsonin::element e, const std::string& where) {
  auto o = jsonin::as_object(e, where);
  check_members(o, {"coluna", "direcao"}, where);
  OrderKey k;
  auto col = jsonin::find(o, "coluna");
  if (!col) throw Error(errc::missing_field, "a ordem precisa de 'coluna'", path(where, "coluna"));
  k.column = jsonin::to_string(*col, path(where, "coluna"));
  query::check_identifier(k.column, path(where, "coluna"));
  if (auto dir = jsonin::find(o, "direcao")) {
    std::string d = jsonin::to_string(*dir, path(where, "direcao"));
    if (d != "asc" && d != "desc") invalid("direcao deve ser 'asc' ou 'desc'", path(where, "direcao"));
    k.descending = d == "desc";
  }
  return k;
}

// Appends each piece of the statement to the preview text and to the bound statement.
class Emitter {
 public:
  void raw(std::string_view text) {
    preview_ += text;
    sql_ << text;
  }
  void value(const std::string& literal, const std::string& bound, std::string_view cast) {
    preview_ += literal;
    sql_.bind(bound, cast);
  }
  Built finish(std::vector<const store::Column*> columns) {
    return Built{std::move(preview_), std::move(sql_), std::move(columns)};
  }

 private:
  std::string preview_;
  store::Sql sql_;
};

std::string column_ref(const store::Column& c) { return "t." + query::quote_identifier(c.name); }

// One comparison value, checked against the column type and written as its literal.
void typed_value(Emitter& out, const store::Column& c, const Scalar& v, const std::string& field) {
  if (c.numeric()) {
    if (v.kind == Scalar::boolean || !looks_numeric(v.text))
      invalid("a coluna '" + c.name + "' espera um número, recebido '" + v.text + "'", field);
    out.value(v.text, v.text, c.type);
  } else if (c.base_type == "bool") {
    if (v.kind == Scalar::number || (v.text != "true" && v.text != "false"))
      invalid("a coluna '" + c.name + "' espera true ou false", field);
    out.value(v.text, v.text, "boolean");
  } else if (v.kind == Scalar::boolean) {
    invalid("a coluna '" + c.name + "' não é booleana", field);
  } else if (c.textual()) {
    out.value(quote_literal(v.text), v.text, c.type);
  } else {
    out.value(quote_literal(v.text) + "::" + c.type, v.text, c.type);
  }
}

const store::Column& filter_column(const store::Layer& layer, const Filter& f, const std::string& where) {
  const store::Column* c = layer.column(f.column);
  if (!c)
    throw Error(errc::unknown_field, "a tabela " + layer.name + " não tem a coluna '" + f.column + "'",
                path(where, "coluna"));
  bool spatial = f.op == Operator::bbox || f.op == Operator::is_null || f.op == Operator::is_not_null;
  if (c->geometry && !spatial)
    invalid("a coluna de geometria '" + c->name + "' só aceita bbox, is null e is not null", path(where, "operador"));
  if (f.op == Operator::bbox && !c->geometry)
    invalid("bbox só se aplica a colunas de geometria; '" + c->name + "' não é uma", path(where, "operador"));
  return *c;
}

void append_filter(Emitter& out, const store::Column& c, const Filter& f, const std::string& where) {
  std::string col = column_ref(c);
  std::string vfield = path(where, "valor");
  switch (f.op) {
    case Operator::is_null: out.raw(col + " is null"); break;
    case Operator::is_not_null: out.raw(col + " is not null"); break;
    case Operator::bbox: {
      // The envelope in SIRGAS 2000 (lon/lat), moved to the column's CRS when it differs.
      bool transform = c.srid != 0 && c.srid != 4674;
      out.raw(col + " && " + (transform ? "ST_Transform(" : "") + "ST_MakeEnvelope(");
      for (std::size_t k = 0; k < 4; ++k) {
        out.value(f.values[k].text, f.values[k].text, "float8");
        out.raw(", ");
      }
      out.raw(transform ? "4674), " + std::to_string(c.srid) + ")" : "4674)");
      break;
    }
    case Operator::contains:
    case Operator::icontains: {
      std::string pattern = query::like_pattern(
          f.op == Operator::contains ? query::FilterType::contains : query::FilterType::icontains, f.values[0].text);
      out.raw((c.textual() ? col : col + "::text") + (f.op == Operator::contains ? " like " : " ilike "));
      out.value(quote_literal(pattern), pattern, "");
      out.raw(" escape '\\'");
      break;
    }
    case Operator::in:
      out.raw(col + " in (");
      for (std::size_t k = 0; k < f.values.size(); ++k) {
        if (k) out.raw(", ");
        typed_value(out, c, f.values[k], indexed(vfield, k));
      }
      out.raw(")");
      break;
    default:
      out.raw(col + " " + std::string(operator_name(f.op)) + " ");
      typed_value(out, c, f.values[0], vfield);
  }
}

std::string select_item(const store::Column& c, Output output) {
  std::string q = query::quote_identifier(c.name);
  if (c.geometry)
    return "ST_AsGeoJSON(ST_Transform(t." + q + ", 4326), 7)" + (output == Output::json ? "::json" : "") + " as " + q;
  return output == Output::json ? "t." + q : "t." + q + "::text as " + q;
}

void write_scalar(JsonWriter& w, const Scalar& v) {
  if (v.kind == Scalar::string) w.value(v.text);
  else w.raw(v.text);  // numbers and booleans as parsed (our own text)
}

}  // namespace

store::Sql wrap(const Built& b, std::string_view before, std::string_view after) {
  store::Sql out{std::string(before)};
  // Placeholders are numbered by position (:p1, :p2...), so binding the same values in the
  // same order keeps every placeholder of b's text pointing at its own value.
  for (const auto& v : b.sql.params()) out.placeholder(v);
  out << b.sql.text() << after;
  return out;
}

std::string select_list(const store::Layer& layer, Output output) {
  std::string out;
  for (const auto& c : layer.columns) out += (out.empty() ? "" : ", ") + select_item(c, output);
  return out;
}

std::string quote_literal(std::string_view text) {
  bool backslash = text.find('\\') != std::string_view::npos;
  std::string out = backslash ? "E'" : "'";
  for (char ch : text) {
    if (ch == '\'') out += "''";
    else if (ch == '\\') out += "\\\\";
    else out += ch;
  }
  out += '\'';
  return out;
}

Query parse_query(simdjson::dom::element e, std::string_view where) {
  auto o = jsonin::as_object(e, where.empty() ? "corpo" : where);
  check_members(o, {"tabela", "colunas", "filtros", "ordem", "limite"}, where);
  Query q;
  auto table = jsonin::find(o, "tabela");
  if (!table) throw Error(errc::missing_field, "a consulta precisa de 'tabela'", path(where, "tabela"));
  q.table = jsonin::to_string(*table, path(where, "tabela"));
  query::check_identifier(q.table, path(where, "tabela"));
  if (auto cols = jsonin::find(o, "colunas")) {
    std::string field = path(where, "colunas");
    std::set<std::string> seen;
    std::size_t k = 0;
    for (auto c : jsonin::as_array(*cols, field)) {
      std::string f = indexed(field, k++);
      std::string name = jsonin::to_string(c, f);
      query::check_identifier(name, f);
      if (!seen.insert(name).second) invalid("coluna repetida '" + name + "'", f);
      q.columns.push_back(std::move(name));
    }
  }
  if (auto filters = jsonin::find(o, "filtros")) {
    std::string field = path(where, "filtros");
    std::size_t k = 0;
    for (auto f : jsonin::as_array(*filters, field)) {
      if (k == kMaxFilters) invalid("no máximo 100 filtros", field);
      q.filters.push_back(parse_filter(f, indexed(field, k++)));
    }
  }
  if (auto order = jsonin::find(o, "ordem")) {
    std::string field = path(where, "ordem");
    std::size_t k = 0;
    for (auto key : jsonin::as_array(*order, field)) q.order.push_back(parse_order(key, indexed(field, k++)));
  }
  if (auto limit = jsonin::find(o, "limite")) {
    std::int64_t n = 0;
    if (limit->get(n) || n < 1 || n > kMaxLimit)
      invalid("limite deve ser um inteiro de 1 a " + std::to_string(kMaxLimit), path(where, "limite"));
    q.limit = n;
  }
  return q;
}

Query parse_query(std::string_view json) {
  simdjson::dom::parser parser;
  return parse_query(jsonin::parse(parser, json));
}

std::string to_json(const Query& q) {
  JsonWriter w;
  w.begin_object().key("tabela").value(q.table);
  if (!q.columns.empty()) {
    w.key("colunas").begin_array();
    for (const auto& c : q.columns) w.value(c);
    w.end_array();
  }
  if (!q.filters.empty()) {
    w.key("filtros").begin_array();
    for (const auto& f : q.filters) {
      w.begin_object().key("coluna").value(f.column).key("operador").value(operator_name(f.op));
      if (f.op == Operator::in || f.op == Operator::bbox) {
        w.key("valor").begin_array();
        for (const auto& v : f.values) write_scalar(w, v);
        w.end_array();
      } else if (!f.values.empty()) {
        w.key("valor");
        write_scalar(w, f.values[0]);
      }
      w.end_object();
    }
    w.end_array();
  }
  if (!q.order.empty()) {
    w.key("ordem").begin_array();
    for (const auto& k : q.order)
      w.begin_object().key("coluna").value(k.column).key("direcao").value(k.descending ? "desc" : "asc").end_object();
    w.end_array();
  }
  if (q.limit) w.key("limite").value(*q.limit);
  w.end_object();
  return std::move(w).str();
}

Built build(const Query& q, const store::Layer& layer, std::int64_t limit, Output output, std::string_view where) {
  std::vector<const store::Column*> columns;
  if (q.columns.empty()) {
    for (const auto& c : layer.columns) columns.push_back(&c);
  } else {
    for (std::size_t k = 0; k < q.columns.size(); ++k) {
      const store::Column* c = layer.column(q.columns[k]);
      if (!c)
        throw Error(errc::unknown_field, "a tabela " + layer.name + " não tem a coluna '" + q.columns[k] + "'",
                    indexed(path(where, "colunas"), k));
      columns.push_back(c);
    }
  }
  Emitter out;
  out.raw("select ");
  for (std::size_t k = 0; k < columns.size(); ++k) out.raw((k ? ", " : "") + select_item(*columns[k], output));
  out.raw(" from " + layer.qualified() + " t");
  for (std::size_t k = 0; k < q.filters.size(); ++k) {
    std::string field = indexed(path(where, "filtros"), k);
    const store::Column& c = filter_column(layer, q.filters[k], field);
    out.raw(k ? " and " : " where ");
    append_filter(out, c, q.filters[k], field);
  }
  bool key_ordered = false;
  for (std::size_t k = 0; k < q.order.size(); ++k) {
    const store::Column* c = layer.column(q.order[k].column);
    std::string field = indexed(path(where, "ordem"), k) + ".coluna";
    if (!c) throw Error(errc::unknown_field, "a tabela " + layer.name + " não tem a coluna '" + q.order[k].column + "'", field);
    if (c->geometry) invalid("não é possível ordenar por geometria", field);
    out.raw((k ? ", " : " order by ") + column_ref(*c) + (q.order[k].descending ? " desc" : ""));
    key_ordered = key_ordered || c->name == layer.primary_key;
  }
  // The key last keeps the order total, so the same description always gives the same rows.
  if (!key_ordered && !layer.primary_key.empty())
    out.raw((q.order.empty() ? " order by " : ", ") + column_ref(*layer.column(layer.primary_key)));
  out.raw(" limit " + std::to_string(limit));
  return out.finish(std::move(columns));
}

}  // namespace cadastre::server::explorer
