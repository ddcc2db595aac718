// The valuation profile of each tenant: the active row of avaliacao.perfil (its
// configuracao applied on top of the library's default profile), or the default profile
// when the tenant has none. Parsed once and kept until invalidated by
// GET /portal/cache-reloader, so editing a profile in the database takes effect on reload.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "cadastre/valuation_profile.hpp"
#include "server/app.hpp"

namespace cadastre::server {

struct TenantProfile {
  std::string nome;  ///< avaliacao.perfil.nome, or "padrão" for the library default
  valuation::Profile profile;
};

class ValuationProfiles {
 public:
  /// The tenant's profile; loads it on first use. A stored configuracao the library
  /// refuses is a 422 naming the profile (and is not cached, so a fix applies at once).
  std::shared_ptr<const TenantProfile> get(const store::Tenant& tenant, store::Pool& db);
  void invalidate(std::int64_t tenant_id);

 private:
  std::mutex mutex_;
  std::map<std::int64_t, std::shared_ptr<const TenantProfile>> cache_;
};

}  // namespace cadastre::server
