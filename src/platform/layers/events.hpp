// Layer events on the live socket (GET /socket): after a write that changes how a layer is
// drawn or listed commits (create, update, state, privacy, delete, labels and classes),
// one message
//   {"tipo":"camada","operacao":"criar|alterar|estilo|excluir","idCamada","idProjeto",
//    "geracao"?, "idGeometria"?}
// so an open map refetches the layer (and its tiles, whose ETag is the generation).
// "geracao" is the layer's generation after the write (absent on excluir); "idGeometria"
// names the geometry of a single geometry's label (operacao estilo).
//
// Privacy: the message goes only to the open sessions of the tenant whose user has a role
// on the layer (the guard's rule, projeto.papel_camada), named in the event
// (store/events.hpp), never to the whole tenant: a private layer, or a layer of a project not
// shared with a user, is not announced to that user. A write that can hide the layer from
// some users (privacy, delete) is announced to those who saw it before as well, so their
// maps drop it; that tells them nothing they did not see already. Ids only: no name.
//
// The layer's data events (geometries/routes.cpp "geometria_alterada", values/routes.cpp
// "valor_alterado") go to the same audience through to_layer() / send(): they name the
// layer, its geometries and the tiles an edit touched, which a user who may not see the
// layer must not learn.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "service/caller.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::layers {

class Announcer {
 public:
  explicit Announcer(store::Pool& platform) : platform_(&platform) {}

  /// The open sessions that see layer `id` now: taken before a write that may hide it
  /// from some of them (privacy, delete), and handed to changed() / deleted() after; or
  /// once for a batch of data events of the layer (send()). Empty when it cannot be read.
  std::vector<std::int64_t> audience(const service::Caller& s, std::int64_t id) const;

  /// After the committed write: {"operacao": `operacao`} with the layer's project and
  /// new generation, to the sessions that see it now and to `before`.
  void changed(const service::Caller& s, std::string_view operacao, std::int64_t id,
               const std::vector<std::int64_t>& before = {}, std::optional<std::int64_t> geometry = {}) const;

  /// After the committed delete: {"operacao":"excluir"} to `before`.
  void deleted(const service::Caller& s, std::int64_t id, std::int64_t project,
               const std::vector<std::int64_t>& before) const;

  /// After a committed write of layer `id`'s data: the event `json` (of `type`) to the
  /// sessions that see the layer now. Never throws (see audience()).
  void to_layer(const service::Caller& s, std::int64_t id, std::string_view type, const std::string& json) const;

  /// The event `json` (of `type`) once to each of `sessions` (an audience() taken once for
  /// several events of one layer: a batch's geometries cost one audience, not one each).
  void send(const service::Caller& s, std::string_view type, const std::string& json,
            std::vector<std::int64_t> sessions) const;

 private:
  store::Pool* platform_;
};

}  // namespace cadastre::platform::layers
