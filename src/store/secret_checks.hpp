// The one throttle of every check of a secret: password logins of both services, LDAP
// logins of both, Basic credentials, reset tokens, the current password of a profile
// change. Counted in the platform database (plataforma.tentativas, platform migration
// 0009), so every instance of cadastre-platform and cadastre-server sees the same counts.
//
// Who tries is an Attempt: an account (kind and identifier, the identifier folded with
// text::fold_identifier by the caller, so "K" KELVIN SIGN and "k" are one account) and the
// client's address (http::Request::remote_addr, the proxy's X-Forwarded-For when trusted).
// Three counts move on each failure, each within `window`:
//   - the (account, address) pair: locked for `lockout` after `pair_failures`;
//   - the address, whatever accounts it tries: locked after `address_failures`;
//   - the account, from any address: past `account_failures` each failure delays the next
//     try by a doubling time (2 s, 4 s, ... up to `max_delay`). The delay does not apply at
//     an address the account has logged in from (kept `known_for`): the owner at home
//     still gets in while a stranger guesses, and no stranger can lock anyone out.
// A success clears only its own (account, address) pair and records the address as known.
// Refusals are RetryLater (429 + Retry-After), decided before the secret is looked at.
#pragma once

#include <chrono>
#include <string>
#include <utility>

#include "cadastre/error.hpp"
#include "store/pool.hpp"

namespace cadastre::store {

struct SecretCheckLimits {
  int pair_failures = 5;
  int address_failures = 20;
  int account_failures = 5;
  std::chrono::seconds window{15 * 60};
  std::chrono::seconds lockout{15 * 60};
  std::chrono::seconds max_delay{15 * 60};
  std::chrono::hours known_for{24 * 90};
};

struct Attempt {
  /// "<kind>:<folded identifier>", e.g. "email:ana@alfa.gov.br", "ldap:fiscal"; empty when
  /// the secret names no account (a reset token): only the address counts.
  std::string account;
  std::string address;  ///< the client's address
};

class SecretChecks {
 public:
  SecretChecks(Pool& platform, SecretCheckLimits limits) : pool_(platform), limits_(limits) {}

  /// Seconds until `a` may be tried (0: now).
  long long wait(const Attempt& a);
  /// RetryLater (429 + Retry-After) unless `a` may be tried now.
  void require_turn(const Attempt& a) {
    if (long long w = wait(a); w > 0) throw RetryLater("muitas tentativas; tente de novo mais tarde", w);
  }
  /// Counts a failed check of `a`.
  void failed(const Attempt& a);
  /// A successful check: clears the (account, address) pair, remembers the address.
  void succeeded(const Attempt& a);

  /// Runs `check` unless `a` must wait (RetryLater, and `check` does not run). A throw of
  /// cadastre::Error with errc::unauthenticated counts as a failure (and propagates); a
  /// return counts as a success.
  template <class Check>
  auto run(const Attempt& a, Check&& check) -> decltype(check()) {
    require_turn(a);
    try {
      auto result = check();
      succeeded(a);
      return result;
    } catch (const Error& e) {
      if (e.code() == errc::unauthenticated) failed(a);
      throw;
    }
  }

  const SecretCheckLimits& limits() const noexcept { return limits_; }

 private:
  Pool& pool_;
  SecretCheckLimits limits_;
};

}  // namespace cadastre::store
