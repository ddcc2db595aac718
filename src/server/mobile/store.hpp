// Every SQL statement of the field application section (/aplicativo); the lot package is
// characterization's (server/characterization/lot_package.hpp).
//
// Offline logs (POST .../process-logs-v2/), as applied here:
//   * Entries apply in array order (the app's log order), in one transaction, each under
//     its own savepoint, so a failing entry is undone alone and later entries still apply;
//     the batch commits once, so a lost connection leaves no partial batch behind.
//   * Idempotency: every processed entry is recorded in aplicativo.log_aplicado under
//     (dispositivo, id_cliente) with its outcome; an entry already recorded is not applied
//     again and answers "ja_processado" with the recorded result. Replaying a log therefore
//     changes no record and adds no audit row. Batches of one device are serialised by an
//     advisory lock, so two concurrent replays cannot both apply an entry.
//   * Conflicts: an update or removal is not applied when the record was changed on the
//     server after versao_base, that is when the audit trail (auditoria.registro) has a
//     change of that record newer than versao_base that did not come from this device's
//     own log entries. It answers "conflito" with the server's current record ("atual",
//     null when removed) and the time of that change ("alterado_em"); the server value is
//     kept. Changes made outside the API (no audit row) are not seen.
//   * Other failures of one entry (missing record, constraint violations, bad values) answer
//     "erro" with the catalog code and message; they are recorded too, so replays agree.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "server/mobile/input.hpp"
#include "store/features.hpp"
#include "store/identity.hpp"
#include "store/pool.hpp"

namespace cadastre::server::mobile {

// ---------------------------------------------------------------- intersect/bounding-box

struct BoxPage {
  std::string features = "[]";  ///< JSON array of Features of the page
  long long returned = 0;       ///< features in the page
  std::string total = "0";      ///< every matching feature (numberMatched)
};

/// The page of `q` (its bbox set) and the count of every feature it matches.
BoxPage bbox_page(soci::session& s, const store::FeatureQuery& q);

// ---------------------------------------------------------------- get-tiles-from-lote

struct LotsGeometry {
  store::Value missing;  ///< "3, 7": the ids that are not lots (nullopt: all exist)
  store::Value hex;      ///< the union of the lots' geometries as hex EWKB (nullopt: none)
};

/// The lots `ids` of layer `lote`: the missing ids or else their geometries' union.
LotsGeometry lots_geometry(soci::session& s, const store::Layer& lote, const std::vector<std::int64_t>& ids);

// ---------------------------------------------------------------- process-logs-v2

struct Outcome {
  std::string status;  ///< aplicado, conflito, erro, ja_processado
  std::string json;    ///< the entry's answer object
};

/// Applies the checked batch for `user` as described above; one outcome per entry.
std::vector<Outcome> apply_logs(store::Pool& db, const LogBatch& batch, const store::Principal& user);

}  // namespace cadastre::server::mobile
