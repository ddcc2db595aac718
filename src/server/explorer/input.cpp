#include "server/explorer/input.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <set>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "server/explorer/store.hpp"

namespace cadastre::server::explorer {
namespace {

constexpr std::size_t kMaxName = 200, kMaxTitle = 300;

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


void check_members(jsonin::object o, std::initializer_list<std::string_view> known, std::string_view where) {
  for (auto [key, value] : o) {
    (void)value;
    bool ok = false;
    for (auto k : known) ok = ok || key == k;
    if (!ok) throw Error(errc::unknown_field, "membro desconhecido '" + std::string(key) + "'", member_path(where, key));
  }
}

std::string number_text(double d) {
  char buf[40];
  auto end = std::to_chars(buf, buf + sizeof buf, d).ptr;
  return std::string(buf, end);
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
  if (!col) throw Error(errc::missing_field, "o filtro precisa de 'coluna'", member_path(where, "coluna"));
  f.column = jsonin::to_string(*col, member_path(where, "coluna"));
  query::check_identifier(f.column, member_path(where, "coluna"));
  auto op = jsonin::find(o, "operador");
  if (!op) throw Error(errc::missing_field, "o filtro precisa de 'operador'", member_path(where, "operador"));
  f.op = parse_operator(jsonin::to_string(*op, member_path(where, "operador")), member_path(where, "operador"));
  auto value = jsonin::find(o, "valor");
  std::string vfield = member_path(where, "valor");
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
  if (!col) throw Error(errc::missing_field, "a ordem precisa de 'coluna'", member_path(where, "coluna"));
  k.column = jsonin::to_string(*col, member_path(where, "coluna"));
  query::check_identifier(k.column, member_path(where, "coluna"));
  if (auto dir = jsonin::find(o, "direcao")) {
    std::string d = jsonin::to_string(*dir, member_path(where, "direcao"));
    if (d != "asc" && d != "desc") invalid("direcao deve ser 'asc' ou 'desc'", member_path(where, "direcao"));
    k.descending = d == "desc";
  }
  return k;
}

void write_scalar(JsonWriter& w, const Scalar& v) {
  if (v.kind == Scalar::string) w.value(v.text);
  else w.raw(v.text);  // numbers and booleans as parsed (our own text)
}

std::string text_member(jsonin::element e, std::string_view field, std::size_t max) {
  std::string s = jsonin::to_string(e, field);
  auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) throw Error(errc::invalid_argument, "'" + std::string(field) + "' está vazio", std::string(field));
  s = s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
  if (s.size() > max || s.find('\0') != std::string::npos)
    throw Error(errc::invalid_argument, "'" + std::string(field) + "' tem mais de " + std::to_string(max) + " bytes ou um NUL",
                std::string(field));
  return s;
}

// `path_id`: the report a PUT changes (a body "id" must match it); nullopt when creating.
}  // namespace

ReportInput parse_report(const service::Scope& s, const std::string& body, std::optional<std::int64_t> path_id) {
  bool creating = !path_id;
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  ReportInput in;
  for (auto [key, value] : o) {
    if (key == "nome") {
      in.nome = text_member(value, "nome", kMaxName);
    } else if (key == "titulo") {
      in.has_titulo = true;
      if (!value.is_null()) in.titulo = text_member(value, "titulo", kMaxTitle);
    } else if (key == "consulta") {
      Query q = parse_query(value, "consulta");
      service::LayerRef layer = query_layer(s, q, "consulta");
      build(q, *layer, q.limit.value_or(kMaxLimit), Output::text, "consulta");  // every name and value checked
      in.consulta = to_json(q);
    } else if (key == "id" && !creating) {
      std::int64_t body_id = 0;
      if (value.get(body_id) || body_id != *path_id)
        throw Error(errc::invalid_argument, "o id do corpo difere do id do caminho (" + std::to_string(*path_id) + ")", "id");
    } else {
      throw Error(errc::unknown_field, "membro desconhecido '" + std::string(key) + "' (use nome, titulo, consulta)",
                  std::string(key));
    }
  }
  if (creating && !in.nome) throw Error(errc::missing_field, "o relatório precisa de 'nome'", "nome");
  if (creating && !in.consulta) throw Error(errc::missing_field, "o relatório precisa de 'consulta'", "consulta");
  return in;
}

std::int64_t report_id(const http::Request& req) { return query::parse_integer(req.param("id"), "id", 1, INT64_MAX); }

std::string_view operator_name(Operator op) {
  for (const auto& o : kOperators)
    if (o.op == op) return o.name;
  return "=";
}

std::string member_path(std::string_view where, std::string_view member) {
  return where.empty() ? std::string(member) : std::string(where) + "." + std::string(member);
}

std::string indexed(std::string_view base, std::size_t i) { return std::string(base) + "[" + std::to_string(i) + "]"; }

void invalid(const std::string& message, const std::string& field) { throw Error(errc::invalid_argument, message, field); }

service::LayerRef query_layer(const service::Scope& s, const Query& q, std::string_view where) {
  try {
    return s.layer(q.table, false);
  } catch (const Error& e) {
    if (e.code() != errc::layer_not_found) throw;
    std::string field = where.empty() ? "tabela" : std::string(where) + ".tabela";
    throw Error(errc::invalid_argument, "tabela fora do catálogo do município: " + q.table, field);
  }
}

Query parse_query(simdjson::dom::element e, std::string_view where) {
  auto o = jsonin::as_object(e, where.empty() ? "corpo" : where);
  check_members(o, {"tabela", "colunas", "filtros", "ordem", "limite"}, where);
  Query q;
  auto table = jsonin::find(o, "tabela");
  if (!table) throw Error(errc::missing_field, "a consulta precisa de 'tabela'", member_path(where, "tabela"));
  q.table = jsonin::to_string(*table, member_path(where, "tabela"));
  query::check_identifier(q.table, member_path(where, "tabela"));
  if (auto cols = jsonin::find(o, "colunas")) {
    std::string field = member_path(where, "colunas");
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
    std::string field = member_path(where, "filtros");
    std::size_t k = 0;
    for (auto f : jsonin::as_array(*filters, field)) {
      if (k == kMaxFilters) invalid("no máximo 100 filtros", field);
      q.filters.push_back(parse_filter(f, indexed(field, k++)));
    }
  }
  if (auto order = jsonin::find(o, "ordem")) {
    std::string field = member_path(where, "ordem");
    std::size_t k = 0;
    for (auto key : jsonin::as_array(*order, field)) q.order.push_back(parse_order(key, indexed(field, k++)));
  }
  if (auto limit = jsonin::find(o, "limite")) {
    std::int64_t n = 0;
    if (limit->get(n) || n < 1 || n > kMaxLimit)
      invalid("limite deve ser um inteiro de 1 a " + std::to_string(kMaxLimit), member_path(where, "limite"));
    q.limit = n;
  }
  return q;
}

Query parse_query(std::string_view json, std::string_view where) {
  simdjson::dom::parser parser;
  return parse_query(jsonin::parse(parser, json), where);
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

}  // namespace cadastre::server::explorer
