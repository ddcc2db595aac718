// The request scope of a tenant-scoped service: who calls, on which tenant, with that
// tenant's pool, and the one permission guard. A handler receives a Scope and nothing
// wider (no App, no TenantPools), so "a request only reaches its own tenant" is a property
// of the types, not a convention.
//
// The guard: a route names the permission it needs in its table entry (http::Access); the
// auth scheme builds the Scope and calls enforce() before the handler runs. Layers named by
// data rather than by the route (a table in a request body, the relations of a detail)
// are checked by the same guard through layer().
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "http/http.hpp"
#include "service/caller.hpp"
#include "store/catalog.hpp"
#include "store/identity.hpp"
#include "store/pool.hpp"

namespace cadastre::service {

/// A layer of the tenant's catalog; holds the catalog so `layer` stays valid.
struct LayerRef {
  std::shared_ptr<const store::Catalog> catalog;
  const store::Layer* layer = nullptr;
  const store::Layer& operator*() const { return *layer; }
  const store::Layer* operator->() const { return layer; }
};

class Scope;

/// What a route's record permission (http::Access::Kind::record) resolved to: the record,
/// the project and layer it belongs to (0 when none), and the caller's role there.
struct Grant {
  std::string record;
  std::int64_t id = 0, project_id = 0, layer_id = 0;
  std::string role;  ///< "leitura", "edicao" or "admin"
};

/// A service's guard for its records: the caller's grant on the record `access` names in
/// `req`, or an Error (400 malformed id, 404 unknown or another tenant's, 403 refused,
/// 409 a state that refuses the role).
using RecordGuard = std::function<Grant(const Scope&, const http::Access&, const http::Request&)>;

class Scope {
 public:
  Scope(store::Principal user, store::Tenant tenant, store::Pool& db, store::Identity& identity,
        store::CatalogCache& catalogs, const RecordGuard* records = nullptr);

  store::Principal user;  ///< the caller
  store::Tenant tenant;   ///< the tenant of {municipio}, or the caller's own
  store::Pool* db;        ///< that tenant's pool (never null)

  /// The tenant's catalog of the tables of `schema` (cached).
  std::shared_ptr<const store::Catalog> catalog(std::string_view schema = "cadastro") const;
  /// The catalog of `schema` read again (throttled: see store::CatalogCache::reload), for a
  /// name the cached one does not know (a table created since).
  std::shared_ptr<const store::Catalog> reload_catalog(std::string_view schema = "cadastro") const;
  /// The caller's layer rules.
  std::vector<store::LayerPermission> permissions() const;
  /// Whether the caller may read (or write) `camada`; administrators may do anything.
  bool may(std::string_view camada, bool write) const;
  /// 403 acesso_negado unless the caller may read (or write) `camada`: for a layer named by
  /// data whose catalog entry the caller must not learn about before the check.
  void require(std::string_view camada, bool write) const;
  /// The layer `camada`, when the caller may read (or write) it: 400 for a malformed name,
  /// 404 for an unknown layer, 403 without permission. For layers named by data.
  LayerRef layer(std::string_view camada, bool write) const;
  /// The layer named by the route's permission ("{camada}"), resolved and checked before
  /// the handler ran. Throws std::logic_error for a route whose permission names none.
  const LayerRef& layer() const;
  /// The record named by the route's permission (http::on), resolved and checked before
  /// the handler ran. Throws std::logic_error for a route whose permission names none.
  const Grant& grant() const;

  /// Checks the route's permission for `req` (403 acesso_negado when refused). Called by the
  /// auth schemes, never by handlers.
  void enforce(const http::Access& access, const http::Request& req);

  /// Runs `fn` when the request ends (when the last copy of this scope goes, after the
  /// handler's answer): an auth scheme marks a write's end with it. `fn` must not throw.
  void at_end(std::function<void()> fn);

 private:
  friend class Caller;  // a store's view of this request
  store::Identity* identity_;
  store::CatalogCache* catalogs_;
  const RecordGuard* records_;
  LayerRef route_layer_;
  std::optional<Grant> grant_;
  std::shared_ptr<void> at_end_;  ///< its deleter runs what at_end() was given
};

/// The scope the route's auth scheme established (std::logic_error, so a 500, when the
/// route's scheme establishes none: a handler fails closed, never open).
const Scope& scope(const http::Request& req);

/// A handler that runs in the caller's scope.
using ScopedHandler = std::function<http::Response(const Scope&, http::Request&)>;
/// Adapts a scoped handler to the route table.
http::Handler scoped(ScopedHandler fn);

/// The one adapter from an area's handlers to the route table: `fn` is a const member
/// function of the area's narrow context (`Response (Context::*)(const Scope&, Request&)
/// const`) or a function taking it first (`Response (*)(const Context&, const Scope&,
/// Request&)`), called with the context, the caller's scope and the request. The context is
/// what the area's handlers may reach besides the Scope (its pools, options, job runner),
/// never the App.
template <class Context, class Fn>
http::Handler scoped(std::shared_ptr<Context> context, Fn fn) {
  return [context = std::move(context), fn](http::Request& req) {
    return std::invoke(fn, std::as_const(*context), scope(req), req);
  };
}

/// The same for a route that establishes no Scope (a public route, or a scheme with a
/// context of its own): fn(context, request).
template <class Context, class Fn>
http::Handler unscoped(std::shared_ptr<Context> context, Fn fn) {
  return [context = std::move(context), fn](http::Request& req) { return std::invoke(fn, std::as_const(*context), req); };
}

/// The record id from a path segment, checked against the layer's key type (400 when the
/// layer has no single-column key or the text is not a valid value of its type).
std::string record_id(const store::Layer& layer, const std::string& text);

}  // namespace cadastre::service
