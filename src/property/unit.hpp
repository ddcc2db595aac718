// A property unit as stored in the municipality's cadastre: the unit (cadastro.imobiliario),
// its lot, the block face of the lot and the buildings on the lot, turned into the inputs
// of the valuation equations (cadastre/valuation.hpp). The apps read the rows (server/
// portal/store.cpp, platform/city_reports/store.cpp); the rules of how rows become inputs
// live only here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cadastre/error.hpp"
#include "cadastre/valuation.hpp"

namespace cadastre::property {

struct Building {
  std::int64_t id = 0;
  double area_construida = 0;
  std::string padrao, conservacao, uso;
  std::optional<int> ano_construcao;
};

struct Unit {
  std::int64_t id = 0, lote_id = 0;
  std::string inscricao_cartografica, numero_cadastro, uso, lote_inscricao;
  double fracao_ideal = 1;
  double area_terreno = 0, testada = 0;
  std::optional<double> profundidade;
  std::string topografia, pedologia, situacao;
  std::optional<std::string> face_quadra;  ///< codigo of the lot's block face
  std::optional<double> valor_m2;          ///< unit value of that face
  std::optional<int> melhoramentos;        ///< public improvements of that face's street
  std::vector<Building> buildings;         ///< buildings of the lot, by id
};

/// Land input of the unit's lot: area_terreno, testada, profundidade, the three codes and
/// the face's valor_m2 (422 for a lot without a block face).
valuation::LandInput land_input(const Unit& p);

/// IPTU input of the unit: its use (uses.hpp), the lot's land, its fracao_ideal, the
/// face's improvements and, unless the unit is vacant land (territorial), its share of
/// each building of the lot. A unit's share of the lot's buildings is its fracao_ideal,
/// as for the land: in a condominium the ideal fraction covers land and common
/// constructions alike. Age: ano_construcao up to `reference_year` (nullopt: the
/// profile's). 422 for a building without ano_construcao or with an unmapped use.
valuation::IptuInput iptu_input(const Unit& p, std::optional<int> reference_year);

/// Runs `fn`, an equation over the inputs of `p`. Errors of the equations on stored data
/// are the data's (or the profile's), not the request's: they become 422 with the
/// library's message and field; other errors pass unchanged.
template <class F>
auto valuing(const Unit& p, F&& fn) {
  try {
    return std::forward<F>(fn)();
  } catch (const Error& e) {
    if (e.code() != errc::invalid_argument && e.code() != errc::unknown_code && e.code() != errc::missing_field)
      throw;
    throw Error(errc::unprocessable,
                "o imóvel " + p.inscricao_cartografica + " não pode ser avaliado com o perfil do município: " + e.what(),
                e.field());
  }
}

}  // namespace cadastre::property
