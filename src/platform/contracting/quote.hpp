// Quotes: what the tenant buys, priced line by line from the basis (the current license and
// the catalog), the taxes, and the license as it will be after the contract. No storage
// here: store.cpp saves what these functions build, and the calculators answer it unsaved.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cadastre/pricing.hpp"
#include "platform/contracting/store.hpp"

namespace cadastre::platform::contracting {

// The library's contracting arithmetic (cadastre/pricing.hpp), by its short names here.
using pricing::add_days;
using pricing::add_months;
using pricing::Date;
using pricing::days_inclusive;
using pricing::format;
using pricing::MonthShare;
using pricing::parse_date;
using pricing::period_end;
using pricing::Prorated;
using pricing::prorate;
using pricing::tax;
using pricing::Wide;

struct Line {
  std::string descricao, unidade;
  double quantidade = 0;
  std::int64_t preco_unitario = 0;  ///< centavos per unit per month (a plan: per period)
  std::string inicio, fim;
  std::vector<MonthShare> meses;    ///< the pro rata shares; empty for whole months
  std::int64_t total = 0;
};

/// The license after the contract: a new one (a plan bought) or the current one changed.
struct Change {
  bool nova = false;
  std::string plano, inicio, fim;
  std::int64_t max_usuarios = 0, max_mb = 0;
  std::map<std::string, std::int64_t> adicionais;
};

struct Quote {
  std::string tipo;  ///< plano | armazenamento | usuario | adicionais
  std::string data;  ///< the day it was priced for
  std::vector<Line> linhas;
  Change alteracao;
  std::optional<License> base;
  std::vector<Tax> impostos;
};

/// A plan: the renewal of the current license when it is that plan, 'ativa' and not ended
/// (fim moves one period on; the quotas and add-ons it holds beyond the plan are kept and
/// priced for the whole period), else a new license of the plan from `today`. `storage_gb`
/// (the renewal calculator) prices another storage total, not under the plan's own.
Quote plan_quote(const Basis& b, const Plan& p, const std::map<std::string, Addon>& catalog, Date today,
                 std::optional<std::int64_t> storage_gb = std::nullopt);
/// Storage on the current license until its end, pro rata: `gb` more (upgrade false) or up
/// to a total of `gb` (upgrade true).
Quote storage_quote(const Basis& b, std::int64_t gb, bool upgrade, Date today);
/// `count` more users on the current license until its end, pro rata.
Quote users_quote(const Basis& b, std::int64_t count, Date today);
/// Add-ons (each with its quantity) on the current license until its end, pro rata.
Quote addons_quote(const Basis& b, const std::vector<std::pair<Addon, std::int64_t>>& items, Date today);

/// The quote as JSON: its lines, subtotalCentavos, impostos, totalCentavos, alteracao,
/// licencaBase and data (the text a stored quote's hash covers).
std::string to_json(const Quote& q);

}  // namespace cadastre::platform::contracting
