// The identity store (platform database, schema `plataforma`): tenants, users, sessions
// and per-layer permissions. Validated tokens are cached for a few seconds so the hot path
// does not hit PostgreSQL on every request: a revocation made by this process (logout,
// inactivation, password change) drops the cached entries at once; one made by another
// process takes effect here within `token_ttl`.
#pragma once

#include <chrono>
#include <future>
#include <memory>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "store/pool.hpp"

namespace cadastre::store {

struct Tenant {
  std::int64_t id = 0;
  std::string slug, nome, uf, codigo_ibge, dsn, fuso_horario;
  std::string config_json = "{}";
  bool ativo = true;
};

struct LayerPermission {
  std::string camada;  ///< layer name, or "*" for the user's default
  bool leitura = false, escrita = false;
};

/// The authenticated caller.
struct Principal {
  std::int64_t user_id = 0;
  std::string email, nome;
  std::int64_t tenant_id = 0;  ///< the tenant the session acts in
  std::string tenant_slug;
  bool admin = false;           ///< administrator of that tenant
  bool platform_admin = false;  ///< administrator of the whole platform (every tenant)
  std::int64_t session_id = 0;  ///< the session of the token (0 when not from a session)
  std::int64_t provider_id = 0; ///< the provider of a provider's user (0 otherwise)
  /// A provider's user: the rights the tenant granted the provider, on every layer
  /// (instead of per-user layer rules).
  std::optional<LayerPermission> provider_grant;
};

/// How long a session lives: idle (since last use) and absolute (since login).
struct SessionLimits {
  std::chrono::seconds idle{8 * 3600};
  std::chrono::seconds absolute{30 * 24 * 3600};
};

/// Where a session comes from (sessoes.origem) and who opened it.
struct SessionOrigin {
  std::string kind = "senha";  ///< senha, ldap, oauth, provedor, emitido
  std::string address, agent;
};

/// Whether `perms` let a user read (or write) `camada`; administrators may do anything.
bool layer_allowed(const std::vector<LayerPermission>& perms, std::string_view camada, bool write, bool admin);

/// A layer rule written as text, as cadastre-admin --perm, the directory login's
/// new-user rule and the tests take it: "camada:r", "camada:w", "camada:rw" or "camada:"
/// (a rule that grants nothing); "*" names the user's default. Anything else →
/// Error(invalid_argument, field "perm").
LayerPermission parse_layer_permission(std::string_view text);

struct NewTenant {
  std::string slug, nome, uf, codigo_ibge, dsn;
  std::string fuso_horario = "America/Sao_Paulo";
};

struct NewUser {
  std::string tenant_slug, email, nome, password;
  bool admin = false;
};

/// A user row as the directory login reads it (active or not).
struct StoredUser {
  std::int64_t id = 0, tenant_id = 0;
  std::string email, nome;
  bool ativo = false, admin = false;
  bool created = false;  ///< created by this call
};

class Identity {
 public:
  explicit Identity(Pool& platform, std::chrono::milliseconds token_ttl = std::chrono::seconds(5));

  /// The user of session `token`, if the session is valid (not revoked, not expired,
  /// not idle too long) and user and tenant are active. Marks the session used.
  std::optional<Principal> authenticate(std::string_view token);
  /// The user with this email and password (argon2id check), if valid and active. A
  /// missing e-mail costs the same argon2id work as a wrong password, so the time of the
  /// answer does not tell whether the e-mail exists.
  std::optional<Principal> login(std::string_view email, std::string_view password);
  /// Opens a session of `user` in `user.tenant_id` and returns its token (shown once;
  /// only its SHA-256 is stored).
  std::string open_session(const Principal& user, const SessionLimits& limits, const SessionOrigin& origin);
  /// Revokes one session; revokes every session of a user (but `keep`, when not 0) and
  /// returns the ids revoked. Cached entries of this process go at once; the revocation is
  /// published, in the same transaction, as an event for every instance (store/events.hpp):
  /// {"tipo":"sessao_revogada","motivo": reason}, reason "logout", "senha", "inativacao"...
  void revoke_session(std::int64_t session_id, std::string_view reason) { revoke_sessions({session_id}, reason); }
  /// Revokes these sessions (one transaction, one event).
  void revoke_sessions(const std::vector<std::int64_t>& session_ids, std::string_view reason);
  /// Drops a session revoked elsewhere from this process's cache (the event above).
  void forget_session(std::int64_t session_id);
  std::vector<std::int64_t> revoke_user_sessions(std::int64_t user_id, std::string_view reason, std::int64_t keep = 0);
  std::optional<Tenant> tenant(std::string_view slug);
  /// The tenant with this id (cached like tenant()).
  std::optional<Tenant> tenant_by_id(std::int64_t id);
  std::vector<Tenant> tenants();
  /// The user's layer rules (cached like tokens, for token_ttl).
  std::vector<LayerPermission> permissions(std::int64_t user_id);
  /// Drops the token and tenant caches (used by cache reloads and tests).
  void reload();
  /// True when the identity store answers a trivial query.
  bool ping();

  std::int64_t add_tenant(const NewTenant& t);
  std::int64_t add_user(const NewUser& u);
  /// Issues a long-lived token for the user (an 'emitido' session of a year without idle
  /// expiry, replacing the previous issued one) and returns it. Only its SHA-256 is
  /// stored: the caller must show it now or lose it.
  std::string issue_token(std::string_view email);
  void set_permission(std::string_view email, std::string_view camada, bool leitura, bool escrita);
  void set_permission(std::string_view email, const LayerPermission& rule) {
    set_permission(email, rule.camada, rule.leitura, rule.escrita);
  }
  /// The user `email` (case-insensitive), created without a password in tenant
  /// `tenant_id` when absent (first login through the directory). An existing user keeps
  /// their tenant, flags and permissions.
  StoredUser find_or_create_user(std::int64_t tenant_id, std::string_view email, std::string_view nome);

  Pool& pool() noexcept { return pool_; }

 private:
  struct CachedPrincipal {
    Principal principal;
    std::chrono::steady_clock::time_point expires;
  };
  std::optional<Tenant> load_tenant(const char* where, const std::string& key);
  /// Drops cached tokens whose principal matches `pred`.
  template <class Pred>
  void forget_tokens(Pred pred);

  Pool& pool_;
  std::chrono::milliseconds ttl_;
  std::mutex mutex_;
  std::unordered_map<std::string, CachedPrincipal> tokens_;  // key: token hash
  /// Lookups in flight, by token hash (see authenticate()).
  std::unordered_map<std::string, std::shared_future<std::optional<Principal>>> lookups_;
  std::uint64_t revocations_ = 0;  ///< bumped by every forget: a lookup older than it is not cached
  std::map<std::string, std::pair<Tenant, std::chrono::steady_clock::time_point>, std::less<>> tenants_;
  std::map<std::int64_t, std::pair<std::vector<LayerPermission>, std::chrono::steady_clock::time_point>> permissions_;
};

}  // namespace cadastre::store
