// Scheduling of inspections (/agendamento/{municipio}/...): reservations with filters and
// paging, create / edit / delete, the status machine (avanca-status) and the free time
// slots of the tenant's agenda. The rules live in cadastre/schedule.hpp; the handlers
// parse, call the library and render.
//
// Access: reservations and slots are governed as the layer "agendamento" (rule
// "agendamento", else the user's "*"): reads need read, writes need write. The agenda
// itself (PUT /agenda) needs an administrator or write on the layer "agenda".
// Capacity is enforced twice: check_capacity inside the transaction, and the claim of a
// place in agendamento.vaga (unique keys, see db/migrations/tenant/0005_agendamento.sql),
// so concurrent bookings of the last place give exactly one reservation.
// Every write records an audit row in the same transaction (tabela "agendamento.reserva",
// or "agendamento.agenda" for the agenda).
#include "server/scheduling/routes.hpp"

#include <soci/soci.h>

#include <functional>

#include "cadastre/json.hpp"
#include "cadastre/schedule.hpp"
#include "server/app.hpp"
#include "server/scheduling/input.hpp"
#include "server/scheduling/store.hpp"
#include "service/geojson.hpp"
#include "store/audit.hpp"

namespace cadastre::server {
namespace {

using sched::allowed;
using sched::prepare;

using http::Request;
using http::Response;
using std::chrono::sys_seconds;
namespace sch = cadastre::schedule;

constexpr const char* kLayer = "agendamento";
constexpr const char* kTable = "agendamento.reserva";
constexpr std::chrono::days kDay{1};

sys_seconds now() {
  return std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
}

std::string path_id(const Request& req) {
  const std::string& id = req.param("id");
  if (id.empty() || id.size() > 18 || id.find_first_not_of("0123456789") != std::string::npos ||
      id[0] == '0')
    throw Error(errc::invalid_argument, "id de reserva inválido: " + id, "id");
  return id;
}

std::string not_found_text(const std::string& id) { return "reserva " + id + " não encontrada"; }

// Runs one attempt of a booking; when the database refuses the claim of a place (another
// booking took it between the check and the claim), the attempt is repeated so the
// library check sees the winner and answers why.
void with_claim_retry(const std::function<void(bool& claiming)>& attempt) {
  for (int i = 0;; ++i) {
    bool claiming = false;
    try {
      attempt(claiming);
      return;
    } catch (const Error& e) {
      if (!claiming || e.code() != errc::conflict) throw;
      if (i >= 4)
        throw Error(errc::conflict,
                    "o horário foi ocupado por outra reserva; escolha outro horário", "inicio");
    }
  }
}

void check_references(soci::session& s, const sched::ReservaInput& in) {
  for (const auto& c : in.columns) {
    if ((c.name != "imobiliario_id" && c.name != "lote_id") || !c.value) continue;
    store::Sql sql(c.name == "lote_id" ? "select 1 from cadastro.lote where id = "
                                       : "select 1 from cadastro.imobiliario where id = ");
    sql.bind(c.value, "integer");
    if (store::fetch(s, sql).empty())
      throw Error(
          errc::invalid_argument,
          (c.name == "lote_id" ? "lote " : "imóvel ") + *c.value + " não existe no cadastro",
          c.name);
  }
}

// The reservation to check: fields of the body over `base` (the stored one, when editing).
sch::Reservation proposed(const sch::Agenda& agenda, const sched::ReservaInput& in,
                          const sch::Reservation* base) {
  sch::Reservation r;
  r.intervalo.inicio =
      in.inicio ? sch::parse_instant(*in.inicio, "inicio") : base->intervalo.inicio;
  if (in.fim)
    r.intervalo.fim = sch::parse_instant(*in.fim, "fim");
  else if (in.inicio && base)
    r.intervalo.fim = r.intervalo.inicio + (base->intervalo.fim - base->intervalo.inicio);
  else if (in.inicio)
    r.intervalo.fim = r.intervalo.inicio + std::chrono::minutes(agenda.duracao_slot_minutos);
  else
    r.intervalo.fim = base->intervalo.fim;
  if (r.intervalo.fim <= r.intervalo.inicio)
    throw Error(errc::invalid_argument, "o fim da reserva deve ser posterior ao início", "fim");
  r.vistoriador = in.has_vistoriador || !base ? in.vistoriador : base->vistoriador;
  return r;
}

sch::CapacityCheck check(soci::session& s, const sch::Agenda& agenda, const sch::Reservation& nova,
                         const std::optional<std::string>& except_id) {
  auto existing = sched::load_reservations(s, nova.intervalo.inicio - kDay,
                                           nova.intervalo.fim + kDay, except_id);
  return sch::check_capacity(agenda, existing, nova, now());
}

void set_columns(store::Sql& sql, const sched::ReservaInput& in) {
  for (const auto& c : in.columns) {
    sql << ", " << c.name << " = ";
    sql.bind(c.value, c.cast);
  }
}

Response create(App& app, Request& req) {
  const Context& ctx = allowed(app, req, true);
  auto in = sched::parse_reserva(req.body, true);
  std::string answer;
  with_claim_retry([&](bool& claiming) {
    ctx.db->run([&](soci::session& s) {
      store::in_transaction(s, [&] {
        auto agenda = sched::require_agenda(s, ctx.tenant);
        sched::use_time_zone(s, agenda.fuso_horario);
        check_references(s, in);
        auto nova = proposed(agenda, in, nullptr);
        auto cap = check(s, agenda, nova, std::nullopt);
        store::Sql sql("insert into agendamento.reserva (vistoriador, inicio, fim, criado_por");
        for (const auto& c : in.columns) sql << ", " << c.name;
        sql << ") values (";
        sql.bind(cap.vistoriador) << ", to_timestamp(";
        sched::bind_instant(sql, nova.intervalo.inicio) << "), to_timestamp(";
        sched::bind_instant(sql, nova.intervalo.fim) << "), ";
        sql.bind(ctx.user.email);
        for (const auto& c : in.columns) {
          sql << ", ";
          sql.bind(c.value, c.cast);
        }
        sql << ") returning id::text";
        std::string id = store::fetch_value(s, sql).value();
        claiming = true;
        sched::claim_place(s, id, agenda, cap);
        claiming = false;
        answer = sched::reservation_json(s, id).value();
        store::record_audit(s, kTable, id, store::Operation::insert, ctx.user, std::nullopt,
                            answer);
      });
    });
  });
  return Response::json(std::move(answer), 201);
}

struct Stored {
  sch::Reservation reservation;
  std::string json;
};

// The stored reservation, locked for the rest of the transaction; 404 when missing.
Stored lock_reservation(soci::session& s, const std::string& id) {
  store::Sql sql(
      "select r.vistoriador, extract(epoch from r.inicio)::bigint::text, extract(epoch from "
      "r.fim)::bigint::text, "
      "r.status, " +
      sched::reservation_json_expr() + "::text from agendamento.reserva r where r.id = ");
  sql.bind(id, "bigint") << " for update";
  auto rows = store::fetch(s, sql);
  if (rows.empty()) throw Error(errc::not_found, not_found_text(id), "id");
  const auto& row = rows[0];
  Stored out;
  out.reservation.vistoriador = row[0];
  out.reservation.intervalo.inicio = sys_seconds(std::chrono::seconds(std::stoll(row[1].value())));
  out.reservation.intervalo.fim = sys_seconds(std::chrono::seconds(std::stoll(row[2].value())));
  out.reservation.status = sch::parse_status(row[3].value());
  out.json = row[4].value();
  return out;
}

Response update(App& app, Request& req) {
  const Context& ctx = allowed(app, req, true);
  std::string id = path_id(req);
  auto in = sched::parse_reserva(req.body, false);
  std::string answer;
  with_claim_retry([&](bool& claiming) {
    ctx.db->run([&](soci::session& s) {
      store::in_transaction(s, [&] {
        auto agenda = prepare(s, ctx);
        Stored old = lock_reservation(s, id);
        check_references(s, in);
        const auto& base = old.reservation;
        bool moving =
            in.inicio || in.fim || (in.has_vistoriador && in.vistoriador != base.vistoriador);
        store::Sql sql("update agendamento.reserva r set atualizado_em = now()");
        set_columns(sql, in);
        std::optional<sch::CapacityCheck> cap;
        if (moving) {
          if (base.status != sch::Status::agendado)
            throw Error(errc::conflict,
                        "só reservas no estado agendado podem ser remarcadas (estado atual: " +
                            std::string(sch::to_string(base.status)) + ")",
                        "status");
          if (!agenda) agenda = sched::require_agenda(s, ctx.tenant);
          auto nova = proposed(*agenda, in, &base);
          cap = check(s, *agenda, nova, id);
          sql << ", vistoriador = ";
          sql.bind(cap->vistoriador) << ", inicio = to_timestamp(";
          sched::bind_instant(sql, nova.intervalo.inicio) << "), fim = to_timestamp(";
          sched::bind_instant(sql, nova.intervalo.fim) << ")";
          store::Sql release("delete from agendamento.vaga where reserva_id = ");
          release.bind(id, "bigint");
          store::execute(s, release);
        }
        sql << " where r.id = ";
        sql.bind(id, "bigint");
        store::execute(s, sql);
        if (cap) {
          claiming = true;
          sched::claim_place(s, id, *agenda, *cap);
          claiming = false;
        }
        answer = sched::reservation_json(s, id).value();
        store::record_audit(s, kTable, id, store::Operation::update, ctx.user, old.json, answer);
      });
    });
  });
  return Response::json(std::move(answer));
}

Response remove(App& app, Request& req) {
  const Context& ctx = allowed(app, req, true);
  std::string id = path_id(req);
  std::string before;
  ctx.db->run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      prepare(s, ctx);
      store::Sql sql("delete from agendamento.reserva r where r.id = ");
      sql.bind(id, "bigint") << " returning " << sched::reservation_json_expr() << "::text";
      auto row = store::fetch_value(s, sql);
      if (!row) throw Error(errc::not_found, not_found_text(id), "id");
      before = *row;
      store::record_audit(s, kTable, id, store::Operation::remove, ctx.user, before, std::nullopt);
    });
  });
  JsonWriter w;
  w.begin_object().key("mensagem").value("reserva " + id + " excluída; o horário foi liberado");
  w.key("reserva").raw(before).end_object();
  return Response::json(std::move(w).str());
}

