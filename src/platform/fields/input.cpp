#include "platform/fields/input.hpp"

#include <simdjson.h>

#include <climits>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "platform/common/json_schema.hpp"

namespace cadastre::platform::fields {
namespace {

// A bound as numeric text (the column is numeric): written back as the shortest form.
std::string number_text(jsonin::element e, const std::string& field) {
  JsonWriter w;
  w.value(jsonin::to_number(e, field));
  return std::move(w).str();
}

Nullable<std::string> nullable_text(jsonin::element e, const std::string& field, std::size_t max) {
  if (e.is_null()) return std::optional<std::string>();
  std::string v = jsonin::to_string(e, field);
  if (v.size() > max)
    throw Error(errc::invalid_argument, field + " deve ter até " + std::to_string(max) + " caracteres", field);
  return std::optional<std::string>(v);
}

Changes changes_of(jsonin::object root, bool creating) {
  Changes c;
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
      Nullable<std::string> n = value.is_null() ? std::optional<std::string>() : number_text(value, k);
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
      throw Error(errc::unknown_field, "campo desconhecido: " + k, k);
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

Changes parse_change(std::string_view body) {
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
  return {
      {"CampoNovo", R"({"allOf":[{"$ref":"#/components/schemas/CampoAlteracao"},{"type":"object","required":["idFormulario","nome","chave","tipo"],"properties":{"idFormulario":{"type":"integer"}}}]})",
       "", {}},
      {"CampoAlteracao", object({{"nome", R"({"type":"string","minLength":1,"maxLength":200})"},
                                 {"chave", R"({"type":"string","pattern":"^[a-z][a-z0-9_]{0,62}$"})"}, {"tipo", kFieldType},
                                 {"obrigatorio", kBool}, {"unico", kBool}, {"minimo", kNullableNumber},
                                 {"maximo", kNullableNumber}, {"padrao", kNullableText}, {"opcoes", kNullableTexts},
                                 {"dominio", kNullableText}, {"formula", kNullableText}, {"avaliacao", kNullableText},
                                 {"ajuda", kNullableText}, {"ordem", R"({"type":"integer","minimum":0})"}, {"ativo", kBool}}),
       "", {}},
  };
}

}  // namespace cadastre::platform::fields
