// Revoked sessions on the live event bus: each revocation is published on the control
// channel (tenant 0 of the bus, events that name one session), so the session's open
// socket closes at once whatever tenant it works in (platform/live).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "service/events.hpp"

namespace cadastre::platform {

/// The bus channel of session-targeted control events.
inline constexpr std::int64_t kControlChannel = 0;

/// Announces that `sessions` were revoked, for `reason` ("logout", "inativacao", "senha"...).
void publish_revoked(service::EventBus& bus, const std::vector<std::int64_t>& sessions, std::string_view reason);

}  // namespace cadastre::platform
