#include "store/secret_checks.hpp"

#include <soci/soci.h>

#include <algorithm>

#include "store/tries.hpp"

namespace cadastre::store {
namespace {

std::string pair_key(const Attempt& a) { return "p|" + a.account + "|" + a.address; }
std::string address_key(const Attempt& a) { return "a|" + a.address; }
std::string account_key(const Attempt& a) { return "c|" + a.account; }
std::string known_key(const Attempt& a) { return "k|" + a.account + "|" + a.address; }

}  // namespace

long long SecretChecks::wait(const Attempt& a) {
  const std::string pair = pair_key(a), address = address_key(a), account = account_key(a), known = known_key(a);
  long long pair_wait = 0, address_wait = 0, account_wait = 0;
  int known_count = 0;
  pool_.run([&](soci::session& s) {
    s << "with q as (select :p::text as p, :a::text as a, :c::text as c, :k::text as k) select "
         "coalesce(max(ceil(extract(epoch from bloqueado_ate - now()))) filter (where chave = q.p and bloqueado_ate > now()), 0)::bigint, "
         "coalesce(max(ceil(extract(epoch from bloqueado_ate - now()))) filter (where chave = q.a and bloqueado_ate > now()), 0)::bigint, "
         "coalesce(max(ceil(extract(epoch from bloqueado_ate - now()))) filter (where chave = q.c and bloqueado_ate > now()), 0)::bigint, "
         "count(*) filter (where chave = q.k and expira > now())::int "
         "from q left join plataforma.tentativas t on t.chave in (q.p, q.a, q.c, q.k) group by q.p, q.a, q.c, q.k",
        soci::use(pair, "p"), soci::use(address, "a"), soci::use(account, "c"), soci::use(known, "k"),
        soci::into(pair_wait), soci::into(address_wait), soci::into(account_wait), soci::into(known_count);
  });
  // The account's delay is a stranger's: not for an address the account logged in from.
  if (known_count > 0 || a.account.empty()) account_wait = 0;
  return std::max({pair_wait, address_wait, account_wait});
}

void SecretChecks::failed(const Attempt& a) {
  const long long window = limits_.window.count(), lockout = limits_.lockout.count(), delay = limits_.max_delay.count();
  pool_.run([&](soci::session& s) {
    soci::transaction tx(s);
    if (!a.account.empty()) tries::count(s, pair_key(a), limits_.pair_failures, lockout, false, window);
    tries::count(s, address_key(a), limits_.address_failures, lockout, false, window);
    if (!a.account.empty()) tries::count(s, account_key(a), limits_.account_failures, delay, true, window);
    tries::prune(s);
    tx.commit();
  });
}

void SecretChecks::succeeded(const Attempt& a) {
  if (a.account.empty()) return;
  const std::string pair = pair_key(a), known = known_key(a);
  const long long keep = std::chrono::duration_cast<std::chrono::seconds>(limits_.known_for).count();
  pool_.run([&](soci::session& s) {
    soci::transaction tx(s);
    s << "delete from plataforma.tentativas where chave = :p", soci::use(pair, "p");
    s << "insert into plataforma.tentativas (chave, falhas, inicio, expira) "
         "values (:k, 0, now(), now() + make_interval(secs => :e)) "
         "on conflict (chave) do update set expira = excluded.expira",
        soci::use(known, "k"), soci::use(keep, "e");
    tx.commit();
  });
}

}  // namespace cadastre::store
