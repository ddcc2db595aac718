// The caller's own user record (/minha-conta).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "store/pool.hpp"

namespace cadastre::platform::profile {

/// {"id","nome","email","telefone","cargo","foto","adm","admPlataforma","idEmpresa","idProvedor",
///  "tenant": {"id","slug","nome"}, "emailPendente"} of the user, working in `tenant_id`;
/// emailPendente is the address of a change awaiting confirmation (its link unused and
/// unexpired), or null.
std::string profile_json(store::Pool& pool, std::int64_t user_id, std::int64_t tenant_id);

struct Change {
  std::optional<std::string> nome, telefone, cargo;
};
void update(store::Pool& pool, std::int64_t user_id, const Change& c);

/// The user's argon2id hash ("" without a password).
std::string password_hash(store::Pool& pool, std::int64_t user_id);
void set_password(store::Pool& pool, std::int64_t user_id, const std::string& hash);

/// Whether another user has this e-mail.
bool email_taken(store::Pool& pool, const std::string& email, std::int64_t user_id);

}  // namespace cadastre::platform::profile
