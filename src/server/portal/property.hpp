// A property unit as the portal values and shows it: the unit (cadastro.imobiliario), its
// lot, the block face of the lot and the buildings on the lot (read by
// server/portal/store.hpp); the valuation inputs come from src/property/unit.hpp.
#pragma once

#include "cadastre/json.hpp"
#include "property/unit.hpp"

namespace cadastre::server {

// The stored unit and its buildings, and how they become valuation inputs (land_input,
// iptu_input, valuing), are the shared library's: src/property/unit.hpp.
using StoredBuilding = property::Building;
using StoredProperty = property::Unit;
using property::iptu_input;
using property::land_input;

/// Writes {"id", "inscricao_cartografica", "numero_cadastro", "uso", "fracao_ideal",
/// "lote": {...}, "edificacoes": [...]} (edificacoes only when read).
void write_property(JsonWriter& w, const StoredProperty& p);

}  // namespace cadastre::server
