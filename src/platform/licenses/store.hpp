// Licenses (plataforma.licencas) and the license's API tokens (the tenant's API clients,
// plataforma.clientes_api). A tenant's current license is its latest; the status a login
// reports is the stored one, except that 'ativa' and 'teste' read 'expirada' once `fim`
// has passed, and a tenant without any license reads 'sem_licenca'.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include <soci/soci.h>

#include "platform/common/files.hpp"
#include "platform/paging.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::licenses {

/// The statuses a license is stored with.
inline constexpr const char* kStoredStatuses[] = {"teste", "ativa", "suspensa", "cancelada"};

/// The status of `tenant_id`'s current license, as the login answer reports it.
std::string current_status(soci::session& s, std::int64_t tenant_id);

struct LicenseFields {
  std::optional<std::string> plano, status, inicio, fim, observacao;  ///< dates as YYYY-MM-DD
  std::optional<std::int64_t> max_usuarios, max_armazenamento_mb;
  /// PUT /adm/licencas/:id only: the contract of this license whose payment is confirmed.
  std::optional<std::int64_t> pagamento_confirmado;
  /// Whether any column of the license itself changes.
  bool changes_license() const {
    return plano || status || inicio || fim || observacao || max_usuarios || max_armazenamento_mb;
  }
};

/// Creates a license for `tenant_id` (404 for an unknown tenant); returns it as JSON.
std::string create(store::Pool& pool, std::int64_t tenant_id, const LicenseFields& f);
/// Updates license `id` (404 when absent); returns it as JSON.
std::string update(store::Pool& pool, std::int64_t id, const LicenseFields& f);
/// Where a tenant's stored bytes are: its database, which holds the sizes of the cadastre's
/// media (midia.arquivo) and of the platform's files and photos (projeto.arquivos) and the
/// layers' geometries and values themselves (their tables with their indexes), and its
/// folder of the platform's file store, which holds the layers' own files (a tiff layer's
/// Cloud Optimized GeoTIFF, a saved kriging: projeto.camadas.arquivo), sized on disk.
struct TenantStorage {
  store::Pool& db;
  const common::FileStore& files;
  std::string slug;
};

/// The current license of the tenant with its quotas and use: {"licenca": {...} | null,
/// "status", "usuarios": {"limite","emUso"}, "armazenamento": {"limiteMb","emUsoBytes"}}.
std::string my_plan(store::Pool& platform, const TenantStorage& tenant, std::int64_t tenant_id);
/// The bytes the tenant's files take (see TenantStorage).
std::int64_t storage_in_use(const TenantStorage& tenant);
/// Storage set aside for one write (plataforma.reservas_armazenamento): held while the
/// write runs, released when destroyed: after the write committed (its bytes then count as
/// stored) or failed. Move-only.
class StorageReservation {
 public:
  StorageReservation() = default;  ///< nothing reserved (a tenant without a license)
  StorageReservation(store::Pool& platform, std::int64_t id) : platform_(&platform), id_(id) {}
  StorageReservation(StorageReservation&& other) noexcept
      : platform_(other.platform_), id_(std::exchange(other.id_, 0)) {}
  StorageReservation& operator=(StorageReservation&&) = delete;
  StorageReservation(const StorageReservation&) = delete;
  ~StorageReservation();

 private:
  store::Pool* platform_ = nullptr;
  std::int64_t id_ = 0;
};

/// Reserves `bytes` more storage for the tenant, or refuses saying why: 403 licenca_inativa
/// when the tenant's current license has ended ('ativa'/'teste' past fim), is suspended or
/// cancelled; 403 cota_excedida when what is stored, what other writes reserved and `bytes`
/// would go over its storage quota. Reservations of one tenant take turns (a lock in the
/// platform database), so two uploads racing for the last free bytes, on any instances:
/// exactly one gets them. A tenant without a license is not limited (nothing reserved).
/// The files area holds one across storing an upload and its record, the raster imports
/// across their job, the vector imports across their write.
StorageReservation reserve_storage(store::Pool& platform, const TenantStorage& tenant, std::int64_t tenant_id,
                                   std::int64_t bytes);
/// The same check without a reservation (nothing is written): at the door, before a job is
/// queued, for what its file decodes to.
void require_storage(store::Pool& platform, const TenantStorage& tenant, std::int64_t tenant_id, std::int64_t bytes);
/// Records the payment of contract `contract_id` of license `license_id` (plataforma.
/// contratos) as confirmed by platform administrator `admin_id`: 404 when the license has
/// no such contract, 409 when it was already confirmed.
void confirm_payment(store::Pool& pool, std::int64_t license_id, std::int64_t contract_id, std::int64_t admin_id);
/// License `id` as JSON (404 when absent).
std::string one(store::Pool& pool, std::int64_t id);
/// All licenses, a page (columns: id, tenant, plano, status, fim).
store::PageRows list(store::Pool& pool, const Page& page);
/// The licenses of one tenant, newest first (404 for an unknown tenant).
std::string of_tenant(store::Pool& pool, std::int64_t tenant_id);

/// The license's API tokens (the tenant's API clients), without their secrets.
std::string api_tokens(store::Pool& pool, std::int64_t tenant_id);
/// A new secret for the tenant's API client `id` (404 when it is another tenant's), or a new
/// client `nome` of scope `escopo` when id is absent. Returns {"id","nome","escopo","token"}:
/// the token is shown this once; only its SHA-256 is kept.
std::string rotate_api_token(store::Pool& pool, std::int64_t tenant_id, std::optional<std::int64_t> id,
                             const std::string& nome, const std::string& escopo);

}  // namespace cadastre::platform::licenses
