// Validation of profiles: every number a formula will use is checked once here, with the
// JSON path of the offending value as the error field.
#include <cmath>
#include <string>

#include "cadastre/valuation_profile.hpp"
#include "valuation/common.hpp"

namespace cadastre::valuation {
namespace {

using detail::invalid;

void finite(double v, const std::string& field) {
  if (!std::isfinite(v)) invalid(field, "deve ser um número finito");
}
void positive(double v, const std::string& field) {
  if (!(v > 0) || !std::isfinite(v)) invalid(field, "deve ser um número maior que zero");
}

enum class Range { positive, unit_interval };

void check_table(const Table& t, const std::string& name, Range range) {
  for (const auto& [code, value] : t) {
    std::string field = name + "." + code;
    if (code.empty()) invalid(name, "não pode ter código vazio");
    if (range == Range::positive) {
      positive(value, field);
    } else if (!(value >= 0 && value <= 1)) {
      invalid(field, "deve estar entre 0 e 1");
    }
  }
}

}  // namespace

void FrontageParams::validate() const {
  positive(reference, "testada.referencia");
  positive(min, "testada.minima");
  positive(max, "testada.maxima");
  finite(exponent, "testada.expoente");
  if (min > max) invalid("testada.minima", "não pode ser maior que testada.maxima");
  if (exponent < 0) invalid("testada.expoente", "não pode ser negativo");
}

void DepthParams::validate() const {
  positive(min, "profundidade.minima");
  positive(max, "profundidade.maxima");
  positive(limit, "profundidade.limite");
  positive(exponent, "profundidade.expoente");
  if (min > max) invalid("profundidade.minima", "não pode ser maior que profundidade.maxima");
  if (!(max < limit)) invalid("profundidade.limite", "deve ser maior que profundidade.maxima");
  if (!(min_factor > 0 && min_factor <= 1))
    invalid("profundidade.fator_minimo", "deve estar em (0, 1]");
}

void LargePlotParams::validate() const {
  positive(min_area, "gleba.area_minima");
  positive(coefficient, "gleba.coeficiente");
  finite(frontage_exponent, "gleba.expoente_frente");
  finite(area_exponent, "gleba.expoente_area");
}

void RateSchedule::validate(std::string_view field) const {
  const std::string base(field);
  if (bands.empty()) invalid(base + ".faixas", "deve ter ao menos uma faixa");
  const bool one = is_single();
  for (std::size_t i = 0; i < bands.size(); ++i) {
    const std::string at = one ? base : base + ".faixas[" + std::to_string(i) + "]";
    const RateBand& b = bands[i];
    if (!(b.rate >= 0 && b.rate <= 1))
      invalid(at + ".aliquota", "deve estar entre 0 e 1 (fração: 0.01 = 1%)");
    const bool last = i + 1 == bands.size();
    if (last) {
      if (b.up_to)
        invalid(at + ".ate", "não deve existir na última faixa, que vale para todo valor acima");
    } else {
      if (!b.up_to) invalid(at + ".ate", "é obrigatório em toda faixa exceto a última");
      positive(*b.up_to, at + ".ate");
      if (i > 0 && !(*b.up_to > *bands[i - 1].up_to))
        invalid(at + ".ate", "deve ser maior que o da faixa anterior");
    }
  }
  if (improvements) {
    if (improvements->min_improvements < 0)
      invalid(base + ".melhoramentos.minimo", "não pode ser negativo");
    if (!(improvements->rate >= 0 && improvements->rate <= 1)) {
      invalid(base + ".melhoramentos.aliquota", "deve estar entre 0 e 1 (fração: 0.01 = 1%)");
    }
  }
}

void Profile::validate() const {
  if (reference_year && (*reference_year < 1 || *reference_year > 9999)) {
    invalid("ano_referencia", "deve estar entre 1 e 9999");
  }
  frontage.validate();
  depth.validate();
  large_plot.validate();
  check_table(unit_values, "valores_unitarios", Range::positive);
  check_table(topography, "topografia", Range::positive);
  check_table(soil, "pedologia", Range::positive);
  check_table(situation, "situacao", Range::positive);
  check_table(cub, "cub", Range::positive);
  check_table(heidecke, "heidecke", Range::unit_interval);
  check_table(useful_life, "vida_util", Range::positive);
  if (!useful_life.contains(default_use_class)) {
    invalid("uso_padrao", "deve ser uma classe de uso presente em vida_util");
  }
  if (!(residual >= 0 && residual < 1)) invalid("valor_residual", "deve estar em [0, 1)");
  residential_rate.validate("aliquotas.residencial");
  non_residential_rate.validate("aliquotas.nao_residencial");
  territorial_rate.validate("aliquotas.territorial");
}

}  // namespace cadastre::valuation
