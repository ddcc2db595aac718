// The counters of plataforma.tentativas (platform migration 0009), shared by the secret
// checks (secret_checks.hpp) and the rate limits (rate_limit.hpp). Internal to the store.
#pragma once

#include <string>

namespace soci {
class session;
}

namespace cadastre::store::tries {

/// One more on `key` within `window` seconds (a new window when the last one has passed).
/// At `max` the key is locked: for `lock` seconds, or, when `doubling`, for
/// 2^(count - max) seconds up to `lock` (the count then goes on growing within its window).
void count(soci::session& s, const std::string& key, int max, long long lock, bool doubling, long long window);

/// Deletes a few rows nobody needs any more, so the table stays small.
void prune(soci::session& s);

}  // namespace cadastre::store::tries
