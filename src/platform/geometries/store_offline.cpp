// POST /geometrias/offline: a batch of edits made offline, applied in order in one
// transaction. Idempotent per (user, idCliente): the outcome of each item (applied, or in
// conflict) is recorded in projeto.geometrias_offline and answered again when the item comes
// again. The same batch sent twice at once is serialised by transaction-scoped advisory
// locks on the client ids (taken in sorted order: no deadlock between overlapping batches),
// so the second sees the first's outcomes. A stale versaoBase is a conflict reported with
// both versions and never overwritten; any other refusal (unreadable or invalid geometry,
// wrong type) rolls the whole batch back and answers the report with failed = true.
// A criar item's "valores" go in with its geometry (steps::insert_with_values) under a
// savepoint: values the values area refuses undo that item only, which is recorded as
// "recusado" (with the report per field) like a conflict, and the others go on.
#include <soci/soci.h>

#include <algorithm>
#include <map>
#include <set>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "platform/geometries/store.hpp"
#include "platform/geometries/store_write.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::geometries {
namespace {

void client_list(store::Sql& q, const std::vector<OfflineItem>& items) {
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) q << ", ";
    q.bind(items[i].cliente);
  }
}

std::map<std::string, std::string> recorded(soci::session& s, std::int64_t user, const std::vector<OfflineItem>& items) {
  store::Sql q("select id_cliente, resultado::text from projeto.geometrias_offline where usuario_id = ");
  q.bind(std::to_string(user), "bigint") << " and id_cliente in (";
  client_list(q, items);
  q << ")";
  std::map<std::string, std::string> out;
  for (const auto& r : store::fetch(s, q)) out[*r[0]] = *r[1];
  return out;
}

JsonWriter& head(JsonWriter& w, const OfflineItem& item, const char* situacao) {
  return w.begin_object().key("idCliente").value(item.cliente).key("operacao").value(item.operacao).key("situacao").value(
      situacao);
}

// `values`: the created geometry's values (as GET /valores/geometria/:id), when sent.
std::string applied(const OfflineItem& item, const Touched& t, const std::string& values = "") {
  JsonWriter w;
  head(w, item, "aplicado").key("id").value(t.id);
  if (t.versao) w.key("versao").value(*t.versao);
  else w.key("versao").null();
  if (!values.empty()) w.key("valores").raw(values);
  w.end_object();
  return std::move(w).str();
}

std::string conflict(const OfflineItem& item, const std::optional<steps::Locked>& row) {
  JsonWriter w;
  head(w, item, "conflito").key("id").value(item.id).key("versaoBase").value(item.versao_base);
  if (row) w.key("versaoAtual").value(row->versao).key("atual").raw(row->estado);
  else w.key("versaoAtual").null().key("atual").null();  // deleted meanwhile
  w.end_object();
  return std::move(w).str();
}

std::string refused(const OfflineItem& item, const std::string& motivo) {
  JsonWriter w;
  head(w, item, "erro").key("motivo").value(motivo).end_object();
  return std::move(w).str();
}

// The values of a criar item refused: nothing of the item written. `problems` as
// POST /v2/valores reports them (empty when the values area threw, its text in motivo).
std::string values_refused(const OfflineItem& item, const std::string& motivo,
                           const std::vector<values::Problem>& problems) {
  JsonWriter w;
  head(w, item, "recusado").key("motivo").value(motivo).key("campos").begin_array();
  for (const values::Problem& p : problems)
    w.begin_object().key("idCampo").value(p.campo).key("chave").value(p.chave).key("motivo").value(p.motivo).end_object();
  w.end_array().end_object();
  return std::move(w).str();
}

void savepoint_sql(soci::session& s, const char* sql) {
  store::Sql q(sql);
  store::execute(s, q);
}

// A criar item with values, under a savepoint (released, or rolled back with the refusal):
// its outcome; `touched` gets the geometry when applied.
std::string create_with_values(soci::session& s, std::int64_t user, const OfflineItem& item, const std::string& geom,
                               std::vector<Touched>& touched) {
  savepoint_sql(s, "savepoint offline_item");
  try {
    std::string values;
    Touched t = steps::insert_with_values(s, user, item.camada, geom, std::nullopt, *item.valores, values);
    savepoint_sql(s, "release savepoint offline_item");
    touched.push_back(t);
    return applied(item, t, values);
  } catch (const ValuesRefused& e) {
    savepoint_sql(s, "rollback to savepoint offline_item");
    return values_refused(item, "valores recusados: " + e.fields_text(), e.problems);
  } catch (const Error& e) {
    // The values area's own refusals of the data (a 409 inactive field, a 400 failing
    // formula) are the item's outcome; anything else is no fault of the item's: it fails
    // the batch, and is not recorded.
    if (e.code() != errc::invalid_argument && e.code() != errc::invalid_transition) throw;
    savepoint_sql(s, "rollback to savepoint offline_item");
    return values_refused(item, e.what(), {});
  }
}

