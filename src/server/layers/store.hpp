// Every statement of the layer reads: pages of features, counts, the detail of a record
// with its relations, the address search and the units of a lot.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "server/layers/input.hpp"
#include "store/catalog.hpp"
#include "store/features.hpp"
#include "store/pool.hpp"

namespace cadastre::server::layers {

/// One page of `q`'s features.
store::FeaturePage list(store::Pool& db, const store::FeatureQuery& q);
/// How many records match `q` (filters and bbox).
long long count(store::Pool& db, const store::FeatureQuery& q);

/// The layers a detail of `layer` also reads (its relations); empty for plain layers.
std::vector<std::string> detail_related_layers(const store::Layer& layer);
/// SQL expression (jsonb) of the relations of record `alias` of `layer`: units, buildings and
/// owners of a lot; lot, buildings and owners of a unit; empty for other layers.
std::string detail_relations(const store::Layer& layer, std::string_view alias);
/// The record `id` (already checked against the key's type) as a GeoJSON Feature with its
/// relations; nullopt when it does not exist.
std::optional<std::string> detail(store::Pool& db, const store::Layer& layer, const std::string& id);

/// Lots by address, as a page of features.
store::FeaturePage address_search(store::Pool& db, const AddressQuery& q);

/// The property units of lot `lot` (`units` is the imobiliario layer), each with its lot's
/// geometry, filtered, sorted and paged as a list of `units`.
store::FeaturePage units_of_lot(store::Pool& db, const store::Layer& units, const std::string& lot,
                                const query::ListQuery& q);

}  // namespace cadastre::server::layers
