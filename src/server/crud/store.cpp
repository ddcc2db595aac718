#include "server/crud/store.hpp"

#include <soci/soci.h>

namespace cadastre::server::crud {

store::Written create(store::Pool& db, const store::Layer& layer, const store::RecordInput& in,
                      const store::Principal& user) {
  return db.with([&](soci::session& s) {
    store::Written out;
    store::in_transaction(s, [&] { out = store::insert_record(s, layer, in, user); });
    return out;
  });
}

store::Written update(store::Pool& db, const store::Layer& layer, const store::RecordInput& in,
                      const store::Principal& user) {
  return db.with([&](soci::session& s) {
    store::Written out;
    store::in_transaction(s, [&] { out = store::update_record(s, layer, in, user); });
    return out;
  });
}

long long remove(store::Pool& db, const store::Layer& layer, const std::string& id, const store::Principal& user) {
  return db.with([&](soci::session& s) {
    long long n = 0;
    store::in_transaction(s, [&] { n = store::delete_record(s, layer, id, user); });
    return n;
  });
}

service::BatchOutcome write_batch(store::Pool& db, const store::Layer& layer, const BatchRows& rows, bool updating,
                                  const store::Principal& user) {
  return service::run_batch(db, rows.size(), [&](soci::session& s, std::size_t i) {
    auto in = rows.record(layer, i, updating);
    return (updating ? store::update_record(s, layer, in, user) : store::insert_record(s, layer, in, user)).id;
  });
}

store::FeaturePage list(store::Pool& db, const store::FeatureQuery& q) {
  return db.with([&](soci::session& s) { return store::fetch_features(s, q); });
}

}  // namespace cadastre::server::crud
