#include "store/batch.hpp"

#include <soci/soci.h>

namespace cadastre::store {

void savepoint_row(soci::session& s) { s << "savepoint linha"; }
void release_row(soci::session& s) { s << "release savepoint linha"; }
void rollback_row(soci::session& s) { s << "rollback to savepoint linha"; }

}  // namespace cadastre::store
