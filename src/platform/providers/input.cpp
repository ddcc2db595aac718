#include "platform/providers/input.hpp"

#include <simdjson.h>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"
#include "platform/rules.hpp"

namespace cadastre::platform::providers {
namespace {

std::string text(jsonin::object root, const char* key, std::size_t max, bool required) {
  std::string v = required ? jsonin::string(root, key) : jsonin::opt_string(root, key).value_or("");
  if (required && v.empty()) throw Error(errc::missing_field, std::string("informe ") + key, key);
  if (v.size() > max) throw Error(errc::invalid_argument, std::string(key) + " longo demais", key);
  return v;
}

// A CNPJ as people type it ("11.222.333/0001-81" or the 14 digits): the digits, when the two
// check digits agree with the other twelve (module 11, weights 5..2,9..2 then 6..2,9..2).
// A typo is caught here rather than becoming a provider nobody can find by its number.
std::string normalize_cnpj(std::string text, const char* field) {
  std::erase_if(text, [](char c) { return c == '.' || c == '/' || c == '-'; });
  auto bad = [&](const std::string& why) {
    return Error(errc::invalid_argument, std::string(field) + " " + why, field);
  };
  if (text.size() != 14 || text.find_first_not_of("0123456789") != std::string::npos)
    throw bad("deve ter 14 dígitos");
  if (text.find_first_not_of(text[0]) == std::string::npos) throw bad("inválido");
  auto check_digit = [&](std::size_t n) {
    int sum = 0;
    for (std::size_t i = 0; i < n; ++i)
      sum += (text[i] - '0') * static_cast<int>(2 + (n - 1 - i) % 8);
    int r = sum % 11;
    return r < 2 ? 0 : 11 - r;
  };
  if (check_digit(12) != text[12] - '0' || check_digit(13) != text[13] - '0')
    throw bad("com dígitos verificadores inválidos");
  return text;
}

PreRegistration pre_fields(jsonin::object root) {
  body::only_members(root, {"nome", "cnpj", "email", "responsavel", "telefone", "mensagem"});
  PreRegistration p;
  p.nome = text(root, "nome", 200, true);
  p.cnpj = normalize_cnpj(text(root, "cnpj", 18, true), "cnpj");
  p.email = normalize_email(text(root, "email", 254, true));
  p.responsavel = text(root, "responsavel", 200, true);
  p.telefone = text(root, "telefone", 40, false);
  p.mensagem = text(root, "mensagem", 4000, false);
  return p;
}

}  // namespace

PreRegistration parse_pre(std::string_view body) {
  simdjson::dom::parser parser;
  return pre_fields(jsonin::as_object(jsonin::parse(parser, body), "corpo"));
}

NewProvider parse_new(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  NewProvider n;
  if (auto id = jsonin::opt_integer(root, "idPreProvedor")) {
    body::only_members(root, {"idPreProvedor", "nome", "cnpj", "email", "responsavel", "telefone", "mensagem"});
    if (root.size() != 1) throw Error(errc::invalid_argument, "com idPreProvedor, nenhum outro campo", "idPreProvedor");
    n.pre_id = *id;
    return n;
  }
  n.data = pre_fields(root);
  return n;
}

Grant parse_grant(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  body::only_members(root, {"idProvedor", "escrita"});
  return {jsonin::integer(root, "idProvedor"), jsonin::opt_bool(root, "escrita").value_or(false)};
}

std::optional<std::string> cnpj_query(const http::Request& req) {
  auto cnpj = req.query_value("cnpj");
  if (!cnpj) return std::nullopt;
  if (cnpj->size() > 18) throw Error(errc::invalid_argument, "cnpj longo demais", "cnpj");
  return normalize_cnpj(*cnpj, "cnpj");
}

std::int64_t id_field(const http::Request& req, const char* name, bool in_path) {
  std::string text = in_path ? req.param(name) : req.query_value(name).value_or("");
  if (text.empty()) throw Error(errc::missing_field, std::string("informe ") + name, name);
  return query::parse_integer(text, name, 1, INT64_MAX);
}

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  return {
      {"PreCadastro",
       object({{"nome", R"({"type":"string","minLength":1,"maxLength":200})"},
               {"cnpj", R"({"type":"string","maxLength":18,"pattern":"^[0-9./-]+$","description":"14 dígitos, com ou sem pontuação, dígitos verificadores válidos"})"},
               {"email", kEmail},
               {"responsavel", R"({"type":"string","minLength":1,"maxLength":200})"},
               {"telefone", R"({"type":"string","maxLength":40,"nullable":true})"},
               {"mensagem", R"({"type":"string","maxLength":4000,"nullable":true})"}},
              {"nome", "cnpj", "email", "responsavel"}, true),
       R"({"nome":"Geo Levantamentos Ltda","cnpj":"11.222.333/0001-81","email":"contato@geolevantamentos.com.br","responsavel":"Marina Souza","telefone":"(19) 3251-4400","mensagem":"Levantamento planialtimétrico e cadastro imobiliário."})",
       [](std::string_view body) { parse_pre(body); }},
      {"ProvedorNovo",
       R"({"oneOf":[{"type":"object","required":["idPreProvedor"],"additionalProperties":false,"properties":{"idPreProvedor":{"type":"integer","format":"int64"}}},)" +
           ref("PreCadastro") + "]}",
       R"({"nome":"Geo Levantamentos Ltda","cnpj":"11222333000181","email":"contato@geolevantamentos.com.br","responsavel":"Marina Souza","telefone":"(19) 3251-4400"})",
       [](std::string_view body) { parse_new(body); }},
      {"Concessao", object({{"idProvedor", kInt}, {"escrita", kBool}}, {"idProvedor"}, true),
       R"({"idProvedor":7,"escrita":true})", [](std::string_view body) { parse_grant(body); }},
  };
}

}  // namespace cadastre::platform::providers
