#include "server/mobile/store.hpp"

#include <soci/soci.h>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "store/sql.hpp"

namespace cadastre::server::mobile {

// ---------------------------------------------------------------- intersect/bounding-box

BoxPage bbox_page(soci::session& s, const store::FeatureQuery& q) {
  store::Sql count;
  store::append_count(count, q);
  auto page = store::fetch_features(s, q);
  BoxPage out;
  out.features = std::move(page.features);
  out.returned = page.returned;
  out.total = store::fetch_value(s, count).value_or("0");
  return out;
}

// ---------------------------------------------------------------- get-tiles-from-lote


LotsGeometry lots_geometry(soci::session& s, const store::Layer& lote, const std::vector<std::int64_t>& ids) {
  const std::string key = query::quote_identifier(lote.primary_key);
  const std::string g = query::quote_identifier(lote.geometry_column);
  store::Sql missing("select string_agg(i::text, ', ' order by i) from unnest(");
  missing.bind(store::id_array(ids), "bigint[]")
      << ") i where not exists (select 1 from " << lote.qualified() << " t where t." << key << " = i)";
  LotsGeometry out;
  out.missing = store::fetch_value(s, missing);
  if (out.missing) return out;
  store::Sql geometry("select encode(ST_AsEWKB(ST_Union(t." + g + ")), 'hex') from " + lote.qualified() +
                      " t where t." + key + " = any(");
  geometry.bind(store::id_array(ids), "bigint[]") << ")";
  out.hex = store::fetch_value(s, geometry);
  return out;
}

// ---------------------------------------------------------------- process-logs-v2

namespace {

std::string audit_table(const store::Layer& layer) { return layer.schema + "." + layer.name; }

// The entry's answer, also what aplicativo.log_aplicado keeps for replays.
std::string result_json(const LogEntry& e, std::string_view status, const std::optional<std::string>& id,
                        const std::optional<Error>& error, const std::optional<std::string>& atual,
                        const std::optional<std::string>& changed_at) {
  JsonWriter w;
  w.begin_object().key("id_cliente").value(e.id_cliente).key("status").value(status);
  w.key("camada").value(e.camada).key("operacao").value(e.operacao);
  if (id) w.key("registro_id").value(*id);
  if (error) w.key("codigo").value(code_string(error->code())).key("mensagem").value(error->what());
  if (status == "conflito") {
    w.key("mensagem").value("o registro foi alterado no servidor depois da versão base; a edição não foi aplicada");
    w.key("atual");
    atual ? w.raw(*atual) : w.null();
    w.key("alterado_em").value(changed_at.value_or(""));
  }
  return std::move(w.end_object()).str();
}

std::optional<std::string> recorded(soci::session& s, const LogBatch& b, const LogEntry& e) {
  store::Sql sql("select (resultado || jsonb_build_object('status', 'ja_processado', 'status_original', status))::text "
                 "from aplicativo.log_aplicado where dispositivo = ");
  sql.bind(b.dispositivo) << " and id_cliente = ";
  sql.bind(e.id_cliente);
  return store::fetch_value(s, sql);
}

// The record as a GeoJSON Feature, locked until the batch ends (nullopt when absent).
std::optional<std::string> lock_current(soci::session& s, const LogEntry& e) {
  const store::Layer& l = *e.layer;
  store::Sql sql("select " + store::feature_expression(l, "t") + "::text from " + l.qualified() + " t where t." +
                 query::quote_identifier(l.primary_key) + " = ");
  sql.bind(*e.registro_id, l.column(l.primary_key)->type) << " for update";
  return store::fetch_value(s, sql);
}

// The time of the newest server change of the record after the entry's base version that
// is not one of this device's own applied entries (nullopt when there is none).
std::optional<std::string> newer_change(soci::session& s, const LogBatch& b, const LogEntry& e) {
  store::Sql sql("select max(r.em)::text from auditoria.registro r where r.tabela = ");
  sql.bind(audit_table(*e.layer)) << " and r.registro_id = ";
  sql.bind(*e.registro_id) << " and r.em > ";
  sql.bind(*e.versao_base, "timestamptz")
      << " and not exists (select 1 from aplicativo.log_aplicado a where a.auditoria_id = r.id and a.dispositivo = ";
  sql.bind(b.dispositivo) << ")";
  return store::fetch_value(s, sql);
}

void record(soci::session& s, const LogBatch& b, const LogEntry& e, const store::Principal& user, const Outcome& o,
            const std::optional<std::string>& id) {
  // The audit row this entry wrote for its record: excluded from this device's later
  // conflict checks, since the app already knows about its own edit.
  std::optional<std::string> audit_id;
  if (o.status == "aplicado") {
    store::Sql last("select max(id)::text from auditoria.registro where tabela = ");
    last.bind(audit_table(*e.layer)) << " and registro_id = ";
    last.bind(*id);
    audit_id = store::fetch_value(s, last);
  }
  store::Sql sql("insert into aplicativo.log_aplicado (dispositivo, id_cliente, momento_cliente, camada, operacao, "
                 "registro_id, status, auditoria_id, resultado, usuario_id) values (");
  sql.bind(b.dispositivo) << ", ";
  sql.bind(e.id_cliente) << ", ";
  sql.bind(e.timestamp, "timestamptz") << ", ";
  sql.bind(e.camada) << ", ";
  sql.bind(e.operacao) << ", ";
  sql.bind(id) << ", ";
  sql.bind(o.status) << ", ";
  sql.bind(audit_id, "bigint") << ", ";
  sql.bind(o.json, "jsonb") << ", ";
  sql.bind(std::to_string(user.user_id), "bigint") << ")";
  store::execute(s, sql);
}

Outcome apply(soci::session& s, const LogBatch& b, const LogEntry& e, const store::Principal& user, std::optional<std::string>& id) {
  id = e.registro_id;
  if (e.op != LogOp::insert) {
    auto current = lock_current(s, e);
    if (auto changed = newer_change(s, b, e))
      return {"conflito", result_json(e, "conflito", id, std::nullopt, current, changed)};
    if (!current) throw Error(errc::not_found, "registro " + *id + " não encontrado em " + e.camada);
  }
  if (e.op == LogOp::insert) id = store::insert_record(s, *e.layer, e.dados, user).id;
  else if (e.op == LogOp::update) store::update_record(s, *e.layer, e.dados, user);
  else store::delete_record(s, *e.layer, *id, user);
  return {"aplicado", result_json(e, "aplicado", id, std::nullopt, std::nullopt, std::nullopt)};
}

// One entry under its own savepoint: a failure undoes this entry only and is reported.
Outcome process_entry(soci::session& s, const LogBatch& b, const LogEntry& e, const store::Principal& user) {
  if (auto done = recorded(s, b, e)) return {"ja_processado", *done};
  std::optional<std::string> id;
  std::optional<Error> failure;
  Outcome out;
  s << "savepoint entrada";
  try {
    out = apply(s, b, e, user, id);
    s << "release savepoint entrada";
  } catch (const Error& err) {
    failure = err;
  } catch (const soci::soci_error& err) {
    failure = store::database_error(err);
    if (!failure) throw;  // an internal failure: the batch fails (500) and the app sends it again
  }
  if (failure) {
    // A lost connection or a timeout says nothing about the entry: the batch fails and the
    // app sends it again.
    if (failure->code() == errc::unavailable) throw *failure;
    s << "rollback to savepoint entrada";
    if (e.op == LogOp::insert) id.reset();  // the rolled-back id does not exist
    out = {"erro", result_json(e, "erro", id, failure, std::nullopt, std::nullopt)};
  }
  record(s, b, e, user, out, id);
  return out;
}

}  // namespace

std::vector<Outcome> apply_logs(store::Pool& db, const LogBatch& batch, const store::Principal& user) {
  std::vector<Outcome> outcomes;
  db.run([&](soci::session& s) {
    outcomes.clear();
    soci::transaction tx(s);
    store::Sql lock("select 1 from pg_advisory_xact_lock(hashtextextended('aplicativo.log_aplicado:' || ");
    lock.bind(batch.dispositivo) << ", 0))";
    store::fetch(s, lock);
    for (const auto& e : batch.entries) outcomes.push_back(process_entry(s, batch, e, user));
    tx.commit();
  });
  return outcomes;
}

}  // namespace cadastre::server::mobile
