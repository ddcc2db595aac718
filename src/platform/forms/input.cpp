#include "platform/forms/input.hpp"

#include <simdjson.h>

#include <climits>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"

namespace cadastre::platform::forms {
namespace {

Fields fields_of(jsonin::object root, bool creating) {
  Fields f;
  for (auto [key, value] : root) {
    std::string k(key);
    if (k == "idCamada" && creating) continue;
    if (k == "nome") {
      std::string nome = jsonin::to_string(value, k);
      if (nome.find_first_not_of(" \t\r\n") == std::string::npos || nome.size() > 200)
        throw Error(errc::invalid_argument, "nome deve ter de 1 a 200 caracteres", "nome");
      f.nome = nome;
    } else if (k == "descricao") {
      if (value.is_null()) {
        f.descricao = std::optional<std::string>();
        continue;
      }
      std::string d = jsonin::to_string(value, k);
      if (d.size() > 4000) throw Error(errc::invalid_argument, "descricao deve ter até 4000 caracteres", "descricao");
      f.descricao = d;
    } else if (k == "ordem") {
      std::int64_t o = jsonin::integer(root, "ordem");
      if (o < 0 || o > INT32_MAX) throw Error(errc::invalid_argument, "ordem deve ser de 0 a 2147483647", "ordem");
      f.ordem = static_cast<int>(o);
    } else if (k == "ativo") {
      throw Error(errc::invalid_argument, "ativo muda por POST /formularios/inativar/:id e /ativar/:id", "ativo");
    } else {
      throw body::unknown_member(k);
    }
  }
  return f;
}

}  // namespace

NewForm parse_new(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  NewForm n;
  n.camada = jsonin::integer(root, "idCamada");
  if (n.camada <= 0) throw Error(errc::invalid_argument, "idCamada deve ser um id positivo", "idCamada");
  n.fields = fields_of(root, true);
  if (!n.fields.nome) throw Error(errc::missing_field, "informe nome", "nome");
  return n;
}

Fields parse_change(std::string_view body) {
  simdjson::dom::parser parser;
  return fields_of(jsonin::as_object(jsonin::parse(parser, body), "corpo"), false);
}

std::optional<std::int64_t> query_id(const http::Request& req, std::string_view name) {
  auto v = req.query_value(name);
  if (!v) return std::nullopt;
  return query::parse_integer(*v, name, 1, INT64_MAX);
}

std::optional<bool> query_active(const http::Request& req) {
  auto v = req.query_value("ativo");
  if (!v) return std::nullopt;
  return *v == "true";
}

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  // ativo changes by POST /formularios/inativar/:id and /ativar/:id; descricao null clears it.
  const Props changeable = {{"nome", R"({"type":"string","minLength":1,"maxLength":200})"},
                            {"descricao", R"({"type":"string","maxLength":4000,"nullable":true})"},
                            {"ordem", R"({"type":"integer","minimum":0,"maximum":2147483647})"}};
  Props creating = changeable;
  creating.insert(creating.begin(), {"idCamada", R"({"type":"integer","format":"int64","minimum":1})"});
  return {
      {"FormularioNovo", object(creating, {"idCamada", "nome"}, true),
       R"({"idCamada":41,"nome":"Boletim de cadastro imobiliário","descricao":"Dados do lote e das edificações, coletados em campo","ordem":1})",
       [](std::string_view body) { parse_new(body); }},
      {"FormularioAlteracao", object(changeable, {}, true),
       R"({"nome":"Boletim de cadastro imobiliário 2025","descricao":null,"ordem":2})",
       [](std::string_view body) { parse_change(body); }},
  };
}

}  // namespace cadastre::platform::forms
