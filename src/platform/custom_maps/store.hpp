// Custom maps (projeto.mapas_personalizados, migration tenant/0028).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "platform/custom_maps/input.hpp"
#include "platform/paging.hpp"
#include "service/caller.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::custom_maps {

/// The map as JSON: {"id","idProjeto","nome","descricao","camadas","extensao","idMapaBase",
/// "criadoPor","criadoEm","atualizadoEm"}.
std::string read(store::Pool& pool, std::int64_t id);

/// A page of the maps of the projects the caller sees (only `projeto`'s when given).
store::PageRows list(const service::Caller& scope, std::optional<std::int64_t> projeto, const Page& page);

/// Inserts the map (400 idMapaBase for an unknown base map); the new map's JSON.
std::string create(store::Pool& pool, std::int64_t user, const MapFields& f);
/// Changes the fields given; the map's JSON.
std::string update(store::Pool& pool, std::int64_t id, const MapFields& f);
void remove(store::Pool& pool, std::int64_t id);

}  // namespace cadastre::platform::custom_maps
