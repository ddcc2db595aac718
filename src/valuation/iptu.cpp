// IPTU: VVI = VVT × fracao_ideal + Σ VVE, taxed by the use's rate schedule.
#include <algorithm>
#include <limits>
#include <string>

#include "cadastre/valuation.hpp"
#include "valuation/common.hpp"

namespace cadastre::valuation {
namespace {

using detail::num;
using detail::pct;

// Text of a band's interval: "VVI ≤ 350000", "350000 < VVI ≤ 500000", "VVI > 500000".
std::string interval(double from, const std::optional<double>& to, bool first) {
  if (first && to) return "VVI ≤ " + num(*to);
  if (!to) return "VVI > " + num(from);
  return num(from) + " < VVI ≤ " + num(*to);
}

// Applies the schedule's bands to `vvi`, filling the bands, factors and values of `r`.
double tax_by_bands(const RateSchedule& s, double vvi, const std::string& use_input, Result& r) {
  double total = 0;
  double from = 0;
  for (std::size_t i = 0; i < s.bands.size(); ++i) {
    const RateBand& b = s.bands[i];
    const double to = b.up_to.value_or(std::numeric_limits<double>::infinity());
    const bool first = i == 0;
    if (s.mode == BandMode::faixa) {
      if (vvi <= to) {
        total = vvi * b.rate;
        r.bands.push_back({from, b.up_to, b.rate, vvi, total});
        r.factors.push_back({"aliquota", b.rate, use_input + "; VVI = " + num(vvi),
                             "faixa: " + interval(from, b.up_to, first) + " → " + pct(b.rate) +
                                 " sobre todo o VVI"});
        r.values.emplace_back("aliquota", b.rate);
        return total;
      }
    } else {
      const double base = std::clamp(vvi - from, 0.0, to - from);
      if (base > 0 || first) {
        const double tax = base * b.rate;
        total += tax;
        const std::string n = std::to_string(r.bands.size() + 1);
        r.bands.push_back({from, b.up_to, b.rate, base, tax});
        r.factors.push_back({"aliquota_faixa_" + n, b.rate,
                             use_input + "; parcela do VVI nesta faixa = " + num(base),
                             "marginal: " + interval(from, b.up_to, first) + " → " + pct(b.rate) +
                                 " sobre a parcela"});
        r.values.emplace_back("aliquota_faixa_" + n, b.rate);
        r.values.emplace_back("IPTU_faixa_" + n, tax);
      }
      if (vvi <= to) break;
    }
    from = to;
  }
  if (s.mode == BandMode::marginal)
    r.values.emplace_back("aliquota_efetiva", vvi > 0 ? total / vvi : 0.0);
  return total;
}

}  // namespace

Result iptu(const IptuInput& in, const Profile& p) {
  in.validate();
  const std::string use(to_string(in.use));
  const RateSchedule& schedule = p.rates(in.use);
  schedule.validate("aliquotas." + use);

  Result r;
  r.kind = "iptu";
  r.formula = "IPTU = VVI × alíquota; VVI = VVT × fracao_ideal + Σ VVE";

  double vvt = 0;
  if (in.land_value) {
    vvt = *in.land_value;
    r.factors.push_back({"VVT", vvt, "valor_terreno = " + num(vvt), "informado na entrada"});
  } else {
    r.components.push_back(detail::within("terreno", [&] { return land_value(*in.land, p); }));
    vvt = r.components.back().value;
    r.factors.push_back({"VVT", vvt, "terreno", "valor do terreno calculado (ver componentes)"});
  }
  const double land_share = vvt * in.ideal_fraction;
  r.factors.push_back({"fracao_ideal", in.ideal_fraction,
                       "fracao_ideal = " + num(in.ideal_fraction),
                       "parte do terreno da unidade: VVT × fracao_ideal"});
  r.values = {{"VVT", vvt}, {"fracao_ideal", in.ideal_fraction}, {"VVT_fracao", land_share}};

  double vve = 0;
  for (std::size_t i = 0; i < in.constructions.size(); ++i) {
    double v = 0;
    if (const auto* given = std::get_if<double>(&in.constructions[i])) {
      v = *given;
    } else {
      const auto& c = std::get<ConstructionInput>(in.constructions[i]);
      r.components.push_back(detail::within("construcoes[" + std::to_string(i) + "]",
                                            [&] { return construction_value(c, p); }));
      v = r.components.back().value;
    }
    r.values.emplace_back("VVE_" + std::to_string(i + 1), v);
    vve += v;
  }
  r.factors.push_back({"VVE", vve, std::to_string(in.constructions.size()) + " construção(ões)",
                       "soma dos valores das construções da unidade"});
  const double vvi = land_share + vve;
  r.values.insert(r.values.end(), {{"VVE", vve}, {"VVI", vvi}});

  std::string use_input = "uso = " + use;
  double tax = 0;
  const auto& rule = schedule.improvements;
  if (rule) {
    if (!in.improvements) {
      detail::missing("melhoramentos",
                      "informe 'melhoramentos' (número de melhoramentos públicos do logradouro): a "
                      "alíquota do uso " +
                          use + " depende dele");
    }
    use_input += "; melhoramentos = " + std::to_string(*in.improvements);
  }
  if (rule && *in.improvements >= rule->min_improvements) {
    tax = vvi * rule->rate;
    r.bands.push_back({0, std::nullopt, rule->rate, vvi, tax});
    r.factors.push_back(
        {"aliquota", rule->rate, use_input,
         "melhoramentos ≥ " + std::to_string(rule->min_improvements) + " → " + pct(rule->rate)});
    r.values.emplace_back("aliquota", rule->rate);
  } else if (schedule.is_single()) {
    const double rate = schedule.bands.front().rate;
    tax = vvi * rate;
    r.bands.push_back({0, std::nullopt, rate, vvi, tax});
    std::string text = "alíquota única: " + pct(rate);
    if (rule) text += " (melhoramentos < " + std::to_string(rule->min_improvements) + ")";
    r.factors.push_back({"aliquota", rate, use_input, text});
    r.values.emplace_back("aliquota", rate);
  } else {
    tax = tax_by_bands(schedule, vvi, use_input, r);
  }
  r.value = tax;
  r.values.emplace_back("IPTU", tax);
  return r;
}

}  // namespace cadastre::valuation
