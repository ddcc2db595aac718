// POST /aplicativo/{municipio}/aplicativo/process-logs-v2/: the edits the field app made
// offline, sent as a log and applied on the server.
//
// Body: {"dispositivo": "<id of the app installation>", "logs": [entry, ...]} (1 to 1000
// entries), each entry
//   {"id_cliente": "<unique per device, e.g. a UUID>", "timestamp": "<RFC 3339, when the edit
//    was made on the device>", "camada": "lote", "operacao": "inserir"|"atualizar"|"remover",
//    "registro_id": <id; atualizar and remover>, "dados": {columns, geometry as GeoJSON;
//    inserir and atualizar}, "versao_base": "<RFC 3339: the version of the record the app
//    edited, i.e. its atualizado_em or the gerado_em of the data package; atualizar and
//    remover>"}.
//
// Rules:
//   * The whole body is validated first (shape, fields, layer names and write permission,
//     columns and geometries of `dados`): any problem → 400/403/404 and nothing is applied.
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
//
// Answer: {"dispositivo", "total", "aplicados", "conflitos", "erros", "ja_processados",
// "resultados": [{"id_cliente", "status", "camada", "operacao", "registro_id"?, "codigo"?,
// "mensagem"?, "atual"?, "alterado_em"?, "status_original" (ja_processado only)}, ...]}.
#pragma once

#include "server/app.hpp"

namespace cadastre::server {

inline constexpr const char* kProcessLogsBody =
    "{\"dispositivo\": \"id do aparelho\", \"logs\": [{\"id_cliente\": \"uuid\", \"timestamp\": \"RFC 3339\", "
    "\"camada\": \"lote\", \"operacao\": \"inserir|atualizar|remover\", \"registro_id\": id, \"dados\": {campos}, "
    "\"versao_base\": \"RFC 3339\"}] (1 a 1000 entradas)}";

http::Response process_logs(App& app, http::Request& req);

}  // namespace cadastre::server
