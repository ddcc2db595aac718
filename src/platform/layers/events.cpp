#include "platform/layers/events.hpp"

#include <algorithm>
#include <exception>
#include <string>

#include "cadastre/json.hpp"
#include "platform/layers/store_events.hpp"
#include "store/events.hpp"

namespace cadastre::platform::layers {
namespace {

JsonWriter& head(JsonWriter& w, std::string_view operacao, std::int64_t id, std::int64_t project) {
  return w.begin_object().key("tipo").value("camada").key("operacao").value(operacao).key("idCamada").value(id)
      .key("idProjeto").value(project);
}

}  // namespace

std::vector<std::int64_t> Announcer::audience(const service::Caller& s, std::int64_t id) const {
  // Taken before a write, or after one has committed: a failure to learn who to tell must
  // not refuse the write nor turn its success into an error (those who lose sight of the
  // layer, or miss an edit, then learn it on their next reload).
  try {
    return sessions_seeing(s, id, open_sessions(*platform_, s.tenant.id));
  } catch (const std::exception&) {
    return {};
  }
}

void Announcer::changed(const service::Caller& s, std::string_view operacao, std::int64_t id,
                        const std::vector<std::int64_t>& before, std::optional<std::int64_t> geometry) const {
  // The write has committed: an announcement that cannot be made (a database gone in the
  // meantime) must not turn its answer into an error the client would retry. Open maps then
  // catch up on their next reload.
  try {
    std::optional<LayerStamp> stamp = layer_stamp(s, id);
    if (!stamp) return;  // deleted in the meantime: that delete announces itself
    JsonWriter w;
    head(w, operacao, id, stamp->project).key("geracao").value(stamp->generation);
    if (geometry) w.key("idGeometria").value(*geometry);
    w.end_object();
    std::vector<std::int64_t> sessions = sessions_seeing(s, id, open_sessions(*platform_, s.tenant.id));
    sessions.insert(sessions.end(), before.begin(), before.end());
    send(s, "camada", std::move(w).str(), std::move(sessions));
  } catch (const std::exception&) {
  }
}

void Announcer::deleted(const service::Caller& s, std::int64_t id, std::int64_t project,
                        const std::vector<std::int64_t>& before) const {
  JsonWriter w;
  head(w, "excluir", id, project).end_object();
  send(s, "camada", std::move(w).str(), before);
}

void Announcer::to_layer(const service::Caller& s, std::int64_t id, std::string_view type,
                         const std::string& json) const {
  send(s, type, json, audience(s, id));
}

void Announcer::send(const service::Caller& s, std::string_view type, const std::string& json,
                     std::vector<std::int64_t> sessions) const {
  std::sort(sessions.begin(), sessions.end());
  sessions.erase(std::unique(sessions.begin(), sessions.end()), sessions.end());
  // The event names its sessions: every instance delivers it to those sessions' sockets
  // only, which is how a layer's events stay with those who may see the layer. The write
  // has committed: an event that cannot be published costs the event, never the answer.
  try {
    store::publish_event(*platform_, s.tenant.id, type, json, sessions);
  } catch (const std::exception&) {
  }
}

}  // namespace cadastre::platform::layers
