// The SQL of the raster routes: tiff layers created by an import job (projeto.camadas with
// tipo 'tiff' and its file), and the one-use upload credentials (projeto.tiff_credenciais,
// tenant migration 0025).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "service/caller.hpp"

namespace soci {
class session;
}

namespace cadastre::platform::rasters {

/// Inserts the tiff layer (last in its project's order) and returns its id; `bbox` is its
/// lon/lat extent.
std::int64_t insert_layer(soci::session& s, std::int64_t projeto, const std::string& nome, std::int64_t user,
                          const std::optional<std::array<double, 4>>& bbox);
/// Sets the layer's file (relative to the tenant's directory).
void set_file(soci::session& s, std::int64_t layer, const std::string& arquivo);
/// Renames a layer (the one an import created).
void rename_layer(const service::Caller& scope, std::int64_t layer, const std::string& nome);

/// Records an upload credential.
void issue(const service::Caller& scope, const std::string& chave, std::int64_t projeto, const std::string& nome,
           std::int64_t expira);

struct Credential {
  std::int64_t projeto = 0, usuario = 0;
  std::string nome;
  bool admin = false;
};
/// Marks the credential used and returns it; nullopt when it is unknown, used or expired.
std::optional<Credential> consume(store::Pool& db, const std::string& chave);

/// What has arrived of an upload in parts.
struct Received {
  std::int64_t partes = 0, recebidos = 0;  ///< parts taken, and their bytes in all
};
/// Takes part `parte` (1-based) of `size` bytes for the credential, under a lock of its row
/// (so parts racing for one link go one at a time): the next part, or the last one again (a
/// retry, which replaces it). `write(offset)` stores the bytes at `offset` of the partial
/// file while the row is locked; the counts change only when it returns. 403 when the
/// credential is unknown, used or expired; 409 for a part out of order; 413 when the total
/// would pass `max_total` (field "parte").
Received receive_part(store::Pool& db, const std::string& chave, std::int64_t parte, std::int64_t size,
                      std::int64_t max_total, const std::function<void(std::int64_t offset)>& write);

}  // namespace cadastre::platform::rasters
