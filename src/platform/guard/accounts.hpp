// The platform's guard for what lives in the platform database (users, wikimap comments)
// and for the caller's reach over accounts. It is the one place that reads the caller's
// administrator flags: handlers ask it, and never compare flags themselves.
//
// Records (named by a route's http::on, resolved by guard::resolve):
// - "usuario": role "proprio" — the user themself, or an administrator of their tenant;
//   role "admin" — an administrator of the user's tenant, and only a platform administrator
//   for a platform administrator (a tenant's administrator could otherwise take that
//   account over: set its e-mail to one they read, then send it a reset link). A user of
//   another tenant is not found (404).
// - "comentario" (a wikimap comment): role "proprio" — its author, an administrator of the
//   map's tenant, or a platform administrator.
#pragma once

#include <cstdint>
#include <string_view>

#include "service/scope.hpp"

namespace cadastre::platform::guard {

/// The accounts the caller administers: their own records only, their tenant's (a tenant
/// administrator), or every tenant's (a platform administrator).
enum class Reach { own, tenant, platform };

/// The caller's reach.
Reach reach(const service::Caller& scope) noexcept;

/// 403 acesso_negado unless the caller's reach is at least `needed`.
void require_reach(const service::Scope& scope, Reach needed);

/// The caller's grant on the platform record `id` of kind `record` ("usuario",
/// "comentario") for `role`: 404 when there is none the caller may know of, 403 when the
/// role is refused. std::logic_error for another kind or role.
service::Grant require_account(store::Pool& platform, const service::Scope& scope, std::string_view record,
                               std::int64_t id, std::string_view role, std::string_view field = "id");

/// 403 acesso_negado, saying `why`, when the caller is a public user (a read-only visitor
/// account).
void require_not_public(store::Pool& platform, const service::Scope& scope, std::string_view why);

/// 403 acesso_negado, saying `why`, unless the caller administers the tenant or at least
/// one of its projects.
void require_administers_a_project(const service::Scope& scope, std::string_view why);

/// Whether `record` is one of require_account's kinds.
bool is_account_record(std::string_view record) noexcept;

}  // namespace cadastre::platform::guard
