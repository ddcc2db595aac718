#include "platform/accounts/input.hpp"

#include <simdjson.h>

#include <algorithm>

#include "cadastre/error.hpp"
#include "core/json_in.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"
#include "platform/rules.hpp"

namespace cadastre::platform::accounts {
namespace {

std::string text(jsonin::object root, const char* key, std::size_t max, bool required) {
  std::string v = required ? jsonin::string(root, key) : jsonin::opt_string(root, key).value_or("");
  if (required && v.empty()) throw Error(errc::missing_field, std::string("informe ") + key, key);
  if (v.size() > max) throw Error(errc::invalid_argument, std::string(key) + " longo demais", key);
  return v;
}

}  // namespace

SignUp parse_sign_up(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  body::only_members(root, {"nome", "email", "senha", "empresa", "cnpj", "telefone", "municipio", "uf"});
  SignUp in;
  in.nome = text(root, "nome", 200, true);
  in.email = normalize_email(text(root, "email", 254, true));
  in.senha = text(root, "senha", 1024, true);
  check_new_password(in.senha);
  in.empresa = text(root, "empresa", 200, true);
  in.cnpj = text(root, "cnpj", 18, false);
  std::erase_if(in.cnpj, [](char c) { return c == '.' || c == '/' || c == '-'; });
  if (!in.cnpj.empty() && (in.cnpj.size() != 14 || in.cnpj.find_first_not_of("0123456789") != std::string::npos))
    throw Error(errc::invalid_argument, "cnpj deve ter 14 dígitos", "cnpj");
  in.telefone = text(root, "telefone", 40, false);
  in.municipio = text(root, "municipio", 200, false);
  in.uf = text(root, "uf", 2, false);
  if (!in.uf.empty() && (in.uf.size() != 2 || in.uf.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ") != std::string::npos))
    throw Error(errc::invalid_argument, "uf deve ser a sigla do estado, em maiúsculas", "uf");
  return in;
}

Recovery parse_recovery(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  body::only_members(root, {"email", "token", "senha"});
  Recovery r;
  if (jsonin::find(root, "token")) {
    r.token = text(root, "token", 64, true);
    r.senha = text(root, "senha", 1024, true);
    check_new_password(r.senha);
    if (jsonin::find(root, "email")) throw Error(errc::invalid_argument, "envie email ou token, não os dois", "email");
    return r;
  }
  r.email = normalize_email(text(root, "email", 254, true));
  return r;
}

std::string parse_token_query(const std::optional<std::string>& token) {
  if (!token || token->empty()) throw Error(errc::missing_field, "informe token", "token");
  return *token;
}

Broadcast parse_broadcast(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  body::only_members(root, {"assunto", "mensagem", "destinatarios"});
  Broadcast b;
  b.assunto = text(root, "assunto", 200, true);
  // The subject is a mail header: a line break would end it (and start another header).
  if (std::any_of(b.assunto.begin(), b.assunto.end(),
                  [](unsigned char c) { return c < 0x20 || c == 0x7f; }))
    throw Error(errc::invalid_argument,
                "assunto não pode ter quebras de linha nem caracteres de controle", "assunto");
  b.mensagem = text(root, "mensagem", 20000, true);
  if (auto list = jsonin::find(root, "destinatarios")) {
    auto ids = jsonin::as_array(*list, "destinatarios");
    for (auto id : ids) {
      if (!id.is_int64() || int64_t(id) <= 0)
        throw Error(errc::invalid_argument, "destinatarios deve ser uma lista de ids de usuário", "destinatarios");
      b.destinatarios.push_back(int64_t(id));
    }
    if (b.destinatarios.empty() || b.destinatarios.size() > 1000)
      throw Error(errc::invalid_argument, "destinatarios deve ter de 1 a 1000 ids", "destinatarios");
  }
  return b;
}

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  const std::string nonempty = R"({"type":"string","minLength":1})";
  return {
      {"NovaConta", object({{"nome", nonempty}, {"email", kEmail}, {"senha", R"({"type":"string","minLength":8})"},
                            {"empresa", nonempty}, {"cnpj", kText}, {"telefone", kText}, {"municipio", kText},
                            {"uf", R"({"type":"string","pattern":"^([A-Z]{2})?$"})"}},
                           {"nome", "email", "senha", "empresa"}, true),
       R"({"nome":"Maria Souza","email":"maria.souza@campinas.sp.gov.br","senha":"Cadastro#2024","empresa":"Prefeitura de Campinas","cnpj":"46.068.425/0001-33","telefone":"(19) 2116-0555","municipio":"Campinas","uf":"SP"})",
       [](std::string_view body) { parse_sign_up(body); }},
      // {"email"} asks for the link; {"token", "senha"} sets the new password; not both.
      {"RecuperarSenha",
       R"({"type":"object","properties":{"email":)" + std::string(kEmail) +
           R"(,"token":{"type":"string","minLength":1,"maxLength":64},"senha":{"type":"string","minLength":8}},)"
           R"("additionalProperties":false,"oneOf":[{"required":["email"]},{"required":["token","senha"]}]})",
       R"({"token":"3f9a1c2e7b8d4f60a5e1c9b2d7f4a8e3","senha":"NovaSenha#2024"})",
       [](std::string_view body) { parse_recovery(body); }},
      {"EmailPersonalizado",
       object({{"assunto", nonempty}, {"mensagem", nonempty},
               {"destinatarios", R"({"type":"array","items":{"type":"integer","minimum":1},"minItems":1,"maxItems":1000})"}},
              {"assunto", "mensagem"}, true),
       R"({"assunto":"Manutenção programada","mensagem":"O sistema ficará indisponível no sábado, das 8h às 12h.","destinatarios":[14,27,31]})",
       [](std::string_view body) { parse_broadcast(body); }},
  };
}

}  // namespace cadastre::platform::accounts
