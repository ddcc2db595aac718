#include "server/integracao/store.hpp"

#include "store/sql.hpp"

namespace cadastre::server::integracao {

std::vector<Integration> integrations_by_token(soci::session& s, const std::string& hash) {
  store::Sql q(
      "select id::text, slug, coalesce(config #>> '{integracao_rest,url}', ''), "
      "coalesce(config #>> '{integracao_rest,token_destino}', ''), "
      "coalesce(config #>> '{integracao_rest,timeout_ms}', '') "
      "from plataforma.tenants where ativo and config #>> '{integracao_rest,token_sha256}' = ");
  q.bind(hash) << " limit 2";
  std::vector<Integration> out;
  for (const auto& r : store::fetch(s, q))
    out.push_back({std::stoll(r[0].value_or("0")), r[1].value_or(""), r[2].value_or(""), r[3].value_or(""),
                   r[4].value_or("")});
  return out;
}

}  // namespace cadastre::server::integracao
