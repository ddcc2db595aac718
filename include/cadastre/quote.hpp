// Quotes: what the tenant buys, priced line by line from the basis (the current license and
// the catalog), the taxes, and the license as it will be after the contract. No storage
// here: the platform (src/platform/contracting/store.cpp) saves what these functions build,
// and its calculators answer it unsaved. The arithmetic is pricing.hpp's.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cadastre/pricing.hpp"

namespace cadastre::pricing {

/// The tenant's current (latest) license, as a quote is priced against it.
struct License {
  std::int64_t id = 0;        ///< its row id (the quote's licencaBase)
  std::string atualizada_em;  ///< its last change (ISO text): a quote holds only while it is unchanged
  std::string plano, status;  ///< status: the effective one ('expirada' once fim has passed)
  std::string inicio, fim;    ///< YYYY-MM-DD
  std::int64_t max_usuarios = 0, max_mb = 0;      ///< its quotas (users, MB of storage)
  std::map<std::string, std::int64_t> adicionais;  ///< add-on codigo → quantity held
};

/// A plan on sale: its price per period and the quotas it includes.
struct Plan {
  std::int64_t id = 0;                ///< its row id
  std::string codigo, nome, periodo;  ///< periodo: mensal | anual
  std::int64_t preco = 0, max_usuarios = 0, max_mb = 0;  ///< preco: centavos per period
  /// Months of one period: 12 for 'anual', else 1.
  int months() const { return periodo == "anual" ? 12 : 1; }
};

/// An add-on of the catalog (a module, support): centavos per unit per month.
struct Addon {
  std::string codigo, nome;    ///< codigo: its key in License::adicionais
  std::int64_t preco_mes = 0;  ///< centavos per unit per month
};

/// A tax applied to every quote's subtotal.
struct Tax {
  std::string codigo, nome;  ///< its code and display name
  std::int64_t bp = 0;       ///< basis points
};

/// What a quote is priced from: today's date (the database's), the license, the prices.
struct Basis {
  std::string hoje;                ///< YYYY-MM-DD
  std::optional<License> licenca;  ///< none before the tenant's first license
  std::int64_t gb_mes = 0, usuario_mes = 0;  ///< centavos per GB / per user, per month
  std::vector<Tax> impostos;                 ///< the active taxes
};

/// One priced line of a quote.
struct Line {
  std::string descricao, unidade;   ///< what is bought and its unit (plano, GB, usuário, an add-on's codigo)
  double quantidade = 0;            ///< units bought (GB may be fractional: an upgrade in MB)
  std::int64_t preco_unitario = 0;  ///< centavos per unit per month (a plan: per period)
  std::string inicio, fim;          ///< the period priced, YYYY-MM-DD, both included
  std::vector<MonthShare> meses;    ///< the pro rata shares; empty for whole months
  std::int64_t total = 0;           ///< centavos
};

/// The license after the contract: a new one (a plan bought) or the current one changed.
struct Change {
  bool nova = false;               ///< true: a new license; false: the current one changed
  std::string plano, inicio, fim;  ///< its plan and period (YYYY-MM-DD)
  std::int64_t max_usuarios = 0, max_mb = 0;       ///< its quotas
  std::map<std::string, std::int64_t> adicionais;  ///< add-on codigo → quantity
};

/// A quote: its lines, the taxes on their sum and the license it leads to.
struct Quote {
  std::string tipo;  ///< plano | armazenamento | usuario | adicionais
  std::string data;  ///< the day it was priced for
  std::vector<Line> linhas;      ///< the priced lines
  Change alteracao;              ///< the license after the contract
  std::optional<License> base;   ///< the license it was priced against (none: the first license)
  std::vector<Tax> impostos;     ///< the taxes applied to the subtotal
};

/// A plan: the renewal of the current license when it is that plan, 'ativa' and not ended
/// (fim moves one period on; the quotas and add-ons it holds beyond the plan are kept and
/// priced for the whole period), else a new license of the plan from `today`. `storage_gb`
/// (the renewal calculator) prices another storage total, not under the plan's own.
/// 400 (field gb) when `storage_gb` is under the plan's storage or past the quota column.
Quote plan_quote(const Basis& b, const Plan& p, const std::map<std::string, Addon>& catalog, Date today,
                 std::optional<std::int64_t> storage_gb = std::nullopt);
/// Storage on the current license until its end, pro rata: `gb` more (upgrade false) or up
/// to a total of `gb` (upgrade true). 409 (licenca) without a license 'ativa'; 400 (data)
/// when `today` is outside its period; 409 (gb) for an upgrade not above the current total.
Quote storage_quote(const Basis& b, std::int64_t gb, bool upgrade, Date today);
/// `count` more users on the current license until its end, pro rata (refusals as
/// storage_quote's; 400 quantidade past the quota column).
Quote users_quote(const Basis& b, std::int64_t count, Date today);
/// Add-ons (each with its quantity) on the current license until its end, pro rata
/// (refusals as storage_quote's; 400 itens past the quota column).
Quote addons_quote(const Basis& b, const std::vector<std::pair<Addon, std::int64_t>>& items, Date today);
/// The add-ons `wanted` (codigo, quantity) as `catalog` sells them, in the order asked:
/// 400 (field itens) for a codigo the catalog does not hold.
std::vector<std::pair<Addon, std::int64_t>> addon_items(
    const std::map<std::string, Addon>& catalog, const std::vector<std::pair<std::string, std::int64_t>>& wanted);

/// The sums of a quote: its lines, each tax of the subtotal, and the total.
struct Totals {
  std::int64_t subtotal = 0;           ///< Σ of the lines' totals
  std::vector<std::int64_t> impostos;  ///< tax(subtotal, bp) of each of Quote::impostos, in order
  std::int64_t total = 0;              ///< subtotal + Σ impostos
};
/// The sums of `q` (what to_json writes as subtotalCentavos, impostos and totalCentavos).
Totals totals(const Quote& q);

/// The quote as JSON: its lines, subtotalCentavos, impostos, totalCentavos, alteracao,
/// licencaBase and data (the text a stored quote's hash covers).
std::string to_json(const Quote& q);

}  // namespace cadastre::pricing
