#include "server/mobile/logs.hpp"

#include <simdjson.h>
#include <soci/soci.h>

#include <map>
#include <set>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "server/layer_access.hpp"
#include "store/features.hpp"
#include "store/records.hpp"
#include "store/sql.hpp"

namespace cadastre::server {
namespace {

using http::Request;
using http::Response;

constexpr std::size_t kMaxEntries = 1000;
constexpr std::size_t kMaxBody = 16 * 1024 * 1024;
constexpr std::size_t kMaxClientId = 200;

enum class Op { insert, update, remove };

struct Entry {
  std::string id_cliente, timestamp, camada, operacao;
  Op op = Op::insert;
  const store::Layer* layer = nullptr;
  std::optional<std::string> registro_id, versao_base;
  store::RecordInput dados;
};

struct Batch {
  std::string dispositivo;
  std::map<std::string, LayerRef, std::less<>> layers;  ///< keeps the entries' layers alive
  std::vector<Entry> entries;
};

// ---------------------------------------------------------------- validation

bool digits(std::string_view s, std::size_t pos, std::size_t n, int& out) {
  if (pos + n > s.size()) return false;
  out = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    out = out * 10 + (s[i] - '0');
  }
  return true;
}

// RFC 3339 date-time: YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM), checked in full (day of
// month included) so a bad timestamp is a 400 of the whole batch, not a database error in
// the middle of it.
bool is_rfc3339(std::string_view s) {
  int y, mo, d, h, mi, se, oh, om;
  if (!digits(s, 0, 4, y) || s.size() < 20 || s[4] != '-' || !digits(s, 5, 2, mo) || s[7] != '-' || !digits(s, 8, 2, d) ||
      (s[10] != 'T' && s[10] != 't' && s[10] != ' ') || !digits(s, 11, 2, h) || s[13] != ':' || !digits(s, 14, 2, mi) ||
      s[16] != ':' || !digits(s, 17, 2, se))
    return false;
  std::size_t i = 19;
  if (i < s.size() && s[i] == '.') {
    std::size_t start = ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == start || i - start > 9) return false;
  }
  std::string_view zone = s.substr(i);
  if (zone == "Z" || zone == "z") {
    oh = om = 0;
  } else if (zone.size() != 6 || (zone[0] != '+' && zone[0] != '-') || !digits(zone, 1, 2, oh) || zone[3] != ':' ||
             !digits(zone, 4, 2, om)) {
    return false;
  }
  static constexpr int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return y >= 1 && mo >= 1 && mo <= 12 && d >= 1 && d <= days[mo - 1] && (mo != 2 || d <= 28 || leap) && h <= 23 &&
         mi <= 59 && se <= 59 && oh <= 23 && om <= 59;
}

std::string timestamp_field(simdjson::dom::object o, std::string_view key, const std::string& where) {
  auto v = jsonin::opt_string(o, key);
  std::string field = where + "." + std::string(key);
  if (!v) throw Error(errc::missing_field, "campo obrigatório ausente: '" + field + "' (data e hora RFC 3339)", field);
  if (!is_rfc3339(*v))
    throw Error(errc::invalid_argument, "'" + field + "' deve ser data e hora RFC 3339 (ex.: 2024-05-01T12:30:00Z)", field);
  return *v;
}

// The record id of an entry: an integer or a string, checked against the layer's key type.
std::string entry_id(const store::Layer& layer, simdjson::dom::element e, const std::string& field) {
  std::string text;
  if (e.is_int64()) text = std::to_string(std::int64_t(e));
  else if (e.is_string()) text = std::string(std::string_view(e));
  else throw Error(errc::invalid_argument, "'" + field + "' deve ser o id do registro (inteiro ou texto)", field);
  try {
    return record_id(layer, text);
  } catch (const Error& err) {
    throw Error(err.code(), std::string(err.what()) + " em '" + field + "'", field);
  }
}

