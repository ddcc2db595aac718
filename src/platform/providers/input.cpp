#include "platform/providers/input.hpp"

#include <simdjson.h>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "platform/rules.hpp"

namespace cadastre::platform::providers {
namespace {

std::string text(jsonin::object root, const char* key, std::size_t max, bool required) {
  std::string v = required ? jsonin::string(root, key) : jsonin::opt_string(root, key).value_or("");
  if (required && v.empty()) throw Error(errc::missing_field, std::string("informe ") + key, key);
  if (v.size() > max) throw Error(errc::invalid_argument, std::string(key) + " longo demais", key);
  return v;
}

PreRegistration pre_fields(jsonin::object root) {
  for (auto [key, _] : root)
    if (key != "nome" && key != "cnpj" && key != "email" && key != "responsavel" && key != "telefone" &&
        key != "mensagem")
      throw Error(errc::unknown_field, "campo desconhecido: " + std::string(key), std::string(key));
  PreRegistration p;
  p.nome = text(root, "nome", 200, true);
  p.cnpj = text(root, "cnpj", 18, true);
  std::erase_if(p.cnpj, [](char c) { return c == '.' || c == '/' || c == '-'; });
  if (p.cnpj.size() != 14 || p.cnpj.find_first_not_of("0123456789") != std::string::npos)
    throw Error(errc::invalid_argument, "cnpj deve ter 14 dígitos", "cnpj");
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
  for (auto [key, _] : root)
    if (key != "idProvedor" && key != "escrita")
      throw Error(errc::unknown_field, "campo desconhecido: " + std::string(key), std::string(key));
  return {jsonin::integer(root, "idProvedor"), jsonin::opt_bool(root, "escrita").value_or(false)};
}

std::int64_t id_field(const http::Request& req, const char* name, bool in_path) {
  std::string text = in_path ? req.param(name) : req.query_value(name).value_or("");
  if (text.empty()) throw Error(errc::missing_field, std::string("informe ") + name, name);
  return query::parse_integer(text, name, 1, INT64_MAX);
}

}  // namespace cadastre::platform::providers