// The advisory locks of the unique fields the batch's values name, ascending, before any
// item writes: the values' lock order (unique fields, geometry rows, the layer's row) then
// holds across the items of the transaction as within one write (the values area takes
// them again later: they are re-entrant).
void lock_unique_fields(soci::session& s, const std::vector<OfflineItem>& items,
                        const std::map<std::string, std::string>& before) {
  std::set<std::int64_t> ids;
  for (const OfflineItem& item : items)
    if (item.valores && !before.contains(item.cliente))
      for (const values::Entry& e : *item.valores) ids.insert(e.campo);
  if (ids.empty()) return;
  std::string list = "{";
  for (std::int64_t id : ids) list += (list.size() > 1 ? "," : "") + std::to_string(id);
  list += "}";
  store::Sql q("select id::text from projeto.campos where unico and id = any(");
  q.bind(list, "bigint[]") << ") order by id";
  for (const store::Row& r : store::fetch(s, q)) {
    store::Sql lock("select 1 from pg_advisory_xact_lock(");
    lock.bind(*r[0], "bigint") << ")";
    store::fetch(s, lock);
  }
}

std::string not_applied(const OfflineItem& item) {
  JsonWriter w;
  head(w, item, "nao_aplicado").end_object();
  return std::move(w).str();
}

}  // namespace

OfflineReport apply_offline(store::Pool& pool, std::int64_t user, const std::vector<OfflineItem>& items,
                            const std::function<void(const OfflineItem&)>& authorize) {
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    std::vector<std::string> keys;
    for (const auto& item : items) keys.push_back(item.cliente);
    std::sort(keys.begin(), keys.end());
    for (const std::string& key : keys) {
      store::Sql lock("select pg_advisory_xact_lock(hashtextextended('geometrias_offline:' || ");
      lock.bind(std::to_string(user)) << " || ':' || ";
      lock.bind(key) << ", 0))::text";
      store::fetch(s, lock);
    }
    std::map<std::string, std::string> before = recorded(s, user, items);
    // Checked here, under the locks: an item recorded meanwhile by the same batch sent in
    // parallel is answered from the record even if its geometry is gone by now.
    for (const OfflineItem& item : items)
      if (!before.contains(item.cliente)) authorize(item);
    lock_unique_fields(s, items, before);

    OfflineReport report;
    std::vector<std::string> outcomes(items.size());
    std::vector<bool> fresh(items.size(), false);
    std::size_t failed_at = items.size();
    for (std::size_t i = 0; i < items.size() && !report.failed; ++i) {
      const OfflineItem& item = items[i];
      if (auto r = before.find(item.cliente); r != before.end()) {
        outcomes[i] = r->second;
        continue;
      }
      fresh[i] = true;
      std::string geom;
      if (item.operacao != "excluir") {
        steps::Read read = steps::read(s, item.shape);
        if (read.erro) {
          outcomes[i] = refused(item, *read.erro);
          report.failed = true;
          failed_at = i;
          continue;
        }
        geom = read.geom;
      }
      if (item.operacao == "criar") {
        if (auto why = steps::type_mismatch(s, geom, item.camada)) {
          outcomes[i] = refused(item, *why);
          report.failed = true;
          failed_at = i;
          continue;
        }
        if (item.valores) {
          outcomes[i] = create_with_values(s, user, item, geom, report.touched);
          continue;
        }
        report.touched.push_back(steps::insert(s, user, item.camada, geom, std::nullopt));
        outcomes[i] = applied(item, report.touched.back());
        continue;
      }
      auto row = steps::lock(s, item.id);
      if (!row || row->versao != item.versao_base) {
        outcomes[i] = conflict(item, row);
        continue;
      }
      if (item.operacao == "excluir") {
        report.touched.push_back(steps::erase(s, user, *row));
      } else {
        if (auto why = steps::type_mismatch(s, geom, row->layer)) {
          outcomes[i] = refused(item, *why);
          report.failed = true;
          failed_at = i;
          continue;
        }
        report.touched.push_back(steps::replace(s, user, *row, geom));
      }
      outcomes[i] = applied(item, report.touched.back());
    }

    JsonWriter w;
    w.begin_object().key("itens").begin_array();
    if (report.failed) {
      // Rolled back: the refused item says why, the others of this batch were not applied
      // (those recorded by an earlier batch keep their outcome).
      report.touched.clear();
      for (std::size_t i = 0; i < items.size(); ++i) {
        bool kept = (!fresh[i] && !outcomes[i].empty()) || i == failed_at;
        w.raw(kept ? outcomes[i] : not_applied(items[i]));
      }
    } else {
      for (std::size_t i = 0; i < items.size(); ++i) {
        if (fresh[i]) {
          // Answered as stored (jsonb's text), so a replay answers byte for byte the same.
          store::Sql q("insert into projeto.geometrias_offline (usuario_id, id_cliente, resultado) values (");
          q.bind(std::to_string(user), "bigint") << ", ";
          q.bind(items[i].cliente) << ", ";
          q.bind(outcomes[i], "jsonb") << ") returning resultado::text";
          outcomes[i] = *store::fetch_value(s, q);
        }
        w.raw(outcomes[i]);
      }
    }
    w.end_array().end_object();
    report.json = std::move(w).str();
    if (!report.failed) tx.commit();
    return report;
  });
}

}  // namespace cadastre::platform::geometries
