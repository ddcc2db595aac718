#include "server/health/store.hpp"

#include <soci/soci.h>

namespace cadastre::server::health {

std::string ping(store::Pool& pool) {
  try {
    pool.run([](soci::session& s) {
      int one = 0;
      s << "select 1", soci::into(one);
    });
    return "ok";
  } catch (const Error& e) {
    return e.what();
  } catch (const std::exception&) {  // a database failure Pool::run passes on: its text is for the log only
    return "falha";
  }
}

}  // namespace cadastre::server::health
