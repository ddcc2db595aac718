#include "platform/values/input.hpp"

#include <simdjson.h>

#include <cmath>
#include <set>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "core/utf8.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"

namespace cadastre::platform::values {
namespace {

constexpr std::size_t kMaxBatch = 500;
constexpr std::size_t kMaxCopyFields = 1000;

using body::positive_id;
using body::required_id;

// The value exactly as sent, null included ("valor": null empties a value), re-serialised
// compactly: field_values::check_value reads the JSON text.
std::string value_text(jsonin::object o, const std::string& where) {
  simdjson::dom::element e;
  if (o.at_key("valor").get(e)) throw Error(errc::missing_field, "informe valor" + where, "valor");
  return simdjson::minify(e);
}


}  // namespace

NewValue parse_new_value(std::string_view body) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  body::only_members(o, {"idGeometria", "idCampo", "valor"});
  NewValue v;
  v.geometria = required_id(o, "idGeometria");
  v.entry.campo = required_id(o, "idCampo");
  v.entry.valor = value_text(o, "");
  return v;
}

std::string parse_change(std::string_view body) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  body::only_members(o, {"valor"});
  return value_text(o, "");
}

Batch parse_batch(std::string_view body) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  body::only_members(o, {"idGeometria", "valores"});
  Batch b;
  b.geometria = required_id(o, "idGeometria");
  auto list = jsonin::find(o, "valores");
  if (!list) throw Error(errc::missing_field, "informe valores", "valores");
  std::set<std::int64_t> seen;
  for (auto item : jsonin::as_array(*list, "valores")) {
    if (b.valores.size() == kMaxBatch)
      throw Error(errc::invalid_argument, "no máximo " + std::to_string(kMaxBatch) + " valores por vez", "valores");
    auto entry = jsonin::as_object(item, "valores");
    body::only_members(entry, {"idCampo", "valor"});
    Entry e{required_id(entry, "idCampo"), ""};
    e.valor = value_text(entry, " do campo " + std::to_string(e.campo));
    // Twice the same field would leave which value wins to the order of the list.
    if (!seen.insert(e.campo).second)
      throw Error(errc::invalid_argument, "idCampo repetido em valores: " + std::to_string(e.campo), "valores");
    b.valores.push_back(std::move(e));
  }
  if (b.valores.empty()) throw Error(errc::invalid_argument, "valores está vazio", "valores");
  return b;
}

CopyOrder parse_copy(std::string_view body) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  body::only_members(o, {"idGeometriaOrigem", "idGeometriaDestino", "idCampos"});
  CopyOrder c;
  c.origem = required_id(o, "idGeometriaOrigem");
  c.destino = required_id(o, "idGeometriaDestino");
  if (c.origem == c.destino)
    throw Error(errc::invalid_argument, "idGeometriaDestino é a própria origem", "idGeometriaDestino");
  if (auto list = jsonin::find(o, "idCampos")) {
    std::vector<std::int64_t> ids;
    std::set<std::int64_t> seen;
    for (auto item : jsonin::as_array(*list, "idCampos")) {
      if (ids.size() == kMaxCopyFields) throw Error(errc::invalid_argument, "idCampos demais", "idCampos");
      std::int64_t id = positive_id(item, "idCampos");
      if (seen.insert(id).second) ids.push_back(id);
    }
    if (ids.empty()) throw Error(errc::invalid_argument, "idCampos está vazio (omita-o para copiar todos)", "idCampos");
    c.campos = std::move(ids);
  }
  return c;
}

std::optional<std::int64_t> optional_id(const http::Request& req, std::string_view name) {
  auto v = req.query_value(name);
  if (!v) return std::nullopt;
  return query::parse_integer(*v, name, 1, INT64_MAX);
}

ListFilter parse_list_filter(const http::Request& req) {
  ListFilter f;
  int given = 0;
  for (auto [name, record] : {std::pair{"idGeometria", "geometria"}, {"idCampo", "campo"}, {"idCamada", "camada"}}) {
    if (auto id = optional_id(req, name)) {
      f = {record, *id};
      ++given;
    }
  }
  if (given != 1)
    throw Error(given ? errc::invalid_argument : errc::missing_field,
                "informe um (e só um) filtro: idGeometria, idCampo ou idCamada", "idGeometria");
  return f;
}

