#include "server/portal/property.hpp"

#include "property/uses.hpp"

namespace cadastre::server {

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
      const property::UseMapping* use = nullptr;
      for (const auto& m : property::use_mappings())
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
