// JSON-in/JSON-out entry points used by the servers and the Python binding.
#include "cadastre/valuation.hpp"

namespace cadastre::valuation {
namespace {

Profile load(std::string_view profile_json) {
  return profile_json.empty() ? Profile::default_profile() : Profile::from_json(profile_json);
}

}  // namespace

std::string land_value_json(std::string_view input_json, std::string_view profile_json) {
  const Profile profile = load(profile_json);
  return land_value(LandInput::from_json(input_json), profile).to_json();
}

std::string construction_value_json(std::string_view input_json, std::string_view profile_json) {
  const Profile profile = load(profile_json);
  return construction_value(ConstructionInput::from_json(input_json), profile).to_json();
}

std::string iptu_json(std::string_view input_json, std::string_view profile_json) {
  const Profile profile = load(profile_json);
  return iptu(IptuInput::from_json(input_json), profile).to_json();
}

}  // namespace cadastre::valuation
