#include "platform/city_reports/unit_value.hpp"

#include "cadastre/error.hpp"
#include "property/unit.hpp"

namespace cadastre::platform::city_reports {

Profile load_profile(store::Pool& pool) {
  auto stored = active_profile(pool);
  if (!stored) return {"padrão", valuation::Profile::default_profile()};
  try {
    return {stored->nome, valuation::Profile::from_json(stored->configuracao)};
  } catch (const Error& e) {
    throw Error(errc::unprocessable, "o perfil de avaliação '" + stored->nome + "' do município é inválido: " + e.what(),
                "perfil." + e.field());
  }
}

valuation::Result value(const Property& p, const Profile& profile, std::optional<int> year) {
  return property::valuing(p, [&] { return valuation::iptu(property::iptu_input(p, year), profile.profile); });
}

}  // namespace cadastre::platform::city_reports
