#include "store/secret_checks.hpp"

#include <soci/soci.h>

#include <algorithm>

namespace cadastre::store {
namespace {

std::string pair_key(const Attempt& a) { return "p|" + a.account + "|" + a.address; }
std::string address_key(const Attempt& a) { return "a|" + a.address; }
std::string account_key(const Attempt& a) { return "c|" + a.account; }
std::string known_key(const Attempt& a) { return "k|" + a.account + "|" + a.address; }

// One failure on `key`: a new window when the last one has passed; at `max` failures the
// key is locked — for `lock` seconds, or, when `doubling`, for 2^(failures - max) seconds
// up to `lock` (the count then goes on growing within its window).
void count(soci::session& s, const std::string& key, int max, long long lock, bool doubling, long long window) {
  // excluded.expira is now() + window: the window without naming a parameter twice.
  s << "insert into plataforma.tentativas as t (chave, falhas, inicio, expira) "
       "values (:k, 1, now(), now() + make_interval(secs => :w)) "
       "on conflict (chave) do update set "
       "falhas = case when t.inicio < now() - (excluded.expira - now()) then 1 else t.falhas + 1 end, "
       "inicio = case when t.inicio < now() - (excluded.expira - now()) then now() else t.inicio end, "
       "expira = greatest(t.expira, excluded.expira)",
      soci::use(key, "k"), soci::use(window, "w");
  const int is_doubling = doubling ? 1 : 0;
  s << "with p as (select :k::text as k, :m::int as m, :l::float8 as l, :d::int = 1 as doubling) "
       "update plataforma.tentativas t set "
       "falhas = case when p.doubling then t.falhas else 0 end, "
       "inicio = case when p.doubling then t.inicio else now() end, "
       "bloqueado_ate = now() + make_interval(secs => case when p.doubling "
       "  then least(p.l, power(2, least(t.falhas - p.m + 1, 30))) else p.l end), "
       "expira = greatest(t.expira, now() + make_interval(secs => p.l)) "
       "from p where t.chave = p.k and t.falhas >= p.m",
      soci::use(key, "k"), soci::use(max, "m"), soci::use(lock, "l"), soci::use(is_doubling, "d");
}

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
    if (!a.account.empty()) count(s, pair_key(a), limits_.pair_failures, lockout, false, window);
    count(s, address_key(a), limits_.address_failures, lockout, false, window);
    if (!a.account.empty()) count(s, account_key(a), limits_.account_failures, delay, true, window);
    // Rows nobody needs any more go a few at a time, so the table stays small.
    s << "delete from plataforma.tentativas where chave in "
         "(select chave from plataforma.tentativas where expira < now() limit 100)";
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
