// A property unit as the portal values it: the unit (cadastro.imobiliario), its lot, the
// block face of the lot and the buildings on the lot (read by server/portal/store.hpp),
// turned into the inputs of the valuation equations.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cadastre/json.hpp"
#include "cadastre/valuation.hpp"

namespace cadastre::server {

struct StoredBuilding {
  std::int64_t id = 0;
  double area_construida = 0;
  std::string padrao, conservacao, uso;
  std::optional<int> ano_construcao;
};

struct StoredProperty {
  std::int64_t id = 0, lote_id = 0;
  std::string inscricao_cartografica, numero_cadastro, uso, lote_inscricao;
  double fracao_ideal = 1;
  double area_terreno = 0, testada = 0;
  std::optional<double> profundidade;
  std::string topografia, pedologia, situacao;
  std::optional<std::string> face_quadra;  ///< codigo of the lot's block face
  std::optional<double> valor_m2;          ///< unit value of that face
  std::optional<int> melhoramentos;        ///< public improvements of that face's street
  std::vector<StoredBuilding> buildings;   ///< buildings of the lot, by id
};

/// Land input of the unit's lot: area_terreno, testada, profundidade, the three codes and
/// the face's valor_m2 (422 for a lot without a block face).
valuation::LandInput land_input(const StoredProperty& p);

/// IPTU input of the unit: its use (portal_uses.hpp), the lot's land, its fracao_ideal,
/// the face's improvements and, unless the unit is vacant land (territorial), its share
/// of each building of the lot. A unit's share of the lot's buildings is its fracao_ideal,
/// as for the land: in a condominium the ideal fraction covers land and common
/// constructions alike. Age: ano_construcao up to `reference_year` (nullopt: the
/// profile's). 422 for a building without ano_construcao or with an unmapped use.
valuation::IptuInput iptu_input(const StoredProperty& p, std::optional<int> reference_year);

/// Writes {"id", "inscricao_cartografica", "numero_cadastro", "uso", "fracao_ideal",
/// "lote": {...}, "edificacoes": [...]} (edificacoes only when read).
void write_property(JsonWriter& w, const StoredProperty& p);

}  // namespace cadastre::server
