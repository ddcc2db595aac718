// Every statement of /dominio: the rows of the lookup tables of the tenant's `dominio`
// schema, each write with its audit row (tabela "dominio.<campo>") and a bump of the
// generation of "dominio.<campo>" in the same transaction.
#pragma once

#include <memory>
#include <string>

#include "cadastre/domain.hpp"
#include "service/caller.hpp"
#include "store/catalog.hpp"
#include "store/features.hpp"
#include "store/identity.hpp"
#include "store/pool.hpp"
#include "store/sql.hpp"

namespace cadastre::server::domains {

/// A table of schema dominio shaped as a domain table: key id, with codigo and descricao.
struct DomainTable {
  std::shared_ptr<const store::Catalog> catalog;  ///< keeps `layer` alive
  const store::Layer* layer = nullptr;
  std::string audit_name;  ///< "dominio.<campo>"
};

/// The domain table `campo` of the scope's tenant (its dominio catalog): 400 for a
/// name that breaks the identifier rules, 404 (camada_nao_encontrada) for no such table.
DomainTable domain_table(const service::Caller& s, const std::string& campo);

/// One page of the table's rows matching `q`'s filters, ordered by `q`'s sort then codigo.
store::PageRows list(store::Pool& db, const DomainTable& t, const store::FeatureQuery& q);

/// Inserts the row (409 when the code exists); the row written, as JSON.
std::string create(store::Pool& db, const DomainTable& t, const domain::Record& rec,
                   const store::Principal& user);
/// Updates descricao and the extra columns (404 for an unknown code); the row written.
std::string update(store::Pool& db, const DomainTable& t, const domain::Record& rec,
                   const store::Principal& user);
/// Deletes code `id` (404 when unknown, 409 while cadastral records use it); the row deleted.
std::string remove(store::Pool& db, const DomainTable& t, const std::string& id,
                   const store::Principal& user);

}  // namespace cadastre::server::domains
