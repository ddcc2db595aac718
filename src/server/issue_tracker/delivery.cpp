#include "server/issue_tracker/delivery.hpp"

#include <simdjson.h>

#include "cadastre/json.hpp"
#include "server/issue_tracker/store.hpp"

#include "store/pool.hpp"

namespace cadastre::server::tracker {
namespace {

constexpr long long kMinTimeoutMs = 100, kMaxTimeoutMs = 60000;
constexpr int kMaxRetriesPerCall = 20;

std::optional<std::string> string_member(simdjson::dom::object o, const char* key) {
  simdjson::dom::element e;
  if (o[key].get(e) != simdjson::SUCCESS) return std::nullopt;
  if (e.is_string()) return std::string(std::string_view(e));
  if (e.is_int64()) return std::to_string(std::int64_t(e));
  if (e.is_uint64()) return std::to_string(std::uint64_t(e));
  return std::nullopt;
}

// Reads the tracker's answer into `d` (state sent), or marks it refused when the answer
// carries no id: posting it again could only create a duplicate.
void read_answer(const std::string& body, Delivery& d) {
  simdjson::dom::parser parser;
  simdjson::dom::object o;
  std::optional<std::string> id;
  if (parser.parse(body).get(o) == simdjson::SUCCESS) id = string_member(o, "id");
  if (!id || id->empty()) {
    d.state = Delivery::State::refused;
    d.erro = "o rastreador aceitou a issue mas não informou o id";
    return;
  }
  d.state = Delivery::State::sent;
  d.id_externo = *id;
  for (const char* key : {"link", "url", "html_url"})
    if (auto link = string_member(o, key)) {
      d.link = *link;
      break;
    }
}

void classify(const outbound::Result& r, Delivery& d) {
  using O = outbound::Result::Outcome;
  if (r.outcome != O::ok) {
    d.state = Delivery::State::pending;
    d.timed_out = r.outcome == O::timeout;
    d.erro = d.timed_out ? "o rastreador não respondeu a tempo" : "rastreador inacessível: " + r.detail;
    return;
  }
  if (r.status >= 200 && r.status < 300) return read_answer(r.body, d);
  // Time-outs, throttling and server errors pass; any other answer will not change.
  bool transient = r.status >= 500 || r.status == 408 || r.status == 429;
  d.state = transient ? Delivery::State::pending : Delivery::State::refused;
  d.erro = "o rastreador respondeu HTTP " + std::to_string(r.status);
}

// The JSON the tracker receives (the delivery adds "referencia").
std::string payload(const IssueInput& in, const service::Scope& s) {
  JsonWriter w;
  w.begin_object().key("titulo").value(in.titulo);
  w.key("descricao");
  in.descricao ? w.value(*in.descricao) : w.null();
  w.key("municipio").value(s.tenant.slug);
  w.key("lote_id");
  in.lote_id ? w.value(*in.lote_id) : w.null();
  w.key("camada");
  in.camada ? w.value(*in.camada) : w.null();
  w.key("registro_id");
  in.registro_id ? w.value(*in.registro_id) : w.null();
  w.key("anexos").begin_array();
  for (auto a : in.anexos) w.value(a);
  w.end_array();
  w.key("criado_por").value(s.user.email).end_object();
  return std::move(w).str();
}

outbound::Call tracker_call(const Config& cfg, const StoredIssue& issue) {
  outbound::Call call;
  call.method = "POST";
  call.origin = cfg.url.origin;
  call.target = cfg.url.path.empty() ? "/" : cfg.url.path;
  call.body = issue.payload;
  call.content_type = "application/json";
  call.timeout = cfg.timeout;
  call.headers.emplace_back("Accept", "application/json");
  call.headers.emplace_back("Idempotency-Key", issue.referencia);
  if (!cfg.token.empty()) call.headers.emplace_back("Authorization", "Bearer " + cfg.token);
  return call;
}

}  // namespace

Config config_of(const store::Tenant& tenant) {
  simdjson::dom::parser parser;
  simdjson::dom::object cfg;
  if (parser.parse(tenant.config_json).get(cfg) != simdjson::SUCCESS || cfg["rastreador"].error())
    throw Error(errc::unavailable, "rastreador de issues externo não configurado para o município " + tenant.slug);
  simdjson::dom::object r;
  std::string_view url;
  if (cfg["rastreador"].get(r) != simdjson::SUCCESS || r["url"].get(url) != simdjson::SUCCESS)
    throw Error(errc::unavailable, "configuração do rastreador de issues do município " + tenant.slug + " sem url");
  Config c;
  auto parsed = outbound::parse_url(url);
  if (!parsed)
    throw Error(errc::unavailable, "configuração do rastreador de issues do município " + tenant.slug +
                                       " com url inválida");
  c.url = *parsed;
  std::string_view token;
  if (r["token"].get(token) == simdjson::SUCCESS) c.token = std::string(token);
  std::int64_t ms = 0;
  if (!r["timeout_ms"].error()) {
    if (r["timeout_ms"].get(ms) != simdjson::SUCCESS || ms < kMinTimeoutMs || ms > kMaxTimeoutMs)
      throw Error(errc::unavailable, "configuração do rastreador de issues do município " + tenant.slug +
                                         ": timeout_ms deve estar entre 100 e 60000");
    c.timeout = std::chrono::milliseconds(ms);
  }
  return c;
}

Delivery deliver(soci::session& s, const Config& cfg, std::int64_t id, bool wait_for_lock) {
  Delivery d;
  store::in_transaction(s, [&] {
    auto issue = lock_issue(s, id, wait_for_lock);
    if (!issue) return;  // busy
    if (issue->status == "enviado") {
      d.state = Delivery::State::sent;
      d.id_externo = issue->id_externo;
      d.link = issue->link;
      return;
    }
    if (issue->status == "falhou") {
      d.state = Delivery::State::refused;
      d.erro = issue->ultimo_erro;
      return;
    }
    classify(outbound::send(tracker_call(cfg, *issue)), d);
    record_attempt(s, id,
                   d.state == Delivery::State::sent      ? "enviado"
                   : d.state == Delivery::State::pending ? "pendente"
                                                         : "falhou",
                   d.id_externo, d.link, d.erro);
  });
  return d;
}

Submission submit(const service::Scope& s, const Config& cfg, const IssueInput& in, const service::LayerRef& layer) {
  Submission out;
  out.id = s.db->with([&](soci::session& db) {
    check_references(db, in, layer);
    return insert_issue(db, in, payload(in, s), s.tenant.slug, s.user.email);
  });
  for (std::int64_t old : s.db->with([&](soci::session& db) { return pending_before(db, out.id, kMaxRetriesPerCall); })) {
    Delivery d = s.db->with([&](soci::session& db) { return deliver(db, cfg, old, false); });
    if (d.state == Delivery::State::sent) ++out.resent;
    if (d.state == Delivery::State::pending) {
      out.delivery = d;
      return out;
    }
  }
  out.delivery = s.db->with([&](soci::session& db) { return deliver(db, cfg, out.id, true); });
  return out;
}

}  // namespace cadastre::server::tracker
