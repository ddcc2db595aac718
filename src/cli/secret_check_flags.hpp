// The flags of the password-check throttle (store::SecretCheckLimits), read the same way by
// cadastre-server and cadastre-platform: both count in the platform database, so they
// should be given the same values.
#pragma once

#include <chrono>
#include <set>
#include <string>

#include "cli/flags.hpp"
#include "store/secret_checks.hpp"

namespace cadastre::cli {

inline std::set<std::string> secret_check_flag_names() {
  return {"login-max-failures", "login-address-max-failures", "login-window-s", "login-lockout-s", "login-max-delay-s"};
}

/// --login-max-failures N: failures of one account at one address before a lockout, and of
/// one account from anywhere before its delays begin; --login-address-max-failures (default
/// 4 × N) of one address; --login-window-s, --login-lockout-s, --login-max-delay-s.
inline void read_secret_check_flags(const Flags& f, store::SecretCheckLimits& o) {
  int n = static_cast<int>(f.get_int("login-max-failures", o.pair_failures, "CADASTRE_LOGIN_MAX_FAILURES"));
  o.pair_failures = o.account_failures = n;
  o.address_failures =
      static_cast<int>(f.get_int("login-address-max-failures", 4 * n, "CADASTRE_LOGIN_ADDRESS_MAX_FAILURES"));
  o.window = std::chrono::seconds(f.get_int("login-window-s", o.window.count(), "CADASTRE_LOGIN_WINDOW_S"));
  o.lockout = std::chrono::seconds(f.get_int("login-lockout-s", o.lockout.count(), "CADASTRE_LOGIN_LOCKOUT_S"));
  o.max_delay = std::chrono::seconds(f.get_int("login-max-delay-s", o.max_delay.count(), "CADASTRE_LOGIN_MAX_DELAY_S"));
}

}  // namespace cadastre::cli
