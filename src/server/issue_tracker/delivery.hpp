// Delivery of stored issues (atendimento.issue_externo) to the tenant's external issue
// tracker, configured in the tenant configuration:
//
//   {"rastreador": {"url": "http://host:port/api/issues", "token": "<bearer, optional>",
//                   "timeout_ms": 5000}}
//
// The tracker gets POST <url> with the issue as JSON, Authorization: Bearer <token> and
// Idempotency-Key: <referencia>; it answers 2xx with a JSON object holding "id" (string
// or number) and the issue's address in "link", "url" or "html_url".
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "server/integracao/client.hpp"
#include "server/issue_tracker/input.hpp"
#include "service/scope.hpp"
#include "store/identity.hpp"

namespace soci {
class session;
}

namespace cadastre::server::tracker {

struct Config {
  outbound::Url url;
  std::string token;
  std::chrono::milliseconds timeout{5000};
};

/// The tracker of `tenant`; Error(unavailable) when none (or an invalid one) is configured.
Config config_of(const store::Tenant& tenant);

/// State of one stored issue after a delivery attempt.
struct Delivery {
  /// sent: the tracker has it; pending: kept for a retry (tracker down, slow or 5xx);
  /// refused: the tracker rejected it for good (4xx or an answer without id); busy:
  /// another request holds the row (it is being delivered right now).
  enum class State { sent, pending, refused, busy } state = State::busy;
  bool timed_out = false;
  std::string id_externo, link, erro;
};

/// Delivers issue `id` unless it is no longer pending, holding its row lock during the
/// call so that concurrent requests never post it twice. `wait_for_lock`: wait for a
/// concurrent delivery to finish (then report what it achieved) instead of skipping.
Delivery deliver(soci::session& s, const Config& cfg, std::int64_t id, bool wait_for_lock);

/// A new issue after submit(): its id and what became of it.
struct Submission {
  std::int64_t id = 0;
  Delivery delivery;  ///< sent, or the failure the caller is told about
  int resent = 0;     ///< backlog issues delivered on the way
};

/// Stores the issue (after checking its references; `layer`: the caller's readable layer
/// of in.camada, or none), then retries the tenant's pending issues, oldest first, then
/// posts it. Once a backlog issue fails the tracker is still down: the new one is only
/// kept, and that failure is reported, instead of waiting for a second time-out.
Submission submit(const service::Scope& s, const Config& cfg, const IssueInput& in, const service::LayerRef& layer);

}  // namespace cadastre::server::tracker
