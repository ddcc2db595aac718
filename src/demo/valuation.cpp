#include "demo/valuation.hpp"

#include <libpq-fe.h>

#include <memory>
#include <string>

#include "cadastre/error.hpp"

namespace cadastre::store {
namespace {

// CUB (R$/m², one example reference month): the six standards of the library's default
// table keep its values; the others are priced in proportion, as a municipality would
// load them from its state's SINDUSCON table.
constexpr const char* kConfig = R"({"ano_referencia": 2026,
 "cub": {"R1-B": 1800, "R1-N": 2074.23, "R1-A": 2550, "PP4-B": 1650.4, "PP4-N": 1912.7, "R8-B": 1580.9,
         "R8-N": 1766.32, "R8-A": 2158.6, "R16-N": 1712.45, "R16-A": 2230.1, "PIS": 1321.5, "RP1Q": 1866.2,
         "CAL8-N": 2051.3, "CAL8-A": 2298.4, "CSL8-N": 1755.6, "CSL8-A": 1948.9, "CSL16-N": 2336.7,
         "CSL16-A": 2601.2, "GI": 921.28}})";

}  // namespace

std::int64_t load_demo_valuation(PGconn* conn) {
  const char* params[] = {kDemoValuationProfile, kConfig};
  std::unique_ptr<PGresult, decltype(&PQclear)> res(
      PQexecParams(conn,
                   "with off as (update avaliacao.perfil set ativo = false where nome <> $1 and ativo returning id), "
                   "up as (insert into avaliacao.perfil (nome, ativo, configuracao) "
                   "select $1, true, $2::jsonb from (select count(*) from off) o "
                   "on conflict (nome) do update set ativo = true, configuracao = excluded.configuracao, "
                   "atualizado_em = now() returning id) "
                   "select count(*) from up",
                   2, nullptr, params, nullptr, nullptr, 0),
      &PQclear);
  if (PQresultStatus(res.get()) != PGRES_TUPLES_OK || PQntuples(res.get()) != 1)
    throw Error(errc::internal, std::string("falha ao carregar o perfil de avaliação de demonstração: ") +
                                    PQerrorMessage(conn));
  return std::stoll(PQgetvalue(res.get(), 0, 0));
}

}  // namespace cadastre::store