Entry parse_entry(App& app, const Request& req, Batch& batch, simdjson::dom::element e, std::size_t index) {
  const std::string where = "logs[" + std::to_string(index) + "]";
  auto o = jsonin::as_object(e, where);
  for (auto [key, value] : o) {
    if (key != "id_cliente" && key != "timestamp" && key != "camada" && key != "operacao" && key != "registro_id" &&
        key != "dados" && key != "versao_base")
      throw Error(errc::unknown_field, "campo desconhecido em " + where + ": '" + std::string(key) + "'",
                  where + "." + std::string(key));
  }
  Entry out;
  auto required = [&](std::string_view key) {
    auto v = jsonin::opt_string(o, key);
    if (!v || v->empty())
      throw Error(errc::missing_field, "campo obrigatório ausente: '" + where + "." + std::string(key) + "'",
                  where + "." + std::string(key));
    return *v;
  };
  out.id_cliente = required("id_cliente");
  if (out.id_cliente.size() > kMaxClientId)
    throw Error(errc::invalid_argument, "'" + where + ".id_cliente' tem mais de 200 caracteres", where + ".id_cliente");
  out.timestamp = timestamp_field(o, "timestamp", where);
  out.camada = required("camada");
  out.operacao = required("operacao");
  if (out.operacao == "inserir") out.op = Op::insert;
  else if (out.operacao == "atualizar") out.op = Op::update;
  else if (out.operacao == "remover") out.op = Op::remove;
  else
    throw Error(errc::invalid_argument, "'" + where + ".operacao' deve ser inserir, atualizar ou remover",
                where + ".operacao");

  auto it = batch.layers.find(out.camada);
  if (it == batch.layers.end()) it = batch.layers.emplace(out.camada, layer_for(app, req, out.camada, true)).first;
  out.layer = it->second.layer;
  if (out.layer->primary_key.empty() || out.layer->is_view)
    throw Error(errc::invalid_argument, "a camada " + out.camada + " não aceita edição pelo aplicativo", where + ".camada");

  auto id = jsonin::find(o, "registro_id");
  auto dados = jsonin::find(o, "dados");
  if (out.op == Op::insert) {
    if (id) throw Error(errc::invalid_argument, "'" + where + ".registro_id' não se aplica a inserir (o id vem na resposta)",
                        where + ".registro_id");
  } else {
    if (!id) throw Error(errc::missing_field, "campo obrigatório ausente: '" + where + ".registro_id'", where + ".registro_id");
    out.registro_id = entry_id(*out.layer, *id, where + ".registro_id");
    out.versao_base = timestamp_field(o, "versao_base", where);
  }
  if (out.op == Op::remove) {
    if (dados) throw Error(errc::invalid_argument, "'" + where + ".dados' não se aplica a remover", where + ".dados");
    return out;
  }
  if (!dados) throw Error(errc::missing_field, "campo obrigatório ausente: '" + where + ".dados'", where + ".dados");
  if (!dados->is_object()) throw Error(errc::invalid_argument, "'" + where + ".dados' deve ser um objeto", where + ".dados");
  out.dados = store::parse_record_element(*out.layer, &*dados, where + ".dados");
  if (out.op == Op::update) {
    if (out.dados.id && *out.dados.id != *out.registro_id)
      throw Error(errc::invalid_argument, "o id em '" + where + ".dados' difere de registro_id", where + ".dados");
    out.dados.id = out.registro_id;
    bool changes = out.dados.geometry_geojson.has_value();
    for (const auto& c : out.dados.columns) changes = changes || c != out.layer->primary_key;
    if (!changes) throw Error(errc::missing_field, "'" + where + ".dados' não tem nenhum campo a alterar", where + ".dados");
  } else if (out.dados.columns.empty() && !out.dados.geometry_geojson) {
    throw Error(errc::missing_field, "'" + where + ".dados' não tem nenhum campo da camada", where + ".dados");
  }
  return out;
}

Batch parse_batch(App& app, const Request& req) {
  if (req.body.size() > kMaxBody)
    throw Error(errc::payload_too_large, "corpo acima de " + std::to_string(kMaxBody / (1024 * 1024)) + " MiB");
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, req.body), "corpo");
  for (auto [key, value] : o) {
    if (key != "dispositivo" && key != "logs")
      throw Error(errc::unknown_field, "campo desconhecido no corpo: '" + std::string(key) + "'", std::string(key));
  }
  Batch batch;
  auto d = jsonin::opt_string(o, "dispositivo");
  if (!d || d->empty()) throw Error(errc::missing_field, "campo obrigatório ausente: 'dispositivo'", "dispositivo");
  if (d->size() > kMaxClientId) throw Error(errc::invalid_argument, "'dispositivo' tem mais de 200 caracteres", "dispositivo");
  batch.dispositivo = *d;
  auto logs = jsonin::find(o, "logs");
  if (!logs) throw Error(errc::missing_field, "campo obrigatório ausente: 'logs'", "logs");
  auto list = jsonin::as_array(*logs, "logs");
  if (list.size() == 0) throw Error(errc::invalid_argument, "'logs' está vazia", "logs");
  if (list.size() > kMaxEntries)
    throw Error(errc::payload_too_large, "no máximo " + std::to_string(kMaxEntries) + " entradas por envio", "logs");
  std::set<std::string, std::less<>> ids;
  std::size_t i = 0;
  for (auto e : list) {
    batch.entries.push_back(parse_entry(app, req, batch, e, i));
    if (!ids.insert(batch.entries.back().id_cliente).second)
      throw Error(errc::invalid_argument, "id_cliente repetido no envio: " + batch.entries.back().id_cliente,
                  "logs[" + std::to_string(i) + "].id_cliente");
    ++i;
  }
  return batch;
}

