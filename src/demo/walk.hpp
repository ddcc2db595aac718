// Regenerates the lots of the city, block by block, in load order. Every table that
// depends on lots (lote, edificacao, pessoa, imobiliario, imobiliario_pessoa) is written in
// its own pass over this walk, since one connection can run only one COPY at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "demo/block.hpp"
#include "demo/city.hpp"
#include "demo/parcel.hpp"

namespace cadastre::store::demo {

struct LotRow {
  std::int64_t id = 0, quadra_id = 0, face_id = 0, logradouro_id = 0, numero = 0;
  std::string inscricao;  // "setor.quadra.lote", e.g. "01.023.0045"
  double area = 0, testada = 0, profundidade = 0;  // m², m, m (from the polygon, in local metres)
  const char* topografia = "plano";
  const char* pedologia = "seco";
  const LotPlan* plan = nullptr;
  const BlockMap* map = nullptr;
  Zone zone;
  bool avenue = false;
  std::vector<Vec2> ring;  // open ring in local metres (with Need::ring)
  ParcelPlan parcel;       // buildings and units (with Need::parcel)
};

enum Need : unsigned { kNeedRing = 1, kNeedParcel = 2 };

void walk_lots(const City& city, unsigned need, const std::function<void(const LotRow&)>& visit);

}  // namespace cadastre::store::demo
