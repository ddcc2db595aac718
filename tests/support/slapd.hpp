// A private OpenLDAP slapd for the directory login tests (cadastre-server and platform): a temporary directory with an mdb
// database loaded by slapadd, served by /usr/sbin/slapd in the foreground on a free
// loopback port, killed (and its files removed) by the destructor.
#pragma once

#include <sys/types.h>

#include <string>

namespace ldap_test {

inline constexpr const char* kSuffix = "dc=cadastre,dc=test";

class Slapd {
 public:
  /// Loads `ldif` (entries below kSuffix; the suffix entry itself is added here).
  explicit Slapd(const std::string& ldif);
  ~Slapd();
  Slapd(const Slapd&) = delete;
  Slapd& operator=(const Slapd&) = delete;

  std::string uri() const { return "ldap://127.0.0.1:" + std::to_string(port_); }

 private:
  std::string dir_;
  pid_t pid_ = -1;
  int port_ = 0;
};

/// A loopback port nothing listens on (bound, then released).
int free_port();

/// A TCP listener that accepts connections and never answers (a hung directory).
class SilentListener {
 public:
  SilentListener();
  ~SilentListener();
  SilentListener(const SilentListener&) = delete;
  SilentListener& operator=(const SilentListener&) = delete;
  std::string uri() const { return "ldap://127.0.0.1:" + std::to_string(port_); }

 private:
  int fd_ = -1;
  int port_ = 0;
};

}  // namespace ldap_test
