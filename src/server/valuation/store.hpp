// Valuation: the tenant's stored valuation profile (avaliacao.perfil).
#pragma once

#include <optional>
#include <string>

namespace soci {
class session;
}

namespace cadastre::server::valuation_store {

struct StoredProfile {
  std::string nome;
  std::string configuracao = "{}";  ///< JSON, applied on top of the library's default profile
};

/// The active profile of the tenant (nullopt: the tenant has none).
std::optional<StoredProfile> active_profile(soci::session& s);

}  // namespace cadastre::server::valuation_store
