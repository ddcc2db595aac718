// Contracting's storage in the platform database (migration platform/0007): the catalog
// (plans, unit prices, add-ons, taxes), the tenant's current license as a quote's basis,
// quotes and contracts.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "store/pool.hpp"

namespace cadastre::platform::contracting {

/// The tenant's current (latest) license, as a quote is priced against it.
struct License {
  std::int64_t id = 0;
  std::string atualizada_em;  ///< its last change (ISO text): a quote holds only while it is unchanged
  std::string plano, status;  ///< status: the effective one ('expirada' once fim has passed)
  std::string inicio, fim;    ///< YYYY-MM-DD
  std::int64_t max_usuarios = 0, max_mb = 0;
  std::map<std::string, std::int64_t> adicionais;
};

struct Plan {
  std::int64_t id = 0;
  std::string codigo, nome, periodo;  ///< periodo: mensal | anual
  std::int64_t preco = 0, max_usuarios = 0, max_mb = 0;
  int months() const { return periodo == "anual" ? 12 : 1; }
};

struct Addon {
  std::string codigo, nome;
  std::int64_t preco_mes = 0;
};

struct Tax {
  std::string codigo, nome;
  std::int64_t bp = 0;  ///< basis points
};

/// What a quote is priced from: today's date (the database's), the license, the prices.
struct Basis {
  std::string hoje;
  std::optional<License> licenca;
  std::int64_t gb_mes = 0, usuario_mes = 0;
  std::vector<Tax> impostos;
};

Basis basis(store::Pool& platform, std::int64_t tenant_id);
/// An active plan by id / by codigo.
std::optional<Plan> plan(store::Pool& platform, std::int64_t id);
std::optional<Plan> plan_by_code(store::Pool& platform, const std::string& codigo);
/// The active add-ons of the catalog, by codigo.
std::map<std::string, Addon> addons(store::Pool& platform);

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
