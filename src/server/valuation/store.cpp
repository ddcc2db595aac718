#include "server/valuation/store.hpp"

#include "store/sql.hpp"

namespace cadastre::server::valuation_store {

std::optional<StoredProfile> active_profile(soci::session& s) {
  auto rows = store::fetch(s, store::Sql("select nome, configuracao::text from avaliacao.perfil where ativo"));
  if (rows.empty()) return std::nullopt;
  return StoredProfile{rows[0][0].value_or(""), rows[0][1].value_or("{}")};
}

}  // namespace cadastre::server::valuation_store
