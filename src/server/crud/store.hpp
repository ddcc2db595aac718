// The writes of /crud, each in its own transaction with its audit rows (store/records.hpp
// writes the SQL), the all-or-nothing batches (service::run_batch) and the LIDAR profiles.
#pragma once

#include <string>

#include "server/crud/input.hpp"
#include "service/batch.hpp"
#include "store/catalog.hpp"
#include "store/features.hpp"
#include "store/identity.hpp"
#include "store/pool.hpp"
#include "store/records.hpp"

namespace cadastre::server::crud {

store::Written create(store::Pool& db, const store::Layer& layer, const store::RecordInput& in,
                      const store::Principal& user);
store::Written update(store::Pool& db, const store::Layer& layer, const store::RecordInput& in,
                      const store::Principal& user);
/// Removes record `id` and its main relations; the number of rows removed.
long long remove(store::Pool& db, const store::Layer& layer, const std::string& id, const store::Principal& user);

/// Inserts (or updates) every record of `rows`, all or nothing; each row's outcome id is
/// the record's id.
service::BatchOutcome write_batch(store::Pool& db, const store::Layer& layer, const BatchRows& rows, bool updating,
                                  const store::Principal& user);

/// One page of features of `q`.
store::FeaturePage list(store::Pool& db, const store::FeatureQuery& q);

}  // namespace cadastre::server::crud
