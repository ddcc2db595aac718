// Companies (plataforma.empresas): the organisation behind a tenant's account.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "store/pool.hpp"

namespace cadastre::platform::companies {

/// The tenant's companies as a JSON array (every company for a platform administrator).
std::string list(store::Pool& pool, std::optional<std::int64_t> tenant_id);

struct Fields {
  std::optional<std::string> nome, cnpj, email, telefone, endereco, site;
};
/// Updates company `id` of the tenant (any tenant's for a platform administrator: tenant
/// absent); 404 otherwise. Returns it as JSON.
std::string update(store::Pool& pool, std::optional<std::int64_t> tenant_id, std::int64_t id, const Fields& f);

}  // namespace cadastre::platform::companies
