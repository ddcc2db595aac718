#include "server/valuation/profiles.hpp"

#include "cadastre/error.hpp"
#include "server/valuation/store.hpp"

namespace cadastre::server {

std::shared_ptr<ValuationProfiles> make_valuation_profiles() { return std::make_shared<ValuationProfiles>(); }

std::shared_ptr<const TenantProfile> ValuationProfiles::get(const store::Tenant& tenant, store::Pool& db) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = cache_.find(tenant.id); it != cache_.end()) return it->second;
  }
  auto stored = db.with([](soci::session& s) { return valuation_store::active_profile(s); });
  auto loaded = std::make_shared<TenantProfile>();
  if (!stored) {
    loaded->nome = "padrão";
    loaded->profile = valuation::Profile::default_profile();
  } else {
    loaded->nome = stored->nome;
    try {
      loaded->profile = valuation::Profile::from_json(stored->configuracao);
    } catch (const Error& e) {
      throw Error(errc::unprocessable,
                  "o perfil de avaliação '" + loaded->nome + "' do município é inválido: " + e.what(),
                  "perfil." + e.field());
    }
  }
  std::lock_guard lock(mutex_);
  // Two first requests may load at once: the first result stays.
  return cache_.emplace(tenant.id, std::move(loaded)).first->second;
}

void ValuationProfiles::invalidate(std::int64_t tenant_id) {
  std::lock_guard lock(mutex_);
  cache_.erase(tenant_id);
}

}  // namespace cadastre::server