// ---------------------------------------------------------------- application

std::string audit_table(const store::Layer& layer) { return layer.schema + "." + layer.name; }

struct Outcome {
  std::string status;  ///< aplicado, conflito, erro, ja_processado
  std::string json;    ///< the entry's answer object
};

// The entry's answer, also what aplicativo.log_aplicado keeps for replays.
std::string result_json(const Entry& e, std::string_view status, const std::optional<std::string>& id,
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

std::optional<std::string> recorded(soci::session& s, const Batch& b, const Entry& e) {
  store::Sql sql("select (resultado || jsonb_build_object('status', 'ja_processado', 'status_original', status))::text "
                 "from aplicativo.log_aplicado where dispositivo = ");
  sql.bind(b.dispositivo) << " and id_cliente = ";
  sql.bind(e.id_cliente);
  return store::fetch_value(s, sql);
}

// The record as a GeoJSON Feature, locked until the batch ends (nullopt when absent).
std::optional<std::string> lock_current(soci::session& s, const Entry& e) {
  const store::Layer& l = *e.layer;
  store::Sql sql("select " + store::feature_expression(l, "t") + "::text from " + l.qualified() + " t where t." +
                 query::quote_identifier(l.primary_key) + " = ");
  sql.bind(*e.registro_id, l.column(l.primary_key)->type) << " for update";
  return store::fetch_value(s, sql);
}

// The time of the newest server change of the record after the entry's base version that
// is not one of this device's own applied entries (nullopt when there is none).
std::optional<std::string> newer_change(soci::session& s, const Batch& b, const Entry& e) {
  store::Sql sql("select max(r.em)::text from auditoria.registro r where r.tabela = ");
  sql.bind(audit_table(*e.layer)) << " and r.registro_id = ";
  sql.bind(*e.registro_id) << " and r.em > ";
  sql.bind(*e.versao_base, "timestamptz")
      << " and not exists (select 1 from aplicativo.log_aplicado a where a.auditoria_id = r.id and a.dispositivo = ";
  sql.bind(b.dispositivo) << ")";
  return store::fetch_value(s, sql);
}

void record(soci::session& s, const Batch& b, const Entry& e, const store::Principal& user, const Outcome& o,
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

Outcome apply(soci::session& s, const Batch& b, const Entry& e, const store::Principal& user, std::optional<std::string>& id) {
  id = e.registro_id;
  if (e.op != Op::insert) {
    auto current = lock_current(s, e);
    if (auto changed = newer_change(s, b, e))
      return {"conflito", result_json(e, "conflito", id, std::nullopt, current, changed)};
    if (!current) throw Error(errc::not_found, "registro " + *id + " não encontrado em " + e.camada);
  }
  if (e.op == Op::insert) id = store::insert_record(s, *e.layer, e.dados, user).id;
  else if (e.op == Op::update) store::update_record(s, *e.layer, e.dados, user);
  else store::delete_record(s, *e.layer, *id, user);
  return {"aplicado", result_json(e, "aplicado", id, std::nullopt, std::nullopt, std::nullopt)};
}

// One entry under its own savepoint: a failure undoes this entry only and is reported.
Outcome process_entry(soci::session& s, const Batch& b, const Entry& e, const store::Principal& user) {
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
    if (e.op == Op::insert) id.reset();  // the rolled-back id does not exist
    out = {"erro", result_json(e, "erro", id, failure, std::nullopt, std::nullopt)};
  }
  record(s, b, e, user, out, id);
  return out;
}

}  // namespace

Response process_logs(App& app, Request& req) {
  Batch batch = parse_batch(app, req);
  const Context& ctx = context(req);
  std::vector<Outcome> outcomes;
  ctx.db->run([&](soci::session& s) {
    outcomes.clear();
    soci::transaction tx(s);
    store::Sql lock("select 1 from pg_advisory_xact_lock(hashtextextended('aplicativo.log_aplicado:' || ");
    lock.bind(batch.dispositivo) << ", 0))";
    store::fetch(s, lock);
    for (const auto& e : batch.entries) outcomes.push_back(process_entry(s, batch, e, ctx.user));
    tx.commit();
  });
  std::map<std::string, std::int64_t> counts;
  for (const auto& o : outcomes) ++counts[o.status];
  JsonWriter w;
  w.begin_object().key("dispositivo").value(batch.dispositivo);
  w.key("total").value(static_cast<std::int64_t>(outcomes.size()));
  w.key("aplicados").value(counts["aplicado"]).key("conflitos").value(counts["conflito"]);
  w.key("erros").value(counts["erro"]).key("ja_processados").value(counts["ja_processado"]);
  w.key("resultados").begin_array();
  for (const auto& o : outcomes) w.raw(o.json);
  w.end_array().end_object();
  return Response::json(std::move(w).str());
}

}  // namespace cadastre::server
