#include "server/portal/property.hpp"

#include "cadastre/error.hpp"
#include "server/portal/uses.hpp"

namespace cadastre::server {

valuation::LandInput land_input(const StoredProperty& p) {
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

valuation::IptuInput iptu_input(const StoredProperty& p, std::optional<int> reference_year) {
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
    c.built_area = b.area_construida * p.fracao_ideal;
    c.standard = b.padrao;
    c.construction_year = b.ano_construcao;
    c.reference_year = reference_year;
    c.conservation = b.conservacao;
    c.use_class = std::string(use.vida_util);
    in.constructions.emplace_back(std::move(c));
  }
  return in;
}

void write_property(JsonWriter& w, const StoredProperty& p) {
  w.begin_object().key("id").value(p.id).key("inscricao_cartografica").value(p.inscricao_cartografica);
  w.key("numero_cadastro").value(p.numero_cadastro).key("uso").value(p.uso).key("fracao_ideal").value(p.fracao_ideal);
  w.key("lote").begin_object().key("id").value(p.lote_id).key("inscricao").value(p.lote_inscricao);
  w.key("area_terreno").value(p.area_terreno).key("testada").value(p.testada).key("profundidade");
  p.profundidade ? w.value(*p.profundidade) : w.null();
  w.key("topografia").value(p.topografia).key("pedologia").value(p.pedologia).key("situacao").value(p.situacao);
  w.key("face_quadra");
  p.face_quadra ? w.value(*p.face_quadra) : w.null();
  w.key("valor_m2");
  p.valor_m2 ? w.value(*p.valor_m2) : w.null();
  w.key("melhoramentos");
  p.melhoramentos ? w.value(*p.melhoramentos) : w.null();
  w.end_object();
  if (!p.buildings.empty()) {
    w.key("edificacoes").begin_array();
    for (const auto& b : p.buildings) {
      const UseMapping* use = nullptr;
      for (const auto& m : use_mappings())
        if (m.uso == b.uso) use = &m;
      w.begin_object().key("id").value(b.id).key("area_construida").value(b.area_construida);
      w.key("padrao").value(b.padrao).key("ano_construcao");
      b.ano_construcao ? w.value(*b.ano_construcao) : w.null();
      w.key("conservacao").value(b.conservacao).key("uso").value(b.uso).key("classe_vida_util");
      use && !use->vida_util.empty() ? w.value(use->vida_util) : w.null();
      w.end_object();
    }
    w.end_array();
  }
  w.end_object();
}

}  // namespace cadastre::server
