// The valuation of a property as cadastre-server's portal does it: the tenant's active
// profile over the library's default, and the stored unit turned into the library's input
// by the shared cadastre_property library (src/property/unit.hpp: the lot's land, the
// unit's ideal fraction of the land and of each building, ages counted to the reference
// year, the dominio.uso table). The equations are the one library (cadastre/valuation.hpp).
#pragma once

#include <optional>
#include <string>

#include "cadastre/valuation.hpp"
#include "platform/city_reports/store.hpp"

namespace cadastre::platform::city_reports {

struct Profile {
  std::string nome;  ///< avaliacao.perfil.nome, or "padrão"
  valuation::Profile profile;
};
/// The active profile (422 naming "perfil.<campo>" for a stored profile the library refuses).
Profile load_profile(store::Pool& pool);

/// The IPTU of the unit with its full breakdown (components: land, constructions). Stored
/// data the profile cannot value is a 422 naming the field. `year`: the year ages are
/// counted to (nullopt: the profile's).
valuation::Result value(const Property& p, const Profile& profile, std::optional<int> year);

}  // namespace cadastre::platform::city_reports
