// Every SQL statement of the characterization section (/caracterizacao), and of the lot
// package that /aplicativo serves too (server/characterization/lot_package.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/catalog.hpp"
#include "store/sql.hpp"

namespace soci {
class session;
}

namespace cadastre::server::characterization {

// ---------------------------------------------------------------- nearest-features

/// The `limit` features of `interest` nearest to record `id` of `reference` (both with
/// geometry, `id` checked against reference's key), as a JSON array of Features with
/// distancia_m and ordem; nullopt when the reference record does not exist.
std::optional<std::string> nearest_features(soci::session& s, const store::Layer& reference,
                                            const std::string& id, const store::Layer& interest,
                                            std::int64_t limit);

// ---------------------------------------------------------------- lot package

/// What one lot package holds (a section is left out when its layer pointer is null or
/// its flag false) and in which form.
struct LotPackageQuery {
  const store::Layer* lote = nullptr;
  std::string id;                             ///< checked against lote's key
  const store::Layer* edificacao = nullptr;   ///< edificacoes
  const store::Layer* imobiliario = nullptr;  ///< unidades
  bool people = false;                        ///< pessoas of each unit
  bool media = false;                         ///< midia of the lot and its units
  bool visits = false;                        ///< vistorias (reservations with their inspection)
  bool units_as_features = false;             ///< unidades as GeoJSON Features (else plain rows)
  bool media_links = false;                   ///< each file with its link /midia/get?file_url=
  bool generated_at = false;                  ///< gerado_em: the read time
  std::vector<std::string> denied;            ///< sem_permissao
};

/// The package as one JSON object (built by PostgreSQL in one statement); nullopt when the
/// lot does not exist.
std::optional<std::string> fetch_lot_package(soci::session& s, const LotPackageQuery& q);

// ---------------------------------------------------------------- lookups/batch

struct LookupFilter {
  const store::Column* column = nullptr;
  store::Value value;  ///< nullopt: IS NULL
};

/// One option list: `valor`/`rotulo` columns of `table`, equality filters, a row limit.
struct Lookup {
  std::shared_ptr<const store::Catalog> catalog;  ///< keeps `table` alive
  const store::Layer* table = nullptr;
  const store::Column* valor = nullptr;
  const store::Column* rotulo = nullptr;
  std::vector<LookupFilter> filters;
  std::int64_t limit = 1000;
};

/// {"resultados": [[{valor, rotulo}, ...], ...]} for every lookup, in one statement.
std::string run_lookups(soci::session& s, const std::vector<Lookup>& lookups);

}  // namespace cadastre::server::characterization
