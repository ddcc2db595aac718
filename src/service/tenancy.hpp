// The tenants of a service, in one place: a slug names an active tenant, a tenant has one
// pool, and a caller on a tenant gets a Scope. Auth schemes use it; handlers never see it
// (they get the Scope it built), so they cannot reach another tenant.
#pragma once

#include <optional>
#include <string_view>

#include "service/scope.hpp"
#include "store/catalog.hpp"
#include "store/identity.hpp"
#include "store/pool.hpp"
#include "store/tenants.hpp"

namespace cadastre::service {

class Tenancy {
 public:
  Tenancy(store::Identity& identity, store::TenantPools& pools, store::CatalogCache& catalogs)
      : identity_(&identity), pools_(&pools), catalogs_(&catalogs) {}

  /// The tenant `slug` when it exists and is active.
  std::optional<store::Tenant> active(std::string_view slug) const;
  /// The database pool of `tenant`.
  store::Pool& pool(const store::Tenant& tenant) const { return pools_->pool(tenant); }
  /// The scope of `user` working on `tenant` (the caller's tenancy check is the scheme's).
  Scope scope(store::Principal user, store::Tenant tenant) const;

  store::Identity& identity() const noexcept { return *identity_; }
  /// The guard of the service's records (routes with an http::on permission); set once,
  /// before serving.
  void set_record_guard(RecordGuard guard) { records_ = std::move(guard); }

 private:
  store::Identity* identity_;
  store::TenantPools* pools_;
  store::CatalogCache* catalogs_;
  RecordGuard records_;
};

}  // namespace cadastre::service
