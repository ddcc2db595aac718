#include "store/tries.hpp"

#include <soci/soci.h>

namespace cadastre::store::tries {

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

void prune(soci::session& s) {
  s << "delete from plataforma.tentativas where chave in "
       "(select chave from plataforma.tentativas where expira < now() limit 100)";
}

}  // namespace cadastre::store::tries
