#include "platform/fields/input.hpp"

#include <simdjson.h>

#include <climits>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"

namespace cadastre::platform::fields {
namespace {

// A bound as numeric text (the column is numeric): written back as the shortest form.
std::string number_text(jsonin::element e, const std::string& field) {
  JsonWriter w;
  w.value(jsonin::to_number(e, field));
  return std::move(w).str();
}

field_values::Nullable<std::string> nullable_text(jsonin::element e, const std::string& field, std::size_t max) {
  if (e.is_null()) return std::optional<std::string>();
  std::string v = jsonin::to_string(e, field);
  if (v.size() > max)
    throw Error(errc::invalid_argument, field + " deve ter até " + std::to_string(max) + " caracteres", field);
  return std::optional<std::string>(v);
}

field_values::Changes changes_of(jsonin::object root, bool creating) {
  field_values::Changes c;
  for (auto [key, value] : root) {
    std::string k(key);
    if (k == "idFormulario") {
      if (creating) continue;
      throw Error(errc::invalid_argument, "idFormulario: um campo não muda de formulário", "idFormulario");
    }
    auto flag = [&] {
      bool b;
      if (value.get(b)) throw Error(errc::invalid_argument, "campo '" + k + "' deve ser verdadeiro ou falso", k);
      return b;
    };
    if (k == "nome") c.nome = jsonin::to_string(value, k);
    else if (k == "chave") c.chave = jsonin::to_string(value, k);
    else if (k == "tipo") c.tipo = jsonin::to_string(value, k);
    else if (k == "obrigatorio") c.obrigatorio = flag();
    else if (k == "unico") c.unico = flag();
    else if (k == "ativo") c.ativo = flag();
    else if (k == "minimo" || k == "maximo") {
      field_values::Nullable<std::string> n = value.is_null() ? std::optional<std::string>() : number_text(value, k);
      (k == "minimo" ? c.minimo : c.maximo) = n;
    } else if (k == "padrao") c.padrao = nullable_text(value, k, 500);
    else if (k == "dominio") c.dominio = nullable_text(value, k, 63);
    else if (k == "formula") c.formula = nullable_text(value, k, 2000);
    else if (k == "avaliacao") c.avaliacao = nullable_text(value, k, 63);
    else if (k == "ajuda") c.ajuda = nullable_text(value, k, 2000);
    else if (k == "opcoes") {
      if (value.is_null()) {
        c.opcoes = std::optional<std::vector<std::string>>();
        continue;
      }
      std::vector<std::string> options;
      for (auto o : jsonin::as_array(value, k)) {
        if (options.size() == 500) throw Error(errc::invalid_argument, "opcoes: no máximo 500", k);
        options.push_back(jsonin::to_string(o, "opcoes"));
      }
      c.opcoes = std::optional<std::vector<std::string>>(std::move(options));
    } else if (k == "ordem") {
      std::int64_t o = jsonin::integer(root, "ordem");
      if (o < 0 || o > INT32_MAX) throw Error(errc::invalid_argument, "ordem deve ser de 0 a 2147483647", "ordem");
      c.ordem = static_cast<int>(o);
    } else {
      throw body::unknown_member(k);
    }
  }
  return c;
}

}  // namespace

NewField parse_new(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  NewField n;
  n.formulario = jsonin::integer(root, "idFormulario");
  if (n.formulario <= 0) throw Error(errc::invalid_argument, "idFormulario deve ser um id positivo", "idFormulario");
  n.attributes = changes_of(root, true);
  for (auto [name, given] : {std::pair{"nome", n.attributes.nome.has_value()},
                             std::pair{"chave", n.attributes.chave.has_value()},
                             std::pair{"tipo", n.attributes.tipo.has_value()}})
    if (!given) throw Error(errc::missing_field, std::string("informe ") + name, name);
  return n;
}

field_values::Changes parse_change(std::string_view body) {
  simdjson::dom::parser parser;
  return changes_of(jsonin::as_object(jsonin::parse(parser, body), "corpo"), false);
}

Conversion parse_conversion(const http::Request& req) {
  Conversion c;
  auto tipo = req.query_value("tipo");
  if (!tipo || tipo->empty()) throw Error(errc::missing_field, "informe tipo, o tipo de destino", "tipo");
  c.tipo = *tipo;
  if (auto split = req.query_value("split")) {
    if (split->empty() || split->size() > 10)
      throw Error(errc::invalid_argument, "split é o separador: de 1 a 10 caracteres", "split");
    c.split = *split;
  }
  c.confirmar = req.query_value("confirmar").value_or("false") == "true";
  return c;
}

std::optional<std::int64_t> query_id(const http::Request& req, std::string_view name) {
  auto v = req.query_value(name);
  if (!v) return std::nullopt;
  return query::parse_integer(*v, name, 1, INT64_MAX);
}

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  // null clears an optional attribute. Which attributes apply depends on tipo (minimo and
  // maximo: numbers and sizes; opcoes: lista, multipla; padrao: texto; dominio:
  // lista_dominio; formula: calculado), checked with the field's other attributes.
  const char* key = R"({"type":"string","pattern":"^[a-z][a-z0-9_]{0,62}$"})";
  const char* nullable_key = R"({"type":"string","pattern":"^[a-z][a-z0-9_]{0,62}$","nullable":true})";
  const Props changeable = {
      {"nome", R"({"type":"string","minLength":1,"maxLength":200})"},
      {"chave", key},
      {"tipo", kFieldType},
      {"obrigatorio", kBool},
      {"unico", kBool},
      {"minimo", kNullableNumber},
      {"maximo", kNullableNumber},
      {"padrao", R"({"type":"string","maxLength":500,"nullable":true,"description":"uma expressão regular que o texto segue"})"},
      {"opcoes", R"({"type":"array","maxItems":500,"items":{"type":"string","minLength":1,"maxLength":200},"nullable":true})"},
      {"dominio", nullable_key},
      {"formula", R"({"type":"string","maxLength":2000,"nullable":true})"},
      {"avaliacao", nullable_key},
      {"ajuda", R"({"type":"string","maxLength":2000,"nullable":true})"},
      {"ordem", R"({"type":"integer","minimum":0,"maximum":2147483647})"},
      {"ativo", kBool}};
  Props creating = changeable;
  creating.insert(creating.begin(), {"idFormulario", R"({"type":"integer","format":"int64","minimum":1})"});
  return {
      {"CampoNovo", object(creating, {"idFormulario", "nome", "chave", "tipo"}, true),
       R"({"idFormulario":7,"nome":"Área construída","chave":"area_construida","tipo":"decimal","obrigatorio":true,"unico":false,"minimo":0,"maximo":100000,"ajuda":"Em metros quadrados, somadas todas as edificações do lote","avaliacao":"area_construida","ordem":3})",
       [](std::string_view body) { parse_new(body); }},
      {"CampoAlteracao", object(changeable, {}, true),
       R"({"nome":"Padrão construtivo","tipo":"lista","opcoes":["baixo","normal","alto","luxo"],"minimo":null,"maximo":null,"obrigatorio":false,"ordem":4})",
       [](std::string_view body) { parse_change(body); }},
  };
}

}  // namespace cadastre::platform::fields
