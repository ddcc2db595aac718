// Demo map library (/mapoteca): orthophotos, zoning and risk maps, block plans and
// neighbourhood maps whose footprints lie over the demo city (see
// db/migrations/tenant/0009_mapoteca.sql).
#pragma once

#include <cstdint>

typedef struct pg_conn PGconn;  // from libpq-fe.h

namespace cadastre::store {

/// Replaces the demo items (criado_por = 'demo'): six city-wide or quadrant maps over the
/// extent of cadastro.bairro and cadastro.quadra, the plans of the first six blocks and
/// the maps of the first two neighbourhoods (fewer when the city is smaller; none without
/// a city). Titles and descriptions carry accents, for the accent-insensitive search. Runs
/// as one transaction. Returns the number of demo items. Throws cadastre::Error.
std::int64_t load_demo_mapoteca(PGconn* conn);

}  // namespace cadastre::store
