// The default profile and small Profile/RateSchedule/Use helpers.
#include <string>

#include "cadastre/error.hpp"
#include "cadastre/valuation_profile.hpp"

namespace cadastre::valuation {

RateSchedule RateSchedule::single(double rate) {
  RateSchedule s;
  s.bands.push_back(RateBand{std::nullopt, rate});
  return s;
}

bool RateSchedule::is_single() const noexcept { return bands.size() == 1 && !bands.front().up_to; }

Use parse_use(std::string_view text, std::string_view field) {
  if (text == "residencial") return Use::residencial;
  if (text == "nao_residencial") return Use::nao_residencial;
  if (text == "territorial") return Use::territorial;
  throw Error(errc::unknown_code,
              "uso desconhecido: '" + std::string(text) +
                  "' (use residencial, nao_residencial ou territorial)",
              std::string(field));
}

std::string_view to_string(Use use) noexcept {
  switch (use) {
    case Use::residencial:
      return "residencial";
    case Use::nao_residencial:
      return "nao_residencial";
    case Use::territorial:
      return "territorial";
  }
  return "residencial";
}

const RateSchedule& Profile::rates(Use use) const noexcept {
  switch (use) {
    case Use::residencial:
      return residential_rate;
    case Use::nao_residencial:
      return non_residential_rate;
    case Use::territorial:
      return territorial_rate;
  }
  return residential_rate;
}

// Values from docs/valuation.md.
Profile Profile::default_profile() {
  Profile p;
  p.topography = {{"plano", 1.00},
                  {"declive_ate_5", 0.95},
                  {"declive_5_10", 0.90},
                  {"declive_10_20", 0.80},
                  {"declive_acima_20", 0.70},
                  {"aclive_ate_10", 0.95},
                  {"aclive_10_20", 0.90},
                  {"aclive_acima_20", 0.85},
                  {"abaixo_nivel_ate_1m", 1.00},
                  {"abaixo_nivel_1_a_2_5m", 0.90},
                  {"abaixo_nivel_2_5_a_4m", 0.80},
                  {"acima_nivel_ate_2m", 1.00},
                  {"acima_nivel_2_a_4m", 0.90}};
  p.soil = {{"seco", 1.00},
            {"inundavel_acesso", 0.90},
            {"inundavel_periodico", 0.70},
            {"alagado_permanente", 0.60}};
  p.situation = {{"meio_quadra", 1.00},
                 {"esquina", 1.10},
                 {"duas_frentes", 1.05},
                 {"encravado", 0.70},
                 {"vila", 0.90}};
  // Example reference month; each municipality loads its own CUB (other standards of
  // NBR 12721 are unknown until a profile provides them).
  p.cub = {{"R1-B", 1800.0},  {"R1-N", 2074.23},   {"R1-A", 2550.0},
           {"R8-N", 1766.32}, {"CSL8-N", 1755.60}, {"GI", 921.28}};
  p.heidecke = {{"a", 0.0},    {"b", 0.0032}, {"c", 0.0252}, {"d", 0.0809},
                {"e", 0.1810}, {"f", 0.3320}, {"g", 0.5260}, {"h", 0.7520}};
  p.useful_life = {
      {"residencial", 70.0}, {"comercial", 60.0}, {"industrial", 50.0}, {"precario", 10.0}};
  p.residential_rate.mode = BandMode::faixa;
  p.residential_rate.bands = {{350000.0, 0.008}, {500000.0, 0.009}, {std::nullopt, 0.010}};
  p.non_residential_rate = RateSchedule::single(0.016);
  p.territorial_rate = RateSchedule::single(0.010);
  p.territorial_rate.improvements = ImprovementRule{3, 0.030};
  return p;
}

}  // namespace cadastre::valuation
