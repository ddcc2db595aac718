// Input rules that do not need a profile. Codes are checked against the profile when the
// value is computed.
#include <cmath>
#include <string>

#include "cadastre/valuation.hpp"
#include "valuation/common.hpp"

namespace cadastre::valuation {
namespace {

using detail::invalid;
using detail::missing;

void positive(double v, std::string_view field) {
  if (!(v > 0) || !std::isfinite(v)) invalid(field, "deve ser um número maior que zero");
}

void non_negative(double v, std::string_view field) {
  if (!(v >= 0) || !std::isfinite(v)) invalid(field, "não pode ser negativo");
}

void code_present(const std::string& code, std::string_view field) {
  if (code.empty()) missing(field, "campo obrigatório ausente: '" + std::string(field) + "'");
}

void year(int y, std::string_view field) {
  if (y < 1 || y > 9999) invalid(field, "deve ser um ano entre 1 e 9999");
}

}  // namespace

void LandInput::validate() const {
  positive(area, "area");
  positive(frontage, "frente");
  if (depth) positive(*depth, "profundidade");
  if (unit_value && unit_value_id) {
    invalid(unit_value_key, "não pode ser informado junto com 'valor_m2': informe apenas um");
  }
  if (unit_value) {
    positive(*unit_value, "valor_m2");
  } else if (unit_value_id) {
    if (unit_value_id->empty()) invalid(unit_value_key, "não pode ser vazio");
  } else {
    missing("valor_m2",
            "informe o valor unitário: 'valor_m2' (R$/m²) ou o id de 'face_quadra' ou 'zona'");
  }
  code_present(topography, "topografia");
  code_present(soil, "pedologia");
  code_present(situation, "situacao");
}

void ConstructionInput::validate() const {
  positive(built_area, "area_construida");
  code_present(standard, "padrao");
  code_present(conservation, "conservacao");
  if (age && construction_year)
    invalid("ano_construcao", "não pode ser informado junto com 'idade': informe um dos dois");
  if (!age && !construction_year) missing("idade", "informe 'idade' (anos) ou 'ano_construcao'");
  if (age) non_negative(*age, "idade");
  if (construction_year) year(*construction_year, "ano_construcao");
  if (reference_year) year(*reference_year, "ano_referencia");
  if (construction_year && reference_year && *construction_year > *reference_year) {
    invalid("ano_construcao",
            "não pode ser posterior ao ano_referencia (" + std::to_string(*reference_year) + ")");
  }
  if (useful_life) positive(*useful_life, "vida_util");
  if (residual && !(*residual >= 0 && *residual < 1))
    invalid("valor_residual", "deve estar em [0, 1)");
  if (use_class && use_class->empty()) invalid("uso", "não pode ser vazio");
}

void IptuInput::validate() const {
  if (land_value && land)
    invalid("terreno", "não pode ser informado junto com 'valor_terreno': informe um dos dois");
  if (!land_value && !land)
    missing("valor_terreno", "informe 'valor_terreno' ou os dados do 'terreno'");
  if (land_value) non_negative(*land_value, "valor_terreno");
  if (land) detail::within("terreno", [&] { land->validate(); });
  if (!(ideal_fraction > 0 && ideal_fraction <= 1)) invalid("fracao_ideal", "deve estar em (0, 1]");
  if (use == Use::territorial && !constructions.empty()) {
    invalid("construcoes", "deve ser vazio para uso territorial (terreno vago)");
  }
  for (std::size_t i = 0; i < constructions.size(); ++i) {
    std::string path = "construcoes[" + std::to_string(i) + "]";
    if (const auto* value = std::get_if<double>(&constructions[i])) {
      non_negative(*value, path);
    } else {
      detail::within(path, [&] { std::get<ConstructionInput>(constructions[i]).validate(); });
    }
  }
  if (improvements && *improvements < 0) invalid("melhoramentos", "não pode ser negativo");
}

}  // namespace cadastre::valuation
