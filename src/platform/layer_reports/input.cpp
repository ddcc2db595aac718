#include "platform/layer_reports/input.hpp"

#include <simdjson.h>

#include <set>

#include "cadastre/error.hpp"
#include "core/json_in.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"

namespace cadastre::platform::layer_reports {
namespace {

using body::positive_id;
using body::present;
using body::text;

constexpr std::size_t kMaxFields = 50;

std::vector<std::int64_t> field_ids(jsonin::element e) {
  std::vector<std::int64_t> out;
  std::set<std::int64_t> seen;
  for (auto item : jsonin::as_array(e, "campos")) {
    if (out.size() == kMaxFields) throw Error(errc::invalid_argument, "campos: no máximo 50", "campos");
    out.push_back(positive_id(item, "campos"));
    if (!seen.insert(out.back()).second)
      throw Error(errc::invalid_argument, "campos: o campo " + std::to_string(out.back()) + " aparece duas vezes", "campos");
  }
  if (out.empty()) throw Error(errc::invalid_argument, "campos: informe ao menos um campo", "campos");
  return out;
}

// The filter as search::parse_feature_query reads it: the same body as
// POST /pesquisa-caracteristicas, so both routes take the same conditions.
search::FeatureQuery filters_of(std::int64_t camada, const std::string& condicoes, bool todas) {
  search::FeatureQuery q;
  q.camada = camada;
  q.todas = todas;
  if (condicoes == "[]") return q;  // no filter: every geometry of the layer
  return search::parse_feature_query(R"({"idCamada":)" + std::to_string(camada) + R"(,"condicoes":)" + condicoes +
                                     R"(,"todas":)" + (todas ? "true" : "false") + "}");
}

}  // namespace

ReportFields parse_report(std::string_view body, bool creating) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  if (creating) {
    body::only_members(o, {"idCamada", "nome", "descricao", "campos", "filtros", "agrupamento"});
  } else {
    if (present(o, "idCamada")) throw Error(errc::invalid_argument, "idCamada: um relatório não muda de camada", "idCamada");
    body::only_members(o, {"nome", "descricao", "campos", "filtros", "agrupamento"});
  }
  ReportFields f;
  if (creating) {
    auto c = jsonin::find(o, "idCamada");
    if (!c) throw Error(errc::missing_field, "informe idCamada", "idCamada");
    f.camada = positive_id(*c, "idCamada");
    if (!present(o, "nome")) throw Error(errc::missing_field, "informe nome", "nome");
    if (!jsonin::find(o, "campos")) throw Error(errc::missing_field, "informe campos", "campos");
  }
  if (present(o, "nome")) f.nome = text(o, "nome", 200, true);
  if (jsonin::find(o, "descricao")) f.descricao = text(o, "descricao", 4000, false);
  if (auto c = jsonin::find(o, "campos")) f.campos = field_ids(*c);
  if (auto fl = jsonin::find(o, "filtros")) {
    auto fo = jsonin::as_object(*fl, "filtros");
    body::only_members(fo, {"condicoes", "todas"}, "filtros");
    std::string condicoes = "[]";
    if (auto c = jsonin::find(fo, "condicoes")) {
      jsonin::as_array(*c, "condicoes");
      condicoes = simdjson::minify(*c);
    }
    bool todas = jsonin::opt_bool(fo, "todas").value_or(true);
    // The layer is checked against the conditions' fields later (the store), so any id parses here.
    f.filtros = filters_of(f.camada.value_or(1), condicoes, todas);
    f.filtros_json = R"({"condicoes":)" + condicoes + R"(,"todas":)" + (todas ? "true" : "false") + "}";
  }
  if (present(o, "agrupamento")) {
    f.set_agrupamento = true;
    if (auto a = jsonin::find(o, "agrupamento")) f.agrupamento = positive_id(*a, "agrupamento");
  }
  if (!creating && !f.nome && !f.descricao && !f.campos && !f.filtros && !f.set_agrupamento)
    throw Error(errc::missing_field, "informe ao menos um campo a alterar", "corpo");
  return f;
}

search::FeatureQuery parse_filters(std::int64_t camada, std::string_view filtros_json) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, filtros_json), "filtros");
  std::string condicoes = "[]";
  if (auto c = jsonin::find(o, "condicoes")) condicoes = simdjson::minify(*c);
  return filters_of(camada, condicoes, jsonin::opt_bool(o, "todas").value_or(true));
}

Format parse_format(const http::Request& req) {
  auto v = req.query_value("formato");
  if (!v || v->empty() || *v == "json") return Format::json;
  if (*v == "pdf") return Format::pdf;
  if (*v == "xlsx") return Format::xlsx;
  throw Error(errc::invalid_argument, "formato deve ser json, pdf ou xlsx", "formato");
}

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  // The conditions of POST /pesquisa-caracteristicas (none: every geometry of the layer).
  const std::string filters =
      object({{"condicoes", R"({"type":"array","maxItems":20,"items":)" +
                                object({{"idCampo", R"({"type":"integer","format":"int64","minimum":1})"},
                                        {"operador", enumeration({"=", "<>", "<", "<=", ">", ">=", "contem", "entre", "vazio"})},
                                        {"valor", kAnyValue}},
                                       {"idCampo", "operador"}, true) +
                                "}"},
              {"todas", kBool}},
             {}, true);
  const Props changeable = {
      {"nome", R"({"type":"string","minLength":1,"maxLength":200})"},
      {"descricao", R"({"type":"string","maxLength":4000})"},
      {"campos", R"({"type":"array","minItems":1,"maxItems":50,"items":{"type":"integer","format":"int64","minimum":1}})"},
      {"filtros", filters},
      {"agrupamento", R"({"type":"integer","format":"int64","minimum":1,"nullable":true,"description":"o idCampo que agrupa as linhas; null: sem agrupamento"})"}};
  Props creating = changeable;
  creating.insert(creating.begin(), {"idCamada", R"({"type":"integer","format":"int64","minimum":1})"});
  return {
      {"RelatorioCamadaNovo", object(creating, {"idCamada", "nome", "campos"}, true),
       R"({"idCamada":41,"nome":"Lotes grandes por bairro","descricao":"Lotes com mais de 600 m²","campos":[101,102,105],"filtros":{"condicoes":[{"idCampo":102,"operador":">","valor":600},{"idCampo":105,"operador":"vazio"}],"todas":true},"agrupamento":103})",
       [](std::string_view body) { parse_report(body, true); }},
      {"RelatorioCamadaAlteracao", object(changeable, {}, true),
       R"({"nome":"Todos os lotes","campos":[101,102],"filtros":{"condicoes":[]},"agrupamento":null})",
       [](std::string_view body) { parse_report(body, false); }},
  };
}

}  // namespace cadastre::platform::layer_reports
