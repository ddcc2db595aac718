// One-time tokens sent by e-mail (plataforma.tokens_uso_unico): account confirmation,
// password reset, e-mail change. Random 256-bit, stored as SHA-256, expiring, and
// consumed at most once (an atomic update: two clients racing on one link, one wins).
#pragma once

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "store/pool.hpp"

namespace cadastre::store {

/// What a token is for (tokens_uso_unico.finalidade).
enum class OneTimePurpose { confirm_account, reset_password, confirm_email };

/// Issues a token for `user_id`, valid for `ttl`, carrying `data` (e.g. the new e-mail);
/// earlier unused tokens of the same user and purpose stop working. Returns the token.
std::string issue_one_time(Pool& pool, std::int64_t user_id, OneTimePurpose purpose, std::chrono::seconds ttl,
                           std::string_view data = {});

struct OneTimeUse {
  std::int64_t user_id = 0;
  OneTimePurpose purpose = OneTimePurpose::confirm_account;
  std::string data;
};

/// Consumes `token` if it is unused, unexpired and for one of `purposes`; nullopt otherwise
/// (the caller cannot tell unknown from used from expired: none of them works).
std::optional<OneTimeUse> consume_one_time(soci::session& s, std::string_view token,
                                           std::initializer_list<OneTimePurpose> purposes);

}  // namespace cadastre::store
