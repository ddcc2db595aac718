// The query of GET /auditoria/geometrias.
#pragma once

#include <cstdint>
#include <optional>

#include "http/http.hpp"

namespace cadastre::platform::audit {

/// The widest range one request may read, and the rows it may answer.
inline constexpr std::int64_t kMaxRangeMs = 366LL * 24 * 60 * 60 * 1000;
inline constexpr std::int64_t kDefaultLimit = 100, kMaxLimit = 1000;

struct AuditQuery {
  std::optional<std::int64_t> projeto, camada, usuario;
  std::int64_t inicio_ms = 0, fim_ms = 0;  ///< epoch milliseconds, both included
  std::int64_t limite = kDefaultLimit;
};

/// idProjeto?, idCamada?, idUsuario? (ids ≥ 1), dataInicioLong and dataFinalLong (epoch ms,
/// required, final not before inicio, at most kMaxRangeMs apart), limite? (1 to 1000,
/// default 100); 400 naming the parameter otherwise.
AuditQuery parse_query(const http::Request& req);

}  // namespace cadastre::platform::audit
