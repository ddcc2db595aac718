#include "platform/profile/input.hpp"

#include <simdjson.h>

#include "cadastre/error.hpp"
#include "core/json_in.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"
#include "platform/rules.hpp"

namespace cadastre::platform::profile {

Update parse_update(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  Update u;
  auto bounded = [&](const char* key, std::size_t max) -> std::optional<std::string> {
    auto v = jsonin::opt_string(root, key);
    if (v && v->size() > max) throw Error(errc::invalid_argument, std::string(key) + " longo demais", key);
    return v;
  };
  body::only_members(root, {"nome", "telefone", "cargo", "email", "senhaAtual", "novaSenha"});
  u.fields.nome = bounded("nome", 200);
  if (u.fields.nome && u.fields.nome->empty()) throw Error(errc::invalid_argument, "nome não pode ser vazio", "nome");
  u.fields.telefone = bounded("telefone", 40);
  u.fields.cargo = bounded("cargo", 100);
  if (auto e = bounded("email", 254)) u.email = normalize_email(*e);
  u.senha_atual = bounded("senhaAtual", 1024).value_or("");
  u.nova_senha = bounded("novaSenha", 1024).value_or("");
  if (!u.nova_senha.empty()) {
    check_new_password(u.nova_senha, "novaSenha");
    if (u.senha_atual.empty()) throw Error(errc::missing_field, "para trocar a senha, informe senhaAtual", "senhaAtual");
  }
  return u;
}

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  return {
      {"PerfilAlteracao",
       object({{"nome", R"({"type":"string","minLength":1,"maxLength":200})"},
               {"telefone", R"({"type":"string","maxLength":40})"},
               {"cargo", R"({"type":"string","maxLength":100})"},
               {"email", kEmail},
               {"senhaAtual", R"({"type":"string","maxLength":1024,"description":"obrigatória com novaSenha"})"},
               {"novaSenha", R"({"type":"string","minLength":8,"maxLength":1024,"description":"pede senhaAtual"})"}},
              {}, true),
       R"({"nome":"Maria Aparecida Souza","telefone":"(19) 3735-0100","cargo":"Analista de cadastro",)"
       R"("email":"maria.souza@campinas.sp.gov.br","senhaAtual":"antiga-senha-123","novaSenha":"Nova#Senha2024"})",
       [](std::string_view body) { parse_update(body); }},
  };
}

}  // namespace cadastre::platform::profile
