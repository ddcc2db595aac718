// Self-service accounts: a pending account (tenant, company, first administrator, trial
// license) until its e-mail is confirmed, when the tenant's database is created; the
// e-mail links' effects (confirmation, password reset, e-mail change); and the users an
// administrator's message goes to.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "platform/app.hpp"
#include "platform/common/links.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::accounts {

struct NewAccount {
  std::string nome, email, password_hash, empresa, cnpj, telefone, municipio, uf;
};

struct CreatedAccount {
  std::int64_t user_id = 0, tenant_id = 0;
  std::string slug;
};

/// Creates the pending account in one transaction: an inactive tenant (a free name made of
/// the municipality or company name), its company, the administrator (e-mail not yet
/// confirmed) and a trial license. A pending account of the same e-mail gives way (its link
/// stops working). nullopt when the e-mail already has a confirmed user.
std::optional<CreatedAccount> create_pending(store::Pool& pool, const NewAccount& a, const std::string& server_dsn,
                                             const TrialOptions& trial);

/// Removes a pending account whose confirmation could not be sent (nothing of it is in use).
void discard_pending(store::Pool& pool, const CreatedAccount& a);

/// A user as the e-mail routes address them.
using common::Contact;
/// The active user with this e-mail (of an active tenant, or a provider's user).
std::optional<Contact> active_contact(store::Pool& pool, const std::string& email);
/// The active user `id` of `tenant_id`.
std::optional<Contact> contact_in_tenant(store::Pool& pool, std::int64_t id, std::int64_t tenant_id);

/// What a confirmation link did.
struct Confirmed {
  bool account = false;  ///< a new account (else an e-mail change)
  std::int64_t user_id = 0;
  std::string email, slug;
};
/// Applies a confirmation link: a new account's tenant gets its database (cad_<slug> on
/// `server_dsn`) and becomes active with its administrator; an e-mail change takes effect.
/// 400 when the link is unknown, used or expired; 409 when the new e-mail was taken since.
/// The token is spent only when everything succeeded.
Confirmed confirm(store::Pool& pool, const std::string& token, const std::string& server_dsn);

/// Sets the password of a reset link's user; returns the user (400 when the link is unknown,
/// used or expired).
/// Spends reset token `token` and sets the password of its user to `hash_for(user)`, in
/// one transaction: the token is looked up before any hashing (a wrong token costs no
/// argon2), and a password `hash_for` refuses (it throws) leaves the token unspent.
std::int64_t reset_password(store::Pool& pool, const std::string& token,
                            const std::function<std::string(const Contact&)>& hash_for);

/// The active users of `tenant_id`, all or those of `ids` (others' ids are ignored).
std::vector<Contact> recipients(store::Pool& pool, std::int64_t tenant_id, const std::vector<std::int64_t>& ids);

}  // namespace cadastre::platform::accounts
