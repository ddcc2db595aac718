// What a store may know of a request: who asks, in which tenant, through that tenant's
// pool. Stores take a Caller, never the Scope: the Scope also carries the permission guard
// and the route's grant, which are decided before the handler runs and are not a store's
// business (docs/architecture.md, "The shape of an area"). A handler passes its Scope
// where a Caller is asked for; the Caller lives no longer than that call.
#pragma once

#include <memory>
#include <string_view>

#include "store/identity.hpp"

namespace cadastre::store {
class Catalog;
class CatalogCache;
}  // namespace cadastre::store

namespace cadastre::service {

class Scope;

class Caller {
 public:
  /// The caller of the request `s` was built for (implicit: handlers hand their Scope on).
  Caller(const Scope& s);  // NOLINT(google-explicit-constructor)

  store::Pool* db;                ///< the tenant's pool (never null)
  const store::Principal& user;   ///< who asks
  const store::Tenant& tenant;    ///< the tenant the request acts in

  /// The tenant's catalog of the tables of `schema` (cached), as Scope::catalog.
  std::shared_ptr<const store::Catalog> catalog(std::string_view schema) const;
  /// The catalog of `schema` read again (throttled), for a table created since.
  std::shared_ptr<const store::Catalog> reload_catalog(std::string_view schema) const;

 private:
  store::CatalogCache* catalogs_;
};

}  // namespace cadastre::service
