#include "property/unit.hpp"

#include "property/uses.hpp"

namespace cadastre::property {

valuation::LandInput land_input(const Unit& p) {
  if (!p.valor_m2)
    throw Error(errc::unprocessable, "o lote " + p.lote_inscricao + " não tem face de quadra com valor do m²",
                "face_quadra");
  valuation::LandInput in;
  in.area = p.area_terreno;
  in.frontage = p.testada;
  in.unit_value = p.valor_m2;
  in.topography = p.topografia;
  in.soil = p.pedologia;
  in.situation = p.situacao;
  in.depth = p.profundidade;
  return in;
}

valuation::IptuInput iptu_input(const Unit& p, std::optional<int> reference_year) {
  valuation::IptuInput in;
  in.use = use_mapping(p.uso, "uso").iptu;
  in.land = land_input(p);
  in.ideal_fraction = p.fracao_ideal;
  in.improvements = p.melhoramentos;
  if (in.use == valuation::Use::territorial) return in;
  for (const auto& b : p.buildings) {
    const std::string where = "edificacao " + std::to_string(b.id);
    if (!b.ano_construcao)
      throw Error(errc::unprocessable, "a " + where + " não tem ano_construcao", "edificacoes.ano_construcao");
    const auto& use = use_mapping(b.uso, "edificacoes.uso");
    if (use.vida_util.empty())
      throw Error(errc::unprocessable, "a " + where + " tem uso '" + b.uso + "', que não é de área construída",
                  "edificacoes.uso");
    valuation::ConstructionInput c;
    c.built_area = b.area_construida * p.fracao_ideal;  // the unit's share, as for the land
    c.standard = b.padrao;
    c.construction_year = b.ano_construcao;
    c.reference_year = reference_year;
    c.conservation = b.conservacao;
    c.use_class = std::string(use.vida_util);
    in.constructions.emplace_back(std::move(c));
  }
  return in;
}

}  // namespace cadastre::property
