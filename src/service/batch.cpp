#include "service/batch.hpp"

#include <soci/soci.h>

#include "store/batch.hpp"

namespace cadastre::service {

BatchOutcome run_batch(store::Pool& db, std::size_t count, const RowWriter& write) {
  BatchOutcome out;
  db.run([&](soci::session& s) {
    out = {};  // run() may repeat this on a reopened connection
    out.rows.resize(count);
    soci::transaction tx(s);
    for (std::size_t i = 0; i < count; ++i) {
      RowOutcome& row = out.rows[i];
      store::savepoint_row(s);
      try {
        row.id = write(s, i);
        store::release_row(s);
      } catch (const Error& e) {
        row.error = e;
      } catch (const soci::soci_error& e) {
        row.error = store::database_error(e);
        if (!row.error) throw;  // an internal failure is not the row's: the whole batch fails (500)
      }
      if (row.error) {
        row.id.clear();
        store::rollback_row(s);
        if (!out.first_error) out.first_error = i;
      }
    }
    if (out.first_error)
      tx.rollback();
    else
      tx.commit();
  });
  return out;
}

}  // namespace cadastre::service
