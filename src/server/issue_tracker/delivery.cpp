#include "server/issue_tracker/delivery.hpp"

#include <simdjson.h>

#include "store/pool.hpp"
#include "store/sql.hpp"

namespace cadastre::server::tracker {
namespace {

constexpr long long kMinTimeoutMs = 100, kMaxTimeoutMs = 60000;

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
    store::Sql lock(
        "select status, referencia, (dados || jsonb_build_object('referencia', referencia))::text, "
        "coalesce(id_externo, ''), coalesce(link_externo, ''), coalesce(ultimo_erro, '') "
        "from atendimento.issue_externo where id = ");
    lock.bind(std::to_string(id), "bigint") << (wait_for_lock ? " for update" : " for update skip locked");
    auto rows = store::fetch(s, lock);
    if (rows.empty()) return;  // busy
    const auto& row = rows.front();
    const std::string status = row[0].value_or("");
    if (status == "enviado") {
      d.state = Delivery::State::sent;
      d.id_externo = row[3].value_or("");
      d.link = row[4].value_or("");
      return;
    }
    if (status == "falhou") {
      d.state = Delivery::State::refused;
      d.erro = row[5].value_or("");
      return;
    }

    outbound::Call call;
    call.method = "POST";
    call.origin = cfg.url.origin;
    call.target = cfg.url.path.empty() ? "/" : cfg.url.path;
    call.body = row[2].value_or("{}");
    call.content_type = "application/json";
    call.timeout = cfg.timeout;
    call.headers.emplace_back("Accept", "application/json");
    call.headers.emplace_back("Idempotency-Key", row[1].value_or(""));
    if (!cfg.token.empty()) call.headers.emplace_back("Authorization", "Bearer " + cfg.token);
    classify(outbound::send(call), d);

    store::Sql update("update atendimento.issue_externo set tentativas = tentativas + 1, status = ");
    update.bind(d.state == Delivery::State::sent      ? "enviado"
                : d.state == Delivery::State::pending ? "pendente"
                                                      : "falhou");
    if (d.state == Delivery::State::sent) {
      update << ", id_externo = ";
      update.bind(d.id_externo) << ", link_externo = ";
      update.bind(d.link.empty() ? store::Value() : store::Value(d.link)) << ", enviado_em = now(), ultimo_erro = null";
    } else {
      update << ", ultimo_erro = ";
      update.bind(d.erro);
    }
    update << " where id = ";
    update.bind(std::to_string(id), "bigint");
    store::execute(s, update);
  });
  return d;
}

}  // namespace cadastre::server::tracker
