// Bodies and queries of the account routes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "platform/common/request_schema.hpp"

namespace cadastre::platform::accounts {

/// POST /nova-conta and POST /email: {"nome", "email", "senha", "empresa", "cnpj"?,
/// "telefone"?, "municipio"?, "uf"?}. The password is checked here and hashed by the route.
struct SignUp {
  std::string nome, email, senha, empresa, cnpj, telefone, municipio, uf;
};
SignUp parse_sign_up(std::string_view body);

/// POST /recuperarsenha: {"email"} asks for a link; {"token", "senha"} sets the new password.
struct Recovery {
  std::string email;
  std::string token, senha;
};
Recovery parse_recovery(std::string_view body);

/// GET /nova-conta/confirmar?token=: the token as sent (400 when absent).
std::string parse_token_query(const std::optional<std::string>& token);

/// POST /email/personalizado: {"assunto", "mensagem", "destinatarios"?: [user ids]} (none:
/// every active user of the tenant; at most 1000 ids).
struct Broadcast {
  std::string assunto, mensagem;
  std::vector<std::int64_t> destinatarios;
};
Broadcast parse_broadcast(std::string_view body);

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::accounts
