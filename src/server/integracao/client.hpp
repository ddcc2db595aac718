// Outbound HTTP calls of cadastre-server to services a tenant configures: the external
// REST database service of /integracao-rest and the issue tracker of
// /aplicativo/criar-issue-externo. One short-lived connection per call, every phase
// (connect, write, read) bounded by the call's timeout, redirects not followed.
// cpp-httplib stays inside integracao_client.cpp.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cadastre::server::outbound {

/// An absolute http(s) URL split for the client.
struct Url {
  std::string origin;  ///< "http://host:port"
  std::string path;    ///< encoded path as written, "" for none
};

/// Parses an http(s) URL without user info, query or fragment; nullopt otherwise.
std::optional<Url> parse_url(std::string_view text);

struct Call {
  std::string method;  ///< GET, POST, PUT
  std::string origin;
  std::string target;  ///< encoded path and query, as sent
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body, content_type;
  std::chrono::milliseconds timeout{5000};
  std::size_t max_response_bytes = 16u << 20;
};

struct Result {
  enum class Outcome { ok, connect_failed, timeout, failed } outcome = Outcome::failed;
  int status = 0;
  std::string body, content_type;
  std::string detail;  ///< why it failed (empty when ok)
};

/// Performs the call; never throws for network failures (see Result::outcome).
Result send(const Call& call);

}  // namespace cadastre::server::outbound
