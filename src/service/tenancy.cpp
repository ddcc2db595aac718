#include "service/tenancy.hpp"

namespace cadastre::service {

std::optional<store::Tenant> Tenancy::active(std::string_view slug) const {
  auto tenant = identity_->tenant(slug);
  if (!tenant || !tenant->ativo) return std::nullopt;
  return tenant;
}

Scope Tenancy::scope(store::Principal user, store::Tenant tenant) const {
  store::Pool& db = pool(tenant);
  return Scope(std::move(user), std::move(tenant), db, *identity_, *catalogs_, records_ ? &records_ : nullptr);
}

}  // namespace cadastre::service
