#include "store/rate_limit.hpp"

#include <soci/soci.h>

#include "cadastre/error.hpp"
#include "store/tries.hpp"

namespace cadastre::store {

void RateLimit::take(std::string_view key, const std::string& message) {
  const std::string row = "r|" + name_ + "|" + std::string(key);
  long long wait = 0;
  pool_.run([&](soci::session& s) {
    soci::transaction tx(s);
    // The key's lock: a second instance counting the same key waits for this one's commit.
    s << "select pg_advisory_xact_lock(hashtextextended(:k, 0))", soci::use(row, "k");
    s << "select coalesce(max(ceil(extract(epoch from bloqueado_ate - now()))), 0)::bigint from plataforma.tentativas "
         "where chave = :k and bloqueado_ate > now()",
        soci::use(row, "k"), soci::into(wait);
    if (wait == 0) {
      tries::count(s, row, options_.max, options_.lockout.count(), false, options_.window.count());
      tries::prune(s);
    }
    tx.commit();
  });
  if (wait > 0) throw RetryLater(message, wait);
}

}  // namespace cadastre::store
