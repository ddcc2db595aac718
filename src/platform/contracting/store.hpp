// Contracting's storage in the platform database (migration platform/0007): the catalog
// (plans, unit prices, add-ons, taxes), the tenant's current license as a quote's basis,
// quotes and contracts. The types a quote is priced from (Basis, License, Plan, Addon, Tax)
// are the library's (cadastre/quote.hpp).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cadastre/quote.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::contracting {

/// What a quote of the tenant is priced from: today, its current license, the prices, the taxes.
pricing::Basis basis(store::Pool& platform, std::int64_t tenant_id);
/// An active plan by id / by codigo.
std::optional<pricing::Plan> plan(store::Pool& platform, std::int64_t id);
std::optional<pricing::Plan> plan_by_code(store::Pool& platform, const std::string& codigo);
/// The active add-ons of the catalog, by codigo.
std::map<std::string, pricing::Addon> addons(store::Pool& platform);

/// GET /planos: the active plans with their quotas, the unit prices and the add-ons.
std::string catalog_json(store::Pool& platform);

/// Stores a quote (`conteudo`: JSON text) valid for `valid_hours`; answers it with its id,
/// hash, criadoEm and expiraEm.
std::string save_quote(store::Pool& platform, std::int64_t tenant_id, std::int64_t user_id, const std::string& tipo,
                       const std::string& conteudo, int valid_hours);

struct Contracted {
  std::string json;
  bool created = false;  ///< false: the quote had already been contracted (the same contract)
};
/// Turns quote `quote_id` of the tenant, of type `tipo`, into a contract and its license
/// change, in one transaction (see docs/platform-contracting.md, "Contracting a quote").
Contracted contract(store::Pool& platform, std::int64_t tenant_id, std::int64_t user_id, std::int64_t quote_id,
                    const std::string& hash, const std::string& tipo);

}  // namespace cadastre::platform::contracting
