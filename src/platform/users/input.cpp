#include "platform/users/input.hpp"

#include <simdjson.h>

#include <regex>
#include <set>

#include "cadastre/error.hpp"
#include "core/json_in.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"
#include "platform/rules.hpp"

namespace cadastre::platform::users {
namespace {
// The names plataforma.permissoes_camada accepts.
const std::regex kLayerName("[A-Za-z_][A-Za-z0-9_]{0,62}");
}  // namespace

Fields parse_fields(std::string_view body, bool creating) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  Fields f;
  for (auto [key, value] : root) {
    std::string k(key);
    auto text = [&](std::size_t max) {
      std::string v = jsonin::to_string(value, k);
      if (v.size() > max) throw Error(errc::invalid_argument, k + " longo demais", k);
      return v;
    };
    if (k == "nome") f.nome = text(200);
    else if (k == "email") f.email = normalize_email(text(254));
    else if (k == "telefone") f.telefone = text(40);
    else if (k == "cargo") f.cargo = text(100);
    else if (k == "adm") f.adm = jsonin::opt_bool(root, "adm");
    else if (k == "usuarioPublico") f.publico = jsonin::opt_bool(root, "usuarioPublico");
    else if (k == "permissoes") {
      std::vector<store::LayerPermission> rules;
      std::set<std::string> layers;
      for (auto rule : jsonin::as_array(value, "permissoes")) {
        std::string written = jsonin::to_string(rule, "permissoes");
        store::LayerPermission p;
        try {
          p = store::parse_layer_permission(written);
        } catch (const Error&) {  // its message names no field of this body
          throw Error(errc::invalid_argument,
                      "permissoes: regras são camada:r, camada:w ou camada:rw; recebido " + written,
                      "permissoes");
        }
        if (p.camada != "*" && !std::regex_match(p.camada, kLayerName))
          throw Error(errc::invalid_argument, "camada inválida em permissoes: " + p.camada, "permissoes");
        // One rule per layer (the table's key): two would leave which one holds to chance.
        if (!layers.insert(p.camada).second)
          throw Error(errc::invalid_argument, "camada repetida em permissoes: " + p.camada,
                      "permissoes");
        rules.push_back(std::move(p));
      }
      if (rules.size() > 1000) throw Error(errc::invalid_argument, "permissoes demais", "permissoes");
      f.permissoes = std::move(rules);
    } else {
      throw body::unknown_member(k);
    }
  }
  if (f.nome && f.nome->empty()) throw Error(errc::invalid_argument, "nome não pode ser vazio", "nome");
  if (creating && !f.nome) throw Error(errc::missing_field, "informe nome", "nome");
  if (creating && !f.email) throw Error(errc::missing_field, "informe email", "email");
  return f;
}

std::optional<bool> parse_active_filter(const http::Request& req) {
  auto v = req.query_value("ativo");
  if (!v) return std::nullopt;
  return *v == "true";
}

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  return {
      {"UsuarioCampos",
       object({{"nome", R"({"type":"string","minLength":1,"maxLength":200})"},
               {"email", kEmail},
               {"telefone", R"({"type":"string","maxLength":40})"},
               {"cargo", R"({"type":"string","maxLength":100})"},
               {"adm", R"({"type":"boolean","nullable":true})"},
               {"usuarioPublico", R"({"type":"boolean","nullable":true})"},
               {"permissoes", R"({"type":"array","maxItems":1000,"description":"uma regra por camada; substitui todas as regras","items":{"type":"string","pattern":"^(\\*|[A-Za-z_][A-Za-z0-9_]{0,62}):[rw]*$"}})"}},
              {}, true),
       R"({"nome":"Ana Lima","email":"ana.lima@campinas.sp.gov.br","telefone":"(19) 2116-0410","cargo":"Fiscal de tributos","adm":false,"usuarioPublico":false,"permissoes":["*:r","lotes:rw","edificacoes:rw"]})",
       [](std::string_view body) { parse_fields(body, false); }},
      // POST /usuarios: the same members, nome and email required.
      {"UsuarioNovo", R"({"allOf":[)" + ref("UsuarioCampos") + R"(,{"required":["nome","email"]}]})",
       R"({"nome":"Bruno Costa","email":"bruno.costa@campinas.sp.gov.br","cargo":"Cadastrador","permissoes":["lotes:rw"]})",
       [](std::string_view body) { parse_fields(body, true); }},
  };
}

}  // namespace cadastre::platform::users