Response advance(App& app, Request& req) {
  const Context& ctx = allowed(app, req, true);
  std::string id = path_id(req);
  std::string answer;
  ctx.db->run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      prepare(s, ctx);
      Stored old =
          lock_reservation(s, id);  // FOR UPDATE: concurrent advances run one after the other
      sch::Status next = sch::next_status(old.reservation.status);
      store::Sql sql("update agendamento.reserva set atualizado_em = now(), status = ");
      sql.bind(std::string(sch::to_string(next))) << " where id = ";
      sql.bind(id, "bigint");
      store::execute(s, sql);
      answer = sched::reservation_json(s, id).value();
      store::record_audit(s, kTable, id, store::Operation::update, ctx.user, old.json, answer);
    });
  });
  return Response::json(std::move(answer));
}

}  // namespace

const Context& sched::allowed(App& app, const Request& req, bool write) {
  const Context& ctx = context(req);
  if (!store::layer_allowed(app.identity().permissions(ctx.user.user_id), kLayer, write,
                            ctx.user.admin))
    throw Error(errc::forbidden, std::string("sem permissão de ") +
                                     (write ? "escrita" : "leitura") +
                                     " no agendamento (camada 'agendamento')");
  return ctx;
}

std::optional<sch::Agenda> sched::prepare(soci::session& s, const Context& ctx) {
  auto agenda = sched::load_agenda(s, ctx.tenant);
  std::string zone =
      agenda ? agenda->fuso_horario
             : (ctx.tenant.fuso_horario.empty() ? std::string(sch::Agenda::default_time_zone)
                                                : ctx.tenant.fuso_horario);
  sched::use_time_zone(s, zone);
  return agenda;
}

