#include "platform/layer_users/input.hpp"

#include <simdjson.h>

#include "cadastre/error.hpp"
#include "core/json_in.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"

namespace cadastre::platform::layer_users {
namespace {

std::string right(jsonin::object root) {
  std::string d = jsonin::string(root, "direito");
  if (d != "leitura" && d != "edicao")
    throw Error(errc::invalid_argument, "direito deve ser leitura ou edicao", "direito");
  return d;
}


}  // namespace

NewRight parse_new(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  body::only_members(root, {"idCamada", "idUsuario", "direito"});
  return {body::required_id(root, "idCamada"), body::required_id(root, "idUsuario"), right(root)};
}

std::string parse_change(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  for (auto [key, value] : root) {
    if (key == "idCamada" || key == "idUsuario")
      throw Error(errc::invalid_argument,
                  std::string(key) + " de um direito não muda: exclua-o e conceda outro", std::string(key));
    if (key != "direito") throw body::unknown_member(std::string(key));
  }
  return right(root);
}

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  const std::string id = R"({"type":"integer","format":"int64","minimum":1})";
  return {
      {"CamadaUsuarioNovo", object({{"idCamada", id}, {"idUsuario", id}, {"direito", enumeration({"leitura", "edicao"})}},
                                   {"idCamada", "idUsuario", "direito"}, true),
       R"({"idCamada":42,"idUsuario":17,"direito":"edicao"})", [](std::string_view body) { parse_new(body); }},
      {"CamadaUsuarioAlteracao", object({{"direito", enumeration({"leitura", "edicao"})}}, {"direito"}, true),
       R"({"direito":"leitura"})", [](std::string_view body) { parse_change(body); }},
  };
}

}  // namespace cadastre::platform::layer_users
