// The search and thematic reads of a tenant's projects (schema projeto) and its base maps
// (geografia.mapas_base, migration tenant/0023).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cadastre/field_values.hpp"
#include "platform/paging.hpp"
#include "platform/search/input.hpp"
#include "service/caller.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::search {

/// Which text fields a search box looks in.
enum class Fields { all, inscricao, logradouro };

/// At most this many hits per search.
inline constexpr int kMaxHits = 50;

/// How long one search statement may run (it is cancelled then: 503, and the pool's
/// connection is free for the tenant's other reads).
inline constexpr int kSearchMillis = 3000;

/// The project's text values matching `termo` accent- and case-insensitively, in the layers
/// the caller may read (optionally only `campos` / `camadas`), best first: exact, then
/// prefix, then contains, each by trigram similarity. A JSON array of at most kMaxHits.
/// A term with fewer than three letters or digits in a row has no trigram to look up: it
/// matches values that start with it (an index range of the layer table), not anywhere.
std::string text_search(const service::Caller& scope, std::int64_t projeto, const std::string& termo, Fields fields,
                        const std::vector<std::int64_t>& campos, const std::vector<std::int64_t>& camadas);
/// PostgreSQL's plan of that search (EXPLAIN), one line per row: for the tests, and for an
/// operator looking at a slow search.
std::string text_search_plan(const service::Caller& scope, std::int64_t projeto, const std::string& termo, Fields fields,
                             const std::vector<std::int64_t>& campos, const std::vector<std::int64_t>& camadas);

/// The numbers of field `campo` over layer `camada`, ascending, and how many of the layer's
/// geometries have none. 400 (idCampo) when the field is not a numeric field of the layer.
struct Numbers {
  std::vector<double> sorted;
  std::int64_t sem_valor = 0;
  std::string chave;
};
Numbers numbers(store::Pool& pool, std::int64_t camada, std::int64_t campo);

/// A page of the layer's geometries whose values meet the conditions (all or any):
/// {"idGeometria","geometria": GeoJSON,"valores":{chave: valor}}. 400 for a field of
/// another layer, an operator the field's type does not take, or a value of the wrong type.
store::PageRows features(store::Pool& pool, const FeatureQuery& q, const Page& page);

/// One geometry and its values of the asked fields (in the order asked; none when unset).
struct Row {
  std::int64_t id = 0;
  std::vector<std::optional<field_values::Typed>> values;
};
struct Rows {
  std::int64_t total = 0;  ///< how many geometries the filter keeps in all
  std::vector<Row> rows;   ///< the first `limit` of them, by id
};
/// The geometries the filter keeps (every geometry of the layer when it has no condition),
/// with their values of `campos`. The same 400s as features().
Rows rows(store::Pool& pool, const FeatureQuery& q, const std::vector<std::int64_t>& campos, std::int64_t limit);

/// The configured base maps, in order.
std::string base_maps(store::Pool& pool);

}  // namespace cadastre::platform::search
