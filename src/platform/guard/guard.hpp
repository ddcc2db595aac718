// The platform's guard for its records (projects, layers, forms, fields, geometries,
// values...): the caller's role on the record a route names, from the one rule set in the
// tenant's database (projeto.papel_projeto / projeto.papel_camada, migration 0015).
//
// Roles, weakest first: "leitura" (see), "edicao" (edit the data: geometries, values),
// "admin" (change the structure, share, publish). A route asks for one of them through its
// table entry, http::on("camada", "{id}", "edicao"), and the auth scheme calls resolve()
// before the handler runs; the handler reads the outcome as scope.grant(). "gestao" is the
// admin role for the moves that change a record's state (activate, deactivate, publish,
// delete): allowed in any state, where "edicao" and "admin" are refused (409) on an inactive
// project, layer or form, or on a superseded version of a project.
//
// Records: projeto, camada, formulario, campo, geometria, valor, camada_adicional,
// camada_usuario, mapa_personalizado, variograma, relatorio_camada, modelo_avaliacao,
// arquivo (each kind's join up to
// its project is in guard/store.cpp). A record may be named by the path ("{id}"), a
// required query parameter ("idCamada") or a member of the JSON body ("corpo.idCamada").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "service/scope.hpp"

namespace cadastre::platform::guard {

/// 0 none, 1 leitura, 2 edicao, 3 admin (gestao counts as admin); -1 for an unknown name.
int rank(std::string_view role) noexcept;

/// Where a caller stands on a record: the role held (empty: none) and the states that
/// refuse edits.
struct Standing {
  std::string held;
  bool project_active = true, superseded = false, layer_active = true, form_active = true;
};

/// Whether `standing` allows `role`: the guard's one decision, for routes (resolve,
/// require) and for the answers of /permissoes alike.
bool allows(const Standing& standing, std::string_view role) noexcept;

class Memory;

/// The grant of the route's permission (installed on the platform's Tenancy, with the
/// platform's pool for the records of guard/accounts.hpp). A read (GET, HEAD) may take a
/// record's place and the caller's standing from `memory` (guard/memory.hpp; null: never).
service::Grant resolve(store::Pool& platform, Memory* memory, const service::Scope& scope,
                       const http::Access& access, const http::Request& req);

/// The caller's grant on a record named by data (a body's idCamada): the same checks as a
/// route's permission, for `role` ("leitura", "edicao", "admin", "gestao"). `field` names
/// the input that carried the id in errors.
service::Grant require(const service::Scope& scope, std::string_view record, std::int64_t id, std::string_view role,
                       std::string_view field = "id");

/// The caller's role on a project / layer (nullopt: none, or no such record in the tenant).
std::optional<std::string> project_role(const service::Caller& scope, std::int64_t project_id);
std::optional<std::string> layer_role(const service::Caller& scope, std::int64_t layer_id);

/// SQL text of the caller's role on the project / layer whose id is the SQL expression
/// `id_sql` (for lists that show only what the caller may see). The caller's id and flag
/// are numbers written by us, never request text.
std::string project_role_sql(const service::Caller& scope, std::string_view id_sql);
std::string layer_role_sql(const service::Caller& scope, std::string_view id_sql);

}  // namespace cadastre::platform::guard
