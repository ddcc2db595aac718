#include "platform/contracting/input.hpp"

#include <simdjson.h>

#include <regex>
#include <set>

#include "cadastre/error.hpp"
#include "cadastre/pricing.hpp"
#include "core/json_in.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"

namespace cadastre::platform::contracting {
namespace {

jsonin::object object_of(simdjson::dom::parser& parser, std::string_view body,
                         std::initializer_list<std::string_view> known) {
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  body::only_members(root, known);
  return root;
}

std::int64_t bounded(std::int64_t v, std::int64_t max, std::string_view field) {
  if (v < 1 || v > max)
    throw Error(errc::invalid_argument, std::string(field) + " deve ser de 1 a " + std::to_string(max),
                std::string(field));
  return v;
}

}  // namespace

std::int64_t parse_plan_request(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = object_of(parser, body, {"idPlano"});
  return bounded(jsonin::integer(root, "idPlano"), INT64_MAX, "idPlano");
}

std::pair<std::int64_t, bool> parse_storage_request(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = object_of(parser, body, {"gb", "modo"});
  std::int64_t gb = bounded(jsonin::integer(root, "gb"), kMaxGb, "gb");
  std::string modo = jsonin::opt_string(root, "modo").value_or("adicional");
  if (modo != "adicional" && modo != "upgrade")
    throw Error(errc::invalid_argument, "modo deve ser adicional ou upgrade", "modo");
  return {gb, modo == "upgrade"};
}

std::int64_t parse_users_request(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = object_of(parser, body, {"quantidade"});
  return bounded(jsonin::integer(root, "quantidade"), kMaxUsers, "quantidade");
}

std::vector<std::pair<std::string, std::int64_t>> parse_addons_request(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = object_of(parser, body, {"itens"});
  auto items = jsonin::find(root, "itens");
  if (!items) throw Error(errc::missing_field, "informe itens", "itens");
  std::vector<std::pair<std::string, std::int64_t>> out;
  std::set<std::string> seen;
  for (auto item : jsonin::as_array(*items, "itens")) {
    auto o = jsonin::as_object(item, "itens");
    body::only_members(o, {"codigo", "quantidade"}, "itens");
    std::string codigo = jsonin::string(o, "codigo");
    if (codigo.empty() || codigo.size() > 41) throw Error(errc::invalid_argument, "codigo inválido em itens", "itens");
    if (!seen.insert(codigo).second)
      throw Error(errc::invalid_argument, "adicional repetido em itens: " + codigo, "itens");
    out.emplace_back(codigo, bounded(jsonin::integer(o, "quantidade"), kMaxAddonUnits, "quantidade"));
    if (out.size() > kMaxAddonItems) throw Error(errc::invalid_argument, "itens demais (até 50)", "itens");
  }
  if (out.empty()) throw Error(errc::invalid_argument, "itens não pode ser vazio", "itens");
  return out;
}

ContractRequest parse_contract_request(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = object_of(parser, body, {"idOrcamento", "hash"});
  ContractRequest r{bounded(jsonin::integer(root, "idOrcamento"), INT64_MAX, "idOrcamento"),
                    jsonin::string(root, "hash")};
  static const std::regex hex("[0-9a-f]{64}");
  if (!std::regex_match(r.hash, hex))
    throw Error(errc::invalid_argument, "hash deve ser o SHA-256 do orçamento (64 dígitos hexadecimais)", "hash");
  return r;
}

CalculatorRequest parse_calculator_request(std::string_view body, bool optional_gb) {
  simdjson::dom::parser parser;
  auto root = object_of(parser, body.empty() ? std::string_view("{}") : body, {"gb", "data"});
  CalculatorRequest r;
  if (auto gb = jsonin::opt_integer(root, "gb")) r.gb = bounded(*gb, kMaxGb, "gb");
  else if (!optional_gb) throw Error(errc::missing_field, "informe gb", "gb");
  if (auto d = jsonin::opt_string(root, "data")) r.data = pricing::format(pricing::parse_date(*d, "data"));
  return r;
}

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  const std::string id = R"({"type":"integer","format":"int64","minimum":1})";
  auto up_to = [](std::int64_t max) {
    return R"({"type":"integer","minimum":1,"maximum":)" + std::to_string(max) + "}";
  };
  return {
      {"PedidoPlano", object({{"idPlano", id}}, {"idPlano"}, true), R"({"idPlano":3})",
       [](std::string_view body) { parse_plan_request(body); }},
      {"PedidoArmazenamento", object({{"gb", up_to(kMaxGb)}, {"modo", enumeration({"adicional", "upgrade"})}}, {"gb"}, true),
       R"({"gb":50,"modo":"adicional"})", [](std::string_view body) { parse_storage_request(body); }},
      {"PedidoUsuarios", object({{"quantidade", up_to(kMaxUsers)}}, {"quantidade"}, true), R"({"quantidade":5})",
       [](std::string_view body) { parse_users_request(body); }},
      // Each codigo once.
      {"PedidoAdicionais",
       object({{"itens", R"({"type":"array","minItems":1,"maxItems":)" + std::to_string(kMaxAddonItems) + R"(,"items":)" +
                             object({{"codigo", R"({"type":"string","minLength":1,"maxLength":41})"},
                                     {"quantidade", up_to(kMaxAddonUnits)}},
                                    {"codigo", "quantidade"}, true) +
                             "}"}},
              {"itens"}, true),
       R"({"itens":[{"codigo":"suporte_prioritario","quantidade":2},{"codigo":"modulo_ouvidoria","quantidade":1}]})",
       [](std::string_view body) { parse_addons_request(body); }},
      {"ContratoPedido", object({{"idOrcamento", id}, {"hash", R"({"type":"string","pattern":"^[0-9a-f]{64}$"})"}},
                                {"idOrcamento", "hash"}, true),
       R"({"idOrcamento":481,"hash":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"})",
       [](std::string_view body) { parse_contract_request(body); }},
      // gb is required but for /calculadora/armazenamento/renovacao.
      {"CalculoArmazenamentoPedido", object({{"gb", up_to(kMaxGb)}, {"data", kDate}}, {}, true),
       R"({"gb":200,"data":"2025-03-01"})",
       [](std::string_view body) {
         parse_calculator_request(body, true);
         parse_calculator_request(body, false);
       }},
  };
}

}  // namespace cadastre::platform::contracting
