#include "platform/search/input.hpp"

#include <simdjson.h>

#include <set>

#include "cadastre/classify.hpp"
#include "cadastre/error.hpp"
#include "cadastre/palette.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "core/utf8.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"

namespace cadastre::platform::search {
namespace {

constexpr std::size_t kMaxConditions = 20;
constexpr std::size_t kMaxIds = 200;

std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return std::string(s);
}



// A scalar condition value as text, with its JSON kind.
void scalar(jsonin::element e, Condition& c) {
  switch (e.type()) {
    case simdjson::dom::element_type::STRING:
      c.valores.emplace_back(std::string_view(e)), c.kinds.emplace_back("string");
      break;
    case simdjson::dom::element_type::INT64:
    case simdjson::dom::element_type::UINT64:
    case simdjson::dom::element_type::DOUBLE:
      c.valores.emplace_back(simdjson::minify(e)), c.kinds.emplace_back("number");
      break;
    case simdjson::dom::element_type::BOOL:
      c.valores.emplace_back(bool(e) ? "true" : "false"), c.kinds.emplace_back("boolean");
      break;
    default:
      throw Error(errc::invalid_argument, "valor deve ser um texto, número ou booleano", "valor");
  }
  if (c.valores.back().size() > 1000) throw Error(errc::invalid_argument, "valor longo demais (máx. 1000)", "valor");
}

}  // namespace

std::string parse_term(const http::Request& req, std::string_view name) {
  std::string key(name);
  auto v = req.query_value(name);
  if (!v) throw Error(errc::missing_field, "informe " + key, key);
  std::string t = trim(*v);
  std::size_t n = utf8::characters(t);
  if (n < 2 || n > 200) throw Error(errc::invalid_argument, key + " deve ter de 2 a 200 caracteres", key);
  return t;
}

std::vector<std::int64_t> parse_id_list(const http::Request& req, std::string_view name) {
  std::vector<std::int64_t> out;
  auto v = req.query_value(name);
  if (!v || v->empty()) return out;
  std::string_view rest = *v;
  while (true) {
    auto comma = rest.find(',');
    out.push_back(query::parse_integer(rest.substr(0, comma), name, 1, INT64_MAX));
    if (out.size() > kMaxIds) throw Error(errc::invalid_argument, std::string(name) + ": no máximo 200 ids", std::string(name));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return out;
}

ThematicOrder parse_thematic(std::string_view body) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  body::only_members(o, {"idCamada", "idCampo", "metodo", "classes", "paleta"});
  ThematicOrder t;
  t.camada = body::required_id(o, "idCamada");
  t.campo = body::required_id(o, "idCampo");
  t.metodo = jsonin::string(o, "metodo");
  if (!classify::known_method(t.metodo))
    throw Error(errc::invalid_argument, "metodo deve ser intervalos_iguais, quantis ou jenks", "metodo");
  auto classes = jsonin::opt_integer(o, "classes");
  if (classes) {
    if (*classes < 2 || *classes > 12) throw Error(errc::invalid_argument, "classes deve estar entre 2 e 12", "classes");
    t.classes = static_cast<std::size_t>(*classes);
  }
  if (auto p = jsonin::opt_string(o, "paleta")) {
    if (!palette::known_ramp(*p)) throw Error(errc::invalid_argument, "paleta desconhecida: " + *p, "paleta");
    t.paleta = *p;
  }
  return t;
}

FeatureQuery parse_feature_query(std::string_view body) {
  static const std::set<std::string> kOperators = {"=", "<>", "<", "<=", ">", ">=", "contem", "entre", "vazio"};
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  body::only_members(o, {"idCamada", "condicoes", "todas"});
  FeatureQuery q;
  q.camada = body::required_id(o, "idCamada");
  q.todas = jsonin::opt_bool(o, "todas").value_or(true);
  auto list = jsonin::find(o, "condicoes");
  if (!list) throw Error(errc::missing_field, "informe condicoes", "condicoes");
  auto items = jsonin::as_array(*list, "condicoes");
  for (auto item : items) {
    if (q.condicoes.size() == kMaxConditions)
      throw Error(errc::invalid_argument, "condicoes: no máximo 20", "condicoes");
    auto c = jsonin::as_object(item, "condicoes[]");
    body::only_members(c, {"idCampo", "operador", "valor"}, "condicoes[]");
    Condition cond;
    cond.campo = body::required_id(c, "idCampo");
    cond.operador = jsonin::string(c, "operador");
    if (!kOperators.count(cond.operador))
      throw Error(errc::invalid_argument, "operador deve ser =, <>, <, <=, >, >=, contem, entre ou vazio", "operador");
    auto v = jsonin::find(c, "valor");
    if (cond.operador == "vazio") {
      if (v) throw Error(errc::invalid_argument, "o operador vazio não leva valor", "valor");
    } else if (!v) {
      throw Error(errc::missing_field, "informe valor da condição", "valor");
    } else if (cond.operador == "entre") {
      simdjson::dom::array pair;
      if (v->get(pair) || pair.size() != 2)
        throw Error(errc::invalid_argument, "entre leva valor [mínimo, máximo]", "valor");
      for (auto e : pair) scalar(e, cond);
    } else {
      scalar(*v, cond);
    }
    q.condicoes.push_back(std::move(cond));
  }
  if (q.condicoes.empty()) throw Error(errc::missing_field, "condicoes: informe ao menos uma condição", "condicoes");
  return q;
}

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  const std::string id = R"({"type":"integer","format":"int64","minimum":1})";
  return {
      {"PedidoMapaTematico", object({{"idCamada", id}, {"idCampo", id},
                                     {"metodo", enumeration({"intervalos_iguais", "quantis", "jenks"})},
                                     {"classes", R"({"type":"integer","minimum":2,"maximum":12,"nullable":true,"description":"5 quando omitido"})"},
                                     {"paleta", enumeration(palette::ramp_names())}},
                                    {"idCamada", "idCampo", "metodo"}, true),
       R"({"idCamada":14,"idCampo":203,"metodo":"quantis","classes":6,"paleta":"calor"})",
       [](std::string_view body) { parse_thematic(body); }},
      {"PesquisaCaracteristicas",
       object({{"idCamada", id}, {"todas", R"({"type":"boolean","description":"true (padrão): todas as condições; false: alguma"})"},
               {"condicoes", R"({"type":"array","minItems":1,"maxItems":20,"items":)" +
                                 object({{"idCampo", id},
                                         {"operador", enumeration({"=", "<>", "<", "<=", ">", ">=", "contem", "entre", "vazio"})},
                                         {"valor", R"({"nullable":true,"oneOf":[{"type":"string","maxLength":1000},{"type":"number"},{"type":"boolean"},{"type":"array","minItems":2,"maxItems":2,"items":{"oneOf":[{"type":"string","maxLength":1000},{"type":"number"},{"type":"boolean"}]}}],"description":"texto, número ou booleano; [mínimo, máximo] com entre; omitido com vazio"})"}},
                                        {"idCampo", "operador"}, true) +
                                 "}"}},
              {"idCamada", "condicoes"}, true),
       R"({"idCamada":14,"todas":true,"condicoes":[{"idCampo":203,"operador":"entre","valor":[100,500]},{"idCampo":205,"operador":"contem","valor":"Centro"},{"idCampo":207,"operador":"vazio"}]})",
       [](std::string_view body) { parse_feature_query(body); }},
  };
}

}  // namespace cadastre::platform::search
