// The geography reads: the tenant's references, zoning, notes and CEPs (schema geografia of
// the tenant's database, migration tenant/0023; streets of cadastro.logradouro), the
// national IBGE tables of the platform database (platform/0004), and the overlay analyses
// of a project's geometry (store_analysis.cpp). Searches are accent- and case-insensitive.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "platform/paging.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::geography {

/// The tenant's geographic references, paged ({"id","tipo","codigo","nome","centro":{x,y},
/// "bbox":[...]}); of one tipo when given.
store::PageRows references(store::Pool& pool, const std::optional<std::string>& tipo, const Page& page);
/// The references whose name matches `q` (exact, prefix, contains; at most 20).
std::string find_references(store::Pool& pool, const std::string& q);

/// IBGE municipalities by code (digits: a prefix of the 7-digit code) or name (at most 20).
std::string find_municipalities(store::Pool& platform, const std::string& q);
/// Census sectors by code prefix (digits), or of the municipalities `q` names (code or
/// name; at most 100).
std::string find_sectors(store::Pool& platform, const std::string& q);

/// Streets with their CEP: cadastro.logradouro of the tenant (named `tenant_nome`, `uf`)
/// and the loaded geografia.ceps; `q` is a CEP prefix (5 to 8 digits) or a street name;
/// `cidade` restricts to one city. At most 50.
std::string find_ceps(store::Pool& pool, const std::string& tenant_nome, const std::string& uf, const std::string& q,
                      const std::optional<std::string>& cidade);

/// The zoning areas with their area in m² and GeoJSON geometry.
std::string zones(store::Pool& pool);
/// Notes on properties, newest first; of one inscrição when given.
store::PageRows observations(store::Pool& pool, const std::optional<std::string>& inscricao, const Page& page);
/// The lot of `inscricao` (cadastro.lote) with its street, the zones it falls in (with
/// shares) and its notes; 404 when no lot has it.
std::string property(store::Pool& pool, const std::string& inscricao);

/// The features of layer `camada` a geometry crosses, with intersection areas in m²
/// (geodesic, on the SIRGAS 2000 ellipsoid) and shares of the geometry's area and of the
/// feature's (at most 1000, largest first).
std::string intersect(store::Pool& pool, std::int64_t geometria, std::int64_t camada);
/// The zoning areas a geometry falls in, with the same areas and shares.
std::string intersect_zones(store::Pool& pool, std::int64_t geometria);

}  // namespace cadastre::platform::geography