void add_scheduling_routes(App& app) {
  auto& srv = app.server();
  const std::string tag = "Agendamento";
  const std::string read =
      " Requer leitura na camada 'agendamento' (regra 'agendamento' ou a padrão '*').";
  const std::string write =
      " Requer escrita na camada 'agendamento'; grava auditoria (agendamento.reserva).";
  const std::string body =
      "{\"inicio\": RFC 3339, \"fim\"?: RFC 3339 (padrão: início + duração do horário), "
      "\"vistoriador\"?: \"...\", "
      "\"imobiliario_id\"?: int, \"lote_id\"?: int, \"protocolo\"?: \"...\", "
      "\"solicitante\": {\"nome\": \"...\", \"contato\"?: \"...\"}, \"observacao\"?: \"...\"}";
  auto h = [&app](Response (*fn)(App&, Request&)) {
    return [&app, fn](Request& r) { return fn(app, r); };
  };
  srv.add({.method = "GET",
           .pattern = "/agendamento/{municipio}/reservas",
           .auth = "bearer",
           .tag = tag,
           .summary = "Lista as reservas por início: {total, pagina, limite, reservas}; filtros "
                      "status, vistoriador e período "
                      "de/ate (datas locais, pelo início)." +
                      read,
           .params = paging_params(
               {{"status",
                 "query",
                 "string",
                 false,
                 "situação da reserva",
                 {"agendado", "em_progresso", "concluido"}},
                {"vistoriador", "query", "string", false, "id do vistoriador"},
                {"de", "query", "string", false, "data local inicial YYYY-MM-DD (inclusive)"},
                {"ate", "query", "string", false, "data local final YYYY-MM-DD (inclusive)"}}),
           .handler = h(&sched::list)});
  srv.add({.method = "POST",
           .pattern = "/agendamento/{municipio}/reservas",
           .auth = "bearer",
           .tag = tag,
           .summary = "Cria uma reserva no estado agendado dentro de um horário da agenda. Fora do "
                      "expediente, feriado ou "
                      "horário passado → 400; horário ou vistoriador lotado → 409; sem agenda → "
                      "404. Responde 201." +
                      write,
           .body = {.description = body},
           .handler = h(&create)});
  srv.add({.method = "PUT",
           .pattern = "/agendamento/{municipio}/reservas/{id}",
           .auth = "bearer",
           .tag = tag,
           .summary = "Altera a reserva {id}: dados do solicitante, imóvel, protocolo, observação; "
                      "remarcação (inicio, fim, "
                      "vistoriador) só no estado agendado, com as mesmas verificações da criação. "
                      "Inexistente → 404." +
                      write,
           .body = {.description = "campos a alterar (formato da criação; status não é aceito)"},
           .handler = h(&update)});
  srv.add(
      {.method = "DELETE",
       .pattern = "/agendamento/{municipio}/reservas/{id}",
       .auth = "bearer",
       .tag = tag,
       .summary = "Exclui (cancela) a reserva {id} e libera o horário. Inexistente → 404." + write,
       .handler = h(&remove)});
  srv.add({.method = "PUT",
           .pattern = "/agendamento/{municipio}/avanca-status/{id}",
           .auth = "bearer",
           .tag = tag,
           .summary = "Avança o status: agendado → em_progresso → concluido. De concluido → 409 "
                      "transicao_invalida com o estado "
                      "atual. Inexistente → 404." +
                      write,
           .handler = h(&advance)});
  srv.add({.method = "GET",
           .pattern = "/agendamento/{municipio}/horarios-disponiveis",
           .auth = "bearer",
           .tag = tag,
           .summary = "Horários livres da agenda entre de e ate (datas locais, no máximo 92 dias): "
                      "{fuso_horario, de, ate, "
                      "horarios: [{data, inicio, fim, capacidade, ocupadas, livres, "
                      "vistoriadores_livres}]}; sem feriados, "
                      "horários lotados ou passados. Sem agenda → 404." +
                      read,
           .params = {{"de", "query", "string", true, "data local inicial YYYY-MM-DD"},
                      {"ate", "query", "string", true, "data local final YYYY-MM-DD"}},
           .handler = h(&sched::free_slots)});
  srv.add(
      {.method = "GET",
       .pattern = "/agendamento/{municipio}/agenda",
       .auth = "bearer",
       .tag = tag,
       .summary = "A agenda semanal do município: {agenda, fuso_horario}. Sem agenda → 404." + read,
       .handler = h(&sched::agenda_get)});
  srv.add({.method = "PUT",
           .pattern = "/agendamento/{municipio}/agenda",
           .auth = "bearer",
           .tag = tag,
           .summary = "Define a agenda semanal (expediente, duração do horário, capacidade, "
                      "vistoriadores, feriados); sem "
                      "fuso_horario vale o do município. Requer administrador ou escrita na camada "
                      "'agenda'; grava auditoria "
                      "(agendamento.agenda).",
           .body = {.description = "{\"duracao_slot_minutos\": 60, \"capacidade_por_slot\"?: 1, "
                                   "\"vistoriadores\"?: [...], \"feriados\"?: "
                                   "[\"YYYY-MM-DD\"], \"fuso_horario\"?: \"America/Sao_Paulo\", "
                                   "\"semana\": {\"segunda\": [{\"inicio\": "
                                   "\"08:00\", \"fim\": \"12:00\"}], ...}}"},
           .handler = h(&sched::agenda_put)});
}

}  // namespace cadastre::server
