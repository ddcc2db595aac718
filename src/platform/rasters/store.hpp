// The SQL of the raster routes: tiff layers created by an import job (projeto.camadas with
// tipo 'tiff' and its file), and the one-use upload credentials (projeto.tiff_credenciais,
// tenant migration 0025).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "service/scope.hpp"

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
void rename_layer(const service::Scope& scope, std::int64_t layer, const std::string& nome);

/// Records an upload credential.
void issue(const service::Scope& scope, const std::string& chave, std::int64_t projeto, const std::string& nome,
           std::int64_t expira);

struct Credential {
  std::int64_t projeto = 0, usuario = 0;
  std::string nome;
  bool admin = false;
};
/// Marks the credential used and returns it; nullopt when it is unknown, used or expired.
std::optional<Credential> consume(store::Pool& db, const std::string& chave);

}  // namespace cadastre::platform::rasters
