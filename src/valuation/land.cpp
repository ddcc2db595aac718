// Land value (terreno) with its breakdown.
#include <algorithm>

#include "cadastre/valuation.hpp"
#include "valuation/common.hpp"

namespace cadastre::valuation {

using detail::num;

Result land_value(const LandInput& in, const Profile& p) {
  in.validate();
  Result r;
  r.kind = "terreno";

  double unit_value = 0;
  if (in.unit_value) {
    unit_value = *in.unit_value;
    r.factors.push_back(
        {"valor_m2", unit_value, "valor_m2 = " + num(unit_value), "informado na entrada"});
  } else {
    unit_value = detail::lookup(p.unit_values, *in.unit_value_id, in.unit_value_key,
                                "valores_unitarios", false);
    r.factors.push_back({"valor_m2", unit_value, in.unit_value_key + " = " + *in.unit_value_id,
                         "valor unitário do perfil (valores_unitarios)"});
  }
  r.values = {{"area", in.area}, {"frente", in.frontage}, {"valor_m2", unit_value}};

  double shape = 1;  // Ft × Fp, or Fg for a large plot
  if (in.area > p.large_plot.min_area) {
    const auto& g = p.large_plot;
    g.validate();
    shape = large_plot_factor(in.area, in.frontage, g);
    r.factors.push_back({"Fg", shape, "area = " + num(in.area) + "; frente = " + num(in.frontage),
                         "area > " + num(g.min_area) + ": Fg = " + num(g.coefficient) +
                             " × frente^" + num(g.frontage_exponent) + " × area^" +
                             num(g.area_exponent) + " (substitui Ft × Fp)"});
    r.values.emplace_back("Fg", shape);
    r.formula = "VVT = area × valor_m2 × Fg × Ftopo × Fped × Fsit";
  } else {
    const auto& t = p.frontage;
    const auto& d = p.depth;
    t.validate();
    d.validate();
    const double fe = std::clamp(in.frontage, t.min, t.max);
    const double ft = frontage_factor(in.frontage, t);
    std::string ft_input = "frente = " + num(in.frontage);
    if (fe != in.frontage) ft_input += " (Fe limitada a " + num(fe) + ")";
    r.factors.push_back({"Ft", ft, ft_input,
                         "Fe = frente limitada a [" + num(t.min) + ", " + num(t.max) +
                             "]; Ft = (Fe/" + num(t.reference) + ")^" + num(t.exponent)});

    const double pe = in.depth ? *in.depth : in.area / in.frontage;
    const double fp = depth_factor(pe, d);
    std::string pe_input =
        in.depth ? "Pe = profundidade = " + num(pe) : "Pe = area / frente = " + num(pe);
    std::string fp_rule;
    if (pe < d.min) {
      fp_rule = "Pe < " + num(d.min) + ": (Pe/" + num(d.min) + ")^" + num(d.exponent);
    } else if (pe <= d.max) {
      fp_rule = num(d.min) + " ≤ Pe ≤ " + num(d.max) + ": 1";
    } else if (pe < d.limit) {
      fp_rule =
          num(d.max) + " < Pe < " + num(d.limit) + ": (" + num(d.max) + "/Pe)^" + num(d.exponent);
    } else {
      fp_rule = "Pe ≥ " + num(d.limit) + ": " + num(d.min_factor);
    }
    r.factors.push_back({"Fp", fp, pe_input, fp_rule});
    r.values.insert(r.values.end(), {{"Pe", pe}, {"Fe", fe}, {"Ft", ft}, {"Fp", fp}});
    shape = ft * fp;
    r.formula = "VVT = area × valor_m2 × Ft × Fp × Ftopo × Fped × Fsit";
  }

  const double ftopo = detail::lookup(p.topography, in.topography, "topografia", "topografia");
  const double fped = detail::lookup(p.soil, in.soil, "pedologia", "pedologia");
  const double fsit = detail::lookup(p.situation, in.situation, "situacao", "situacao");
  r.factors.push_back(
      {"Ftopo", ftopo, "topografia = " + in.topography, "tabela topografia do perfil"});
  r.factors.push_back({"Fped", fped, "pedologia = " + in.soil, "tabela pedologia do perfil"});
  r.factors.push_back({"Fsit", fsit, "situacao = " + in.situation, "tabela situacao do perfil"});

  r.value = in.area * unit_value * shape * ftopo * fped * fsit;
  r.values.insert(r.values.end(),
                  {{"Ftopo", ftopo}, {"Fped", fped}, {"Fsit", fsit}, {"VVT", r.value}});
  return r;
}

}  // namespace cadastre::valuation
