// The reads behind the layer events (events.hpp): which open sessions of a tenant may see
// a layer, and the layer's project and generation after a write.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "service/caller.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::layers {

/// A session of the tenant that is valid now (as the session check would accept it), with
/// its user as the guard sees them.
struct Viewer {
  std::int64_t session = 0, user = 0;
  bool admin = false;  ///< tenant or platform administrator (never a provider's user)
};

/// The valid sessions acting in `tenant_id` (platform database), all of them or those of
/// user `user_id` only (the audience of that user's own import jobs). One query.
std::vector<Viewer> open_sessions(store::Pool& platform, std::int64_t tenant_id,
                                  std::optional<std::int64_t> user_id = std::nullopt);

/// The sessions among `viewers` whose user has a role on layer `layer_id`
/// (projeto.papel_camada: project share, per-user right, privacy). One query for all.
std::vector<std::int64_t> sessions_seeing(const service::Caller& s, std::int64_t layer_id,
                                          const std::vector<Viewer>& viewers);

/// A layer's project and tile generation; nullopt when the layer is gone.
struct LayerStamp {
  std::int64_t project = 0, generation = 0;
};
std::optional<LayerStamp> layer_stamp(const service::Caller& s, std::int64_t layer_id);

}  // namespace cadastre::platform::layers
