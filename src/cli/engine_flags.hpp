// The HTTP engine's limits as command-line flags (and environment variables), the same
// for every service. docs/operations.md ("The HTTP engine") explains each.
#pragma once

#include <cctype>
#include <set>
#include <stdexcept>
#include <string>

#include "cli/flags.hpp"
#include "http/server.hpp"

namespace cadastre::cli {

/// The flag names read_engine_flags() takes, to add to a Flags' known set.
inline std::set<std::string> engine_flag_names() {
  return {"threads",        "max-connections",   "reserved-connections", "keep-alive-s",
          "head-timeout-s", "body-timeout-s",    "min-rate-kb",          "write-timeout-s",
          "header-max-kb",  "header-max-fields", "payload-max-mb",       "trusted-proxies",
          "drain-seconds", "stop-grace-seconds"};
}

/// Reads the engine flags into `o`, over the defaults already in it; each flag also reads
/// the environment variable `env_prefix` + its name in capitals ("CADASTRE_" + "IO_THREADS").
inline void read_engine_flags(const Flags& f, http::ServerOptions& o,
                              const std::string& env_prefix) {
  auto env = [&env_prefix](std::string name) {
    for (char& c : name)
      c = c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return env_prefix + name;
  };
  auto number = [&](const std::string& name, long long current, long long min, long long max) {
    long long v = f.get_int(name, current, env(name).c_str());
    if (v < min || v > max)
      throw std::invalid_argument("--" + name + " deve estar entre " + std::to_string(min) + " e " +
                                  std::to_string(max));
    return v;
  };
  using std::chrono::seconds;
  o.threads = static_cast<int>(number("threads", o.threads, 1, 4096));
  o.max_connections = static_cast<int>(number("max-connections", o.max_connections, 1, 1000000));
  o.reserved_connections =
      static_cast<int>(number("reserved-connections", o.reserved_connections, 0, 100000));
  o.keep_alive_timeout = seconds(number("keep-alive-s", o.keep_alive_timeout.count(), 1, 3600));
  o.head_timeout = seconds(number("head-timeout-s", o.head_timeout.count(), 1, 3600));
  o.body_timeout = seconds(number("body-timeout-s", o.body_timeout.count(), 1, 3600));
  o.min_rate = static_cast<std::size_t>(
                   number("min-rate-kb", static_cast<long long>(o.min_rate >> 10), 1, 1 << 20))
               << 10;
  o.write_timeout = seconds(number("write-timeout-s", o.write_timeout.count(), 1, 3600));
  o.header_max_bytes =
      static_cast<std::size_t>(
          number("header-max-kb", static_cast<long long>(o.header_max_bytes >> 10), 1, 1024))
      << 10;
  o.header_max_fields = static_cast<std::size_t>(
      number("header-max-fields", static_cast<long long>(o.header_max_fields), 1, 10000));
  o.payload_max = static_cast<std::size_t>(number(
                      "payload-max-mb", static_cast<long long>(o.payload_max >> 20), 1, 4096))
                  << 20;
  o.drain = seconds(number("drain-seconds", o.drain.count(), 0, 600));
  o.stop_grace = seconds(number("stop-grace-seconds", o.stop_grace.count(), 1, 3600));
  // The reverse proxies (HAProxy, nginx, the gateway) whose X-Forwarded-For is believed.
  o.trusted_proxies = f.get_list("trusted-proxies", "", env("trusted-proxies").c_str());
}

}  // namespace cadastre::cli
