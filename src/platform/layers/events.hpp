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
// on the layer (the guard's rule, projeto.papel_camada), one publish per session on the
// tenant's bus, never to the whole tenant: a private layer, or a layer of a project not
// shared with a user, is not announced to that user. A write that can hide the layer from
// some users (privacy, delete) is announced to those who saw it before as well, so their
// maps drop it; that tells them nothing they did not see already. Ids only: no name.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "service/events.hpp"
#include "service/scope.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::layers {

class Announcer {
 public:
  Announcer(service::EventBus& bus, store::Pool& platform) : bus_(&bus), platform_(&platform) {}

  /// The open sessions that see layer `id` now: taken before a write that may hide it
  /// from some of them (privacy, delete), and handed to changed() / deleted() after.
  std::vector<std::int64_t> audience(const service::Scope& s, std::int64_t id) const;

  /// After the committed write: {"operacao": `operacao`} with the layer's project and
  /// new generation, to the sessions that see it now and to `before`.
  void changed(const service::Scope& s, std::string_view operacao, std::int64_t id,
               const std::vector<std::int64_t>& before = {}, std::optional<std::int64_t> geometry = {}) const;

  /// After the committed delete: {"operacao":"excluir"} to `before`.
  void deleted(const service::Scope& s, std::int64_t id, std::int64_t project,
               const std::vector<std::int64_t>& before) const;

 private:
  void publish(const service::Scope& s, const std::string& json, std::vector<std::int64_t> sessions) const;

  service::EventBus* bus_;
  store::Pool* platform_;
};

}  // namespace cadastre::platform::layers
