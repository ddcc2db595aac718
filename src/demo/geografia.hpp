// The geography of the platform's routes (issue #16): the demo's subset, and the loader of
// the official IBGE files behind `cadastre-admin geografia load`.
//
// Demo: in a tenant, its geographic references (the city's bairros, a district, named
// points), three zoning areas over the city, notes on a few lots and a few CEPs of the
// postal table; in the platform database, the demo's region's municipalities with their
// real IBGE codes and census sectors for the two demo cities.
#pragma once

#include <cstdint>
#include <string>

typedef struct pg_conn PGconn;  // from libpq-fe.h

namespace cadastre::store {

/// Replaces the tenant's demo geography (references, zones, notes, CEPs) in one
/// transaction. `nome`, `uf`: the city, for its CEP rows. Returns the rows written.
std::int64_t load_demo_geography(PGconn* tenant, const std::string& nome, const std::string& uf);

/// Upserts the demo region's municipalities and the demo cities' census sectors into the
/// platform database. Returns the rows written.
std::int64_t load_demo_municipalities(PGconn* platform);

/// Loads an IBGE CSV into the platform database (one transaction, upserting by code):
/// municipalities (columns CD_MUN, NM_MUN, SIGLA_UF, AREA_KM2?) or census sectors
/// (CD_SETOR, CD_MUN?, SITUACAO?, CD_TIPO?, AREA_KM2?). Separator ';' or ',' (from the
/// header), quotes allowed, decimal comma allowed, header names case-insensitive; see
/// docs/platform-geography.md. Throws cadastre::Error (400 naming the line) for a bad row.
std::int64_t load_ibge_municipalities(PGconn* platform, const std::string& csv_path);
std::int64_t load_ibge_sectors(PGconn* platform, const std::string& csv_path);

}  // namespace cadastre::store
