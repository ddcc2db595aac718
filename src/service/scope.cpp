#include "service/scope.hpp"

#include <cstdint>
#include <stdexcept>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"

namespace cadastre::service {

Scope::Scope(store::Principal u, store::Tenant t, store::Pool& pool, store::Identity& identity,
             store::CatalogCache& catalogs, const RecordGuard* records)
    : user(std::move(u)),
      tenant(std::move(t)),
      db(&pool),
      identity_(&identity),
      catalogs_(&catalogs),
      records_(records) {}

Caller::Caller(const Scope& s) : db(s.db), user(s.user), tenant(s.tenant), catalogs_(s.catalogs_) {}

std::shared_ptr<const store::Catalog> Caller::catalog(std::string_view schema) const {
  return catalogs_->get(tenant, *db, schema);
}

std::shared_ptr<const store::Catalog> Caller::reload_catalog(std::string_view schema) const {
  return catalogs_->reload(tenant, *db, schema);
}

std::shared_ptr<const store::Catalog> Scope::catalog(std::string_view schema) const {
  return catalogs_->get(tenant, *db, schema);
}

std::shared_ptr<const store::Catalog> Scope::reload_catalog(std::string_view schema) const {
  return catalogs_->reload(tenant, *db, schema);
}

std::vector<store::LayerPermission> Scope::permissions() const {
  if (user.provider_grant) return {*user.provider_grant};
  return identity_->permissions(user.user_id);
}

bool Scope::may(std::string_view camada, bool write) const {
  return user.admin || user.platform_admin || store::layer_allowed(permissions(), camada, write, user.admin);
}

void Scope::require(std::string_view camada, bool write) const {
  if (may(camada, write)) return;
  throw Error(errc::forbidden, std::string("sem permissão de ") + (write ? "escrita" : "leitura") +
                                   " na camada '" + std::string(camada) + "'");
}

LayerRef Scope::layer(std::string_view camada, bool write) const {
  query::check_identifier(camada, "camada");
  LayerRef ref;
  ref.catalog = catalog();
  if (!ref.catalog->find(camada)) ref.catalog = reload_catalog();  // a table created since?
  ref.layer = &ref.catalog->require(camada);
  require(camada, write);
  return ref;
}

const LayerRef& Scope::layer() const {
  if (!route_layer_.layer) throw std::logic_error("a rota não declara camada na sua permissão");
  return route_layer_;
}

const Grant& Scope::grant() const {
  if (!grant_) throw std::logic_error("a rota não declara registro na sua permissão");
  return *grant_;
}

void Scope::enforce(const http::Access& access, const http::Request& req) {
  using Kind = http::Access::Kind;
  switch (access.kind) {
    case Kind::anyone:
    case Kind::member:      // the scheme established a user of the tenant: that is the check
    case Kind::credential:  // the scheme accepted the credential: that is the check
      return;
    case Kind::admin:
      if (!user.admin && !user.platform_admin) throw Error(errc::forbidden, "somente administradores do município");
      return;
    case Kind::platform_admin:
      if (!user.platform_admin) throw Error(errc::forbidden, "somente administradores da plataforma");
      return;
    case Kind::layer:
      if (auto param = access.layer_param(); !param.empty())
        route_layer_ = layer(req.param(param), access.write);
      for (const auto& name : access.layers)
        if (name.front() != '{') require(name, access.write);
      return;
    case Kind::record:
      if (!records_) throw std::logic_error("o serviço não tem guarda de registros");
      grant_ = (*records_)(*this, access, req);
      return;
  }
}

void Scope::at_end(std::function<void()> fn) {
  // A null pointer with a deleter: the deleter runs when the last copy goes. It holds what
  // an earlier call gave, which therefore runs after.
  at_end_ = std::shared_ptr<void>(nullptr, [fn = std::move(fn), before = std::move(at_end_)](void*) { fn(); });
}

const Scope& scope(const http::Request& req) {
  if (const auto* s = std::any_cast<Scope>(&req.auth)) return *s;
  throw std::logic_error("rota sem escopo de município (esquema de autenticação sem Scope)");
}

http::Handler scoped(ScopedHandler fn) {
  return [fn = std::move(fn)](http::Request& req) { return fn(scope(req), req); };
}

std::string record_id(const store::Layer& layer, const std::string& text) {
  if (layer.primary_key.empty())
    throw Error(errc::invalid_argument,
                "a camada " + layer.name + " não tem chave primária simples", "id");
  const store::Column& pk = *layer.column(layer.primary_key);
  if (text.empty() || text.size() > 200) throw Error(errc::invalid_argument, "id inválido", "id");
  if (pk.integer()) {
    // Parsed here so "1 or 1=1" or "abc" is a clear 400, not a database error.
    query::parse_integer(text, "id", 1,
                         pk.base_type == "int8"   ? INT64_MAX
                         : pk.base_type == "int4" ? INT32_MAX
                                                  : 32767);
  }
  return text;
}

}  // namespace cadastre::service
