// The ombudsman's SQL (the tenant's database, schema ouvidoria, migration 0027). Public
// answers are built from the public columns only (kPublicJson in store.cpp): the citizen's
// contact and photo are read by the staff import alone (store_import.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "platform/ombudsman/input.hpp"
#include "platform/paging.hpp"
#include "store/pool.hpp"

namespace soci {
class session;
}

namespace cadastre::platform::ombudsman {

/// The columns GET /ouv/ may be ordered by.
inline const std::vector<std::string> kOrderColumns = {"criadoEm", "protocolo", "status", "categoria"};

/// The active categories: [{"chave","nome","cor","ordem"}].
std::string legend(store::Pool& pool);

/// A filed request: its id, protocol and the follow-up token (shown once).
struct Filed {
  std::int64_t id = 0;
  std::string protocolo, token;
};
/// Files a request: 400 for an unknown category or a point outside the municipality (its
/// neighbourhoods' extent plus 2 km when the cadastre has any; Brazil's box otherwise).
Filed file_request(store::Pool& pool, const Report& r);

/// A page of the requests (public fields), searched by `q` (accent-insensitive, in the
/// protocol, description and category name) when not empty.
store::PageRows public_page(store::Pool& pool, const std::string& q, const Page& page);

/// The requests copied into layer `layer_id` as a GeoJSON FeatureCollection (public fields;
/// 404 unless the layer received an ombudsman import).
std::string layer_features(store::Pool& pool, std::int64_t layer_id);

/// The status and public history of a request, for the holder of its follow-up token
/// (404 unknown request, 403 another token); `mensagem` is recorded as a request for
/// information.
std::string follow_up(store::Pool& pool, const RequestKey& key, const std::string& token,
                      const std::optional<std::string>& mensagem);

/// What an import into a layer did.
struct Imported {
  std::int64_t id = 0;
  int criados = 0, atualizados = 0, status_da_camada = 0;
  bool repetida = false;  ///< the same codigo on the same layer: the first import's counts
};
/// 400 unless layer `layer_id` can receive requests (a vector layer of points, or of any
/// geometry): checked before the job is queued, and again inside it.
void check_target(store::Pool& pool, std::int64_t layer_id);

/// Copies the requests with one of `p.statuses` into point layer `layer_id`, in one
/// transaction on `s` (see store_import.cpp); `before_commit` runs last inside it (the job's
/// final row commits with the data).
using BeforeCommit = std::function<void(soci::session&, const Imported&)>;
Imported import_into_layer(soci::session& s, std::int64_t layer_id, std::int64_t user_id, const ImportParams& p,
                           const BeforeCommit& before_commit);

}  // namespace cadastre::platform::ombudsman