Point parse_point(const http::Request& req) {
  auto coordinate = [&](const char* name, double limit) {
    auto v = req.query_value(name);
    if (!v) throw Error(errc::missing_field, std::string("informe ") + name + " (longitude e latitude em SIRGAS 2000)", name);
    double d = 0;
    std::size_t used = 0;
    try {
      d = std::stod(*v, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != v->size() || !std::isfinite(d) || std::fabs(d) > limit)
      throw Error(errc::invalid_argument,
                  std::string(name) + " deve ser um número entre -" + std::to_string(int(limit)) + " e " +
                      std::to_string(int(limit)),
                  name);
    return d;
  };
  return {coordinate("x", 180), coordinate("y", 90)};
}

std::string parse_term(const http::Request& req) {
  auto v = req.query_value("termo");
  if (!v) throw Error(errc::missing_field, "informe termo", "termo");
  std::string t = *v;
  auto first = t.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) t.clear();
  else t = t.substr(first, t.find_last_not_of(" \t\r\n") - first + 1);
  // Characters, not bytes: "sã" is two.
  std::size_t chars = utf8::characters(t);
  if (chars < 2) throw Error(errc::invalid_argument, "termo deve ter ao menos 2 caracteres", "termo");
  if (chars > 200) throw Error(errc::invalid_argument, "termo deve ter no máximo 200 caracteres", "termo");
  return t;
}

bool parse_linked(const http::Request& req) {
  auto v = req.query_value("vinculado");
  if (!v) throw Error(errc::missing_field, "informe vinculado (true ou false)", "vinculado");
  if (*v != "true" && *v != "false") throw Error(errc::invalid_argument, "vinculado deve ser true ou false", "vinculado");
  return *v == "true";
}

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  const std::string id = R"({"type":"integer","format":"int64","minimum":1})";
  return {
      {"ValorNovo", object({{"idGeometria", id}, {"idCampo", id}, {"valor", kAnyValue}},
                           {"idGeometria", "idCampo", "valor"}, true),
       R"({"idGeometria":5821,"idCampo":203,"valor":"Residencial"})",
       [](std::string_view body) { parse_new_value(body); }},
      {"ValorAlteracao", object({{"valor", kAnyValue}}, {"valor"}, true), R"({"valor":342.75})",
       [](std::string_view body) { parse_change(body); }},
      {"ValoresLote", object({{"idGeometria", id},
                              {"valores", R"({"type":"array","minItems":1,"maxItems":500,"description":"cada campo uma vez","items":)" +
                                              object({{"idCampo", id}, {"valor", kAnyValue}}, {"idCampo", "valor"}, true) +
                                              "}"}},
                             {"idGeometria", "valores"}, true),
       R"({"idGeometria":5821,"valores":[{"idCampo":203,"valor":"Residencial"},{"idCampo":204,"valor":342.75},{"idCampo":205,"valor":"2019-08-14"},{"idCampo":206,"valor":true},{"idCampo":207,"valor":["muro","calçada"]},{"idCampo":208,"valor":null}]})",
       [](std::string_view body) { parse_batch(body); }},
      {"CopiaDeValores", object({{"idGeometriaOrigem", id}, {"idGeometriaDestino", id},
                                 {"idCampos", R"({"type":"array","items":{"type":"integer","format":"int64","minimum":1},"minItems":1,"maxItems":1000,"nullable":true,"description":"os campos da origem a copiar; omitido: todos"})"}},
                                {"idGeometriaOrigem", "idGeometriaDestino"}, true),
       R"({"idGeometriaOrigem":5821,"idGeometriaDestino":5822,"idCampos":[203,204,207]})",
       [](std::string_view body) { parse_copy(body); }},
  };
}

}  // namespace cadastre::platform::values
