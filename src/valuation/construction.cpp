// Construction value (construção) with its breakdown: CUB × area × Ross–Heidecke Foc.
#include <algorithm>
#include <string>

#include "cadastre/valuation.hpp"
#include "valuation/common.hpp"

namespace cadastre::valuation {
namespace {

using detail::num;

std::string heidecke_state(std::string_view code) {
  if (code == "a") return "novo";
  if (code == "b") return "entre novo e regular";
  if (code == "c") return "regular";
  if (code == "d") return "entre regular e reparos simples";
  if (code == "e") return "reparos simples";
  if (code == "f") return "entre reparos simples e importantes";
  if (code == "g") return "reparos importantes";
  if (code == "h") return "entre reparos importantes e sem valor";
  return "estado definido no perfil";
}

}  // namespace

Result construction_value(const ConstructionInput& in, const Profile& p) {
  in.validate();
  Result r;
  r.kind = "construcao";
  r.formula =
      "VVE = area_construida × CUB × Foc; Foc = R + (1 − R) × (1 − d); d = α + (1 − α) × c; "
      "α = (x + x²)/2; x = min(idade / vida_util, 1)";

  const double cub = detail::lookup(p.cub, in.standard, "padrao", "cub");
  r.factors.push_back({"CUB", cub, "padrao = " + in.standard, "tabela cub do perfil (R$/m²)"});

  double age = 0;
  if (in.age) {
    age = *in.age;
    r.factors.push_back({"idade", age, "idade = " + num(age), "informada na entrada"});
  } else {
    const bool own = in.reference_year.has_value();
    const std::optional<int> ref = own ? in.reference_year : p.reference_year;
    if (!ref) {
      detail::missing("ano_referencia",
                      "informe 'ano_referencia' (ou defina ano_referencia no perfil) para calcular "
                      "a idade a partir "
                      "de 'ano_construcao'");
    }
    if (*in.construction_year > *ref) {
      detail::invalid("ano_construcao",
                      "não pode ser posterior ao ano de referência (" + std::to_string(*ref) + ")");
    }
    age = *ref - *in.construction_year;
    r.factors.push_back({"idade", age,
                         "ano_construcao = " + std::to_string(*in.construction_year) +
                             "; ano_referencia = " + std::to_string(*ref) +
                             (own ? "" : " (perfil)"),
                         "idade = ano_referencia − ano_construcao"});
  }

  double life = 0;
  if (in.useful_life) {
    life = *in.useful_life;
    r.factors.push_back({"vida_util", life, "vida_util = " + num(life), "informada na entrada"});
  } else if (in.use_class) {
    life = detail::lookup(p.useful_life, *in.use_class, "uso", "vida_util");
    r.factors.push_back(
        {"vida_util", life, "uso = " + *in.use_class, "vida útil do perfil para o uso"});
  } else {
    life = detail::lookup(p.useful_life, p.default_use_class, "uso_padrao", "vida_util");
    r.factors.push_back({"vida_util", life, "uso_padrao = " + p.default_use_class + " (perfil)",
                         "vida útil do perfil para o uso padrão"});
  }

  const double x = std::min(age / life, 1.0);
  const double alpha = ross_alpha(x);
  const double c = detail::lookup(p.heidecke, in.conservation, "conservacao", "heidecke");
  const double d = ross_heidecke(x, c);
  const double residual = in.residual ? *in.residual : p.residual;
  if (!(residual >= 0 && residual < 1)) detail::invalid("valor_residual", "deve estar em [0, 1)");
  const double foc = residual + (1.0 - residual) * (1.0 - d);

  r.factors.push_back({"x", x, "idade = " + num(age) + "; vida_util = " + num(life),
                       "x = min(idade / vida_util, 1)"});
  r.factors.push_back({"alpha", alpha, "x = " + num(x), "α = (x + x²)/2 (Ross)"});
  r.factors.push_back(
      {"c", c, "conservacao = " + in.conservation,
       "Heidecke: estado " + in.conservation + " (" + heidecke_state(in.conservation) + ")"});
  r.factors.push_back(
      {"d", d, "α = " + num(alpha) + "; c = " + num(c), "d = α + (1 − α) × c (Ross–Heidecke)"});
  r.factors.push_back({"R", residual,
                       "valor_residual = " + num(residual) + (in.residual ? "" : " (perfil)"),
                       in.residual ? "informado na entrada" : "valor residual do perfil"});
  r.factors.push_back(
      {"Foc", foc, "R = " + num(residual) + "; d = " + num(d), "Foc = R + (1 − R) × (1 − d)"});

  r.value = in.built_area * cub * foc;
  r.values = {{"area_construida", in.built_area},
              {"CUB", cub},
              {"idade", age},
              {"vida_util", life},
              {"x", x},
              {"alpha", alpha},
              {"c", c},
              {"d", d},
              {"R", residual},
              {"Foc", foc},
              {"VVE", r.value}};
  return r;
}

}  // namespace cadastre::valuation
