// API clients (platform table plataforma.clientes_api): machine credentials bound to one
// tenant and one scope, in two forms — random bearer tokens (only their SHA-256 is
// stored, as for user tokens) and HTTP Basic user/password pairs (argon2id).
//
// Successful checks are cached for `ttl` like user tokens, so revoking a client takes
// effect within ttl. The Basic cache matters most: an argon2id verification costs tens
// of milliseconds by design, so it is keyed by SHA-256(scope:user:password) and a client
// that sends the same credential on every request pays for it once per ttl.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "store/pool.hpp"

namespace cadastre::store {

/// An authenticated API client.
struct ApiClient {
  std::int64_t id = 0;
  std::int64_t tenant_id = 0;
  std::string tenant_slug;
  std::string nome, escopo;
  std::string usuario;  ///< Basic login; empty for bearer clients
};

struct NewApiClient {
  std::string tenant_slug, nome, escopo;
  std::string usuario;   ///< set: an HTTP Basic client; empty: a bearer client
  std::string password;  ///< Basic only; empty: a random one is generated
};

/// What issuing a credential shows once: the bearer token, or the Basic password.
struct IssuedCredential {
  std::int64_t id = 0;
  std::string usuario;  ///< empty for bearer clients
  std::string secret;   ///< token (bearer) or password (Basic)
};

/// True for the scopes of plataforma.clientes_api: avaliacao, provas_digitais, integracao.
bool known_api_scope(std::string_view scope) noexcept;

class ApiClients {
 public:
  explicit ApiClients(Pool& platform, std::chrono::milliseconds ttl = std::chrono::seconds(5));

  /// The active bearer client of `scope` holding `token` (of an active tenant), if any.
  std::optional<ApiClient> authenticate_bearer(std::string_view token, std::string_view scope);
  /// The active Basic client of `scope` named `usuario` whose password matches, if any.
  /// The client of a Basic credential checked within the cache's ttl (no database, no
  /// hashing): a credential already proved is not a guess, so callers skip their throttle.
  std::optional<ApiClient> recently_proved(std::string_view usuario, std::string_view password, std::string_view scope);
  std::optional<ApiClient> authenticate_basic(std::string_view usuario, std::string_view password,
                                              std::string_view scope);

  /// Creates a client, or issues a new secret to an existing one (reactivating it): a
  /// Basic client is identified by scope and usuario, a bearer client by tenant, scope and
  /// nome. Errors: unknown tenant (404); unknown scope, provas_digitais without usuario,
  /// avaliacao with usuario, a password under 12 characters (400).
  IssuedCredential add(const NewApiClient& c);

  /// Drops the cache.
  void reload();

 private:
  struct Cached {
    ApiClient client;
    std::chrono::steady_clock::time_point expires;
  };
  std::optional<ApiClient> cached(const std::string& key);
  void remember(const std::string& key, const ApiClient& c);

  Pool& pool_;
  std::chrono::milliseconds ttl_;
  std::mutex mutex_;
  std::unordered_map<std::string, Cached> cache_;  // key: SHA-256 of the credential
};

}  // namespace cadastre::store
