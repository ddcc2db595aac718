// Every SQL statement of the explorer: the query descriptions rendered as SQL (in two
// renderings of one statement: `preview`, the text shown to the user with every value
// written as a literal — strings quoted with '' doubled, numbers checked to be numbers —
// and `sql`, the text that runs, where every value is a bound parameter; names reach
// either only after the catalog check, through quote_identifier), the layer records, the
// saved reports (table explorer.relatorio, migration 0007) and the read-only runs.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/explorer/input.hpp"
#include "store/catalog.hpp"
#include "store/features.hpp"
#include "store/identity.hpp"
#include "store/pool.hpp"
#include "store/records.hpp"
#include "store/sql.hpp"

namespace soci {
class session;
}

namespace cadastre::server::explorer {

// ---------------------------------------------------------------- query descriptions

/// How selected values are returned: as JSON values (geometry as a GeoJSON object) or as
/// text (geometry as GeoJSON text), for the spreadsheet and the PDF.
enum class Output { json, text };

struct Built {
  std::string preview;                        ///< the statement with values as SQL literals
  store::Sql sql;                             ///< the same statement with values bound
  std::vector<const store::Column*> columns;  ///< selected, in order
};

/// Checks `q` against `layer` (the catalog entry of q.table): unknown columns → 400
/// campo_desconhecido, operators that do not fit the column type or values that do not fit
/// it → 400 parametro_invalido. Builds `select ... from layer t where ... order by ...
/// limit <limit>`; the primary key ends the order so pages are stable. `where` prefixes the
/// members named in errors, as in parse_query().
Built build(const Query& q, const store::Layer& layer, std::int64_t limit, Output output, std::string_view where = {});

/// A string as a PostgreSQL literal: 'it''s'; with E'...' and doubled backslashes when it
/// holds a backslash, so the text means the same whatever standard_conforming_strings is.
std::string quote_literal(std::string_view text);

/// Runs `fn` on `db` inside a read-only transaction with `timeout` as statement_timeout,
/// then rolls back. A statement that tries to write → 403.
void read_only(store::Pool& db, std::chrono::milliseconds timeout, const std::function<void(soci::session&)>& fn);

/// The rows of `b` as one JSON array and their number (read-only, `timeout`).
std::pair<std::string, std::int64_t> run_preview(store::Pool& db, const Built& b, std::chrono::milliseconds timeout);

// ---------------------------------------------------------------- catalog and layer records

/// Row estimates of the cadastro tables read now (pg_class.reltuples, kept by ANALYZE and
/// autovacuum), not from the cached catalog; nullopt when never analysed.
std::map<std::string, store::Value> row_estimates(soci::session& s);

/// One page of `q` (filters, sort, paging resolved against q.layer), records as the
/// explorer shows them (geometry as GeoJSON), the key last in the order.
store::PageRows layer_page(soci::session& s, const store::FeatureQuery& q);

/// A written record: its id and the record as the list shows it.
struct Saved {
  std::string id;
  std::string json;
};
/// Inserts `in` (audited) and reads it back (the Feature when the layer has no single key).
Saved create_record(store::Pool& db, const store::Layer& layer, const store::RecordInput& in,
                      const store::Principal& user);
/// Updates `in` (its id set; audited) and reads it back.
std::string update_record(store::Pool& db, const store::Layer& layer, const store::RecordInput& in,
                          const store::Principal& user);
/// Deletes record `id` (audited); the number of records removed.
long long delete_record(store::Pool& db, const store::Layer& layer, const std::string& id,
                        const store::Principal& user);

// ---------------------------------------------------------------- saved reports

store::PageRows list_reports(soci::session& s, const query::Paging& paging);
/// Creates the report (nome and consulta set); its id and JSON. A duplicate name → 409.
Saved create_report(store::Pool& db, const ReportInput& in, const store::Principal& user);
/// Changes report `id` (404 when absent; duplicate name → 409); the report's JSON.
std::string update_report(store::Pool& db, std::int64_t id, const ReportInput& in, const store::Principal& user);
/// Deletes report `id` (404 when absent); the report as it was.
std::string delete_report(store::Pool& db, std::int64_t id, const store::Principal& user);

struct StoredReport {
  std::string nome, titulo, consulta;  ///< titulo falls back to nome; consulta as JSON text
};
/// Report `id` (404 when absent).
StoredReport read_report(soci::session& s, std::int64_t id);

struct ExportRows {
  std::vector<store::Row> rows;
  std::string generated;  ///< "DD/MM/YYYY HH24:MI" in the tenant's time zone
};
/// Runs `b` read-only (`timeout`) and reads the time in `time_zone`.
ExportRows run_export(store::Pool& db, const Built& b, const std::string& time_zone, std::chrono::milliseconds timeout);

}  // namespace cadastre::server::explorer
