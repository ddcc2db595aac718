// Service providers (plataforma.provedores), their pre-registrations, the tenants that
// grant them access (provedor_tenants) and their users (usuarios.provedor_id).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "platform/paging.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::providers {

struct PreRegistration {
  std::string nome, cnpj, email, responsavel, telefone, mensagem;
};
/// Records a pending pre-registration (409 while another of the same CNPJ is pending or a
/// provider has it). Returns its id.
std::int64_t register_pre(store::Pool& pool, const PreRegistration& p);
/// The columns the pre-registrations may be ordered by.
inline const std::vector<std::string> kPreOrderColumns = {"id", "nome", "criadoEm"};
/// A page of pre-registrations, of one state when given.
store::PageRows list_pre(store::Pool& pool, const std::optional<std::string>& estado, const Page& page);
/// The pre-registrations of a CNPJ, or of the provider `provider_id`'s CNPJ.
std::string pre_of(store::Pool& pool, const std::optional<std::string>& cnpj, std::optional<std::int64_t> provider_id);
/// Deletes a pre-registration that did not become a provider (404 otherwise).
void delete_pre(store::Pool& pool, std::int64_t id);

struct NewProvider {
  std::optional<std::int64_t> pre_id;  ///< approve this pre-registration (its data is used)
  PreRegistration data;                ///< without pre_id: the provider's data
};
struct CreatedProvider {
  std::int64_t provider_id = 0, user_id = 0;
  std::string user_email, user_nome;
};
/// Creates the provider and its first user (the pre-registration's `responsavel`, no
/// password yet) in one transaction; a pre-registration becomes 'aprovado'. 409 for a CNPJ
/// that has a provider or an e-mail that has a user; 404 for an unknown or settled
/// pre-registration.
CreatedProvider create(store::Pool& pool, const NewProvider& n);

/// Providers: every one (tenant absent), or those a tenant granted access, with the grant.
std::string list(store::Pool& pool, std::optional<std::int64_t> tenant_id);
/// One provider as JSON (404 when absent).
std::string one(store::Pool& pool, std::int64_t provider_id);
/// The users of a provider (404 when absent).
std::string users_of(store::Pool& pool, std::int64_t provider_id);
/// Whether the tenant granted the provider access.
bool granted(store::Pool& pool, std::int64_t provider_id, std::int64_t tenant_id);

/// Grants (or changes) a provider's access to a tenant (404 for an unknown or inactive
/// provider). When the change takes write access away, returns the open sessions of the
/// provider's users in that tenant, to be revoked.
std::vector<std::int64_t> grant(store::Pool& pool, std::int64_t provider_id, std::int64_t tenant_id,
                                bool escrita);
/// Ends a tenant's grant (404 when there was none); returns the open sessions of the
/// provider's users in that tenant, to be revoked.
std::vector<std::int64_t> revoke_grant(store::Pool& pool, std::int64_t provider_id, std::int64_t tenant_id);
/// Deactivates a provider (404 when absent); returns its users, whose sessions go.
std::vector<std::int64_t> deactivate(store::Pool& pool, std::int64_t provider_id);

}  // namespace cadastre::platform::providers
