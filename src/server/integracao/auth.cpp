#include "server/integracao/auth.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "server/app.hpp"
#include "server/integracao/store.hpp"
#include "store/crypto.hpp"

namespace cadastre::server {
namespace {

constexpr std::chrono::milliseconds kDefaultTimeout{5000};
constexpr long long kMinTimeoutMs = 100, kMaxTimeoutMs = 60000;
constexpr std::size_t kMaxCached = 10000;

IntegracaoTarget target_of(const integracao::Integration& r) {
  IntegracaoTarget t;
  t.tenant_id = r.tenant_id;
  t.slug = r.slug;
  t.token_destino = r.token_destino;
  auto base = outbound::parse_url(r.url);
  if (!base) {
    t.config_error = "integração REST do município " + r.slug + " sem URL válida na configuração";
    return t;
  }
  t.base = *base;
  t.timeout = kDefaultTimeout;
  if (!r.timeout_ms.empty()) {
    long long ms = 0;
    bool digits = r.timeout_ms.size() <= 6 && r.timeout_ms.find_first_not_of("0123456789") == std::string::npos;
    if (digits) ms = std::stoll(r.timeout_ms);
    if (!digits || ms < kMinTimeoutMs || ms > kMaxTimeoutMs)
      t.config_error = "integração REST do município " + r.slug + ": timeout_ms deve estar entre " +
                       std::to_string(kMinTimeoutMs) + " e " + std::to_string(kMaxTimeoutMs);
    else
      t.timeout = std::chrono::milliseconds(ms);
  }
  return t;
}

// Token hash → tenant integration, cached for the identity store's token TTL so a
// changed or revoked token stops working within that time, as session tokens do.
class Tokens {
 public:
  Tokens(store::Pool& platform, std::chrono::milliseconds ttl) : platform_(platform), ttl_(ttl) {}

  std::optional<IntegracaoTarget> find(const std::string& hash) {
    auto now = std::chrono::steady_clock::now();
    {
      std::lock_guard lock(mutex_);
      auto it = cache_.find(hash);
      if (it != cache_.end() && it->second.second > now) return it->second.first;
    }
    auto rows = platform_.with([&](soci::session& s) { return integracao::integrations_by_token(s, hash); });
    if (rows.size() != 1) return std::nullopt;  // unknown, or (never issued so) shared by two tenants
    IntegracaoTarget t = target_of(rows.front());
    std::lock_guard lock(mutex_);
    if (cache_.size() >= kMaxCached) cache_.clear();
    cache_[hash] = {t, now + ttl_};
    return t;
  }

 private:
  store::Pool& platform_;
  std::chrono::milliseconds ttl_;
  std::mutex mutex_;
  std::map<std::string, std::pair<IntegracaoTarget, std::chrono::steady_clock::time_point>> cache_;
};

}  // namespace

void add_integracao_auth_scheme(App& app) {
  auto tokens = std::make_shared<Tokens>(app.identity().pool(), app.options().token_ttl);
  app.server().add_auth_scheme(
      {"integracao",
       R"j({"type":"http","scheme":"bearer","description":"token de integração do município (cadastre-admin tenant integracao)"})j",
       [tokens](http::Request& req, const http::Route&) {
         auto token = req.bearer_token();
         if (!token) throw Error(errc::unauthenticated, "credencial ausente: envie Authorization: Bearer <token de integração>");
         // Integration tokens are 64 hex characters; anything else cannot match.
         bool well_formed = token->size() == 64 && token->find_first_not_of("0123456789abcdef") == std::string::npos;
         auto target = well_formed ? tokens->find(store::sha256_hex(*token)) : std::nullopt;
         if (!target) throw Error(errc::unauthenticated, "token de integração inválido");
         req.tenant = target->slug;
         req.auth = std::move(*target);
       }});
}

}  // namespace cadastre::server
