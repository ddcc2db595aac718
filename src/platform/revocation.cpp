#include "platform/revocation.hpp"

#include "cadastre/json.hpp"

namespace cadastre::platform {

void publish_revoked(service::EventBus& bus, const std::vector<std::int64_t>& sessions, std::string_view reason) {
  JsonWriter w;
  w.begin_object().key("tipo").value("sessao_revogada").key("motivo").value(reason).end_object();
  std::string json = std::move(w).str();
  for (std::int64_t id : sessions) bus.publish(kControlChannel, {.type = "sessao_revogada", .json = json, .session_id = id});
}

}  // namespace cadastre::platform
