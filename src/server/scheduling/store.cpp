#include "server/scheduling/store.hpp"

#include <soci/soci.h>

#include <functional>

#include "store/audit.hpp"
#include "store/records.hpp"

namespace cadastre::server::sched {
namespace {

using std::chrono::sys_seconds;
namespace sch = cadastre::schedule;

constexpr const char* kTable = "agendamento.reserva";

sys_seconds now() {
  return std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
}

store::Sql& bind_instant(store::Sql& sql, sys_seconds t) {
  return sql.bind(std::to_string(t.time_since_epoch().count()), "bigint") << "::double precision";
}

// to_timestamp(epoch seconds): exact and independent of the session time zone.
void instant(store::Sql& sql, sys_seconds t) {
  sql << "to_timestamp(";
  bind_instant(sql, t) << ")";
}

sys_seconds epoch(const store::Value& v) {
  return sys_seconds(std::chrono::seconds(std::stoll(v.value())));
}

std::string not_found_text(const std::string& id) { return "reserva " + id + " não encontrada"; }

// The reservation JSON object for the row alias `r`.
std::string reservation_json_expr() {
  return "json_build_object('id', r.id, 'status', r.status, 'vistoriador', r.vistoriador, "
         "'inicio', r.inicio, "
         "'fim', r.fim, 'imobiliario_id', r.imobiliario_id, 'lote_id', r.lote_id, 'protocolo', "
         "r.protocolo, "
         "'solicitante', json_build_object('nome', r.solicitante_nome, 'contato', "
         "r.solicitante_contato), "
         "'observacao', r.observacao, 'criado_em', r.criado_em, 'atualizado_em', r.atualizado_em, "
         "'criado_por', r.criado_por)";
}

std::optional<std::string> reservation_json(soci::session& s, const std::string& id) {
  store::Sql sql("select " + reservation_json_expr() +
                 "::text from agendamento.reserva r where r.id = ");
  sql.bind(id, "bigint");
  return store::fetch_value(s, sql);
}

// Reservations overlapping `window`, leaving out reservation `except_id` if given.
std::vector<sch::Reservation> load_reservations(
    soci::session& s, sch::Interval window,
    const std::optional<std::string>& except_id = std::nullopt) {
  store::Sql sql(
      "select vistoriador, extract(epoch from inicio)::bigint::text, extract(epoch from "
      "fim)::bigint::text, status "
      "from agendamento.reserva where inicio < ");
  instant(sql, window.fim);
  sql << " and fim > ";
  instant(sql, window.inicio);
  if (except_id) {
    sql << " and id <> ";
    sql.bind(*except_id, "bigint");
  }
  std::vector<sch::Reservation> out;
  for (const auto& row : store::fetch(s, sql)) {
    sch::Reservation r;
    r.vistoriador = row.at(0);
    r.intervalo = {epoch(row.at(1)), epoch(row.at(2))};
    r.status = sch::parse_status(row.at(3).value());
    out.push_back(std::move(r));
  }
  return out;
}

// The tenant's agenda, if any; sets the transaction's time zone (the agenda's, else the
// tenant's) so timestamps render in local time.
std::optional<sch::Agenda> prepare(soci::session& s, const store::Tenant& tenant) {
  auto agenda = load_agenda(s, tenant);
  std::string zone =
      agenda ? agenda->fuso_horario
             : (tenant.fuso_horario.empty() ? std::string(sch::Agenda::default_time_zone)
                                            : tenant.fuso_horario);
  use_time_zone(s, zone);
  return agenda;
}

// The lowest place index in 1..capacity not yet claimed in the slot (by anyone, or by
// `vistoriador` when given); NULL when all are taken.
void lowest_free(store::Sql& sql, int capacity, sys_seconds slot,
                 const std::optional<std::string>& vistoriador) {
  sql << "(select min(g) from generate_series(1, ";
  sql.bind(std::to_string(capacity), "integer");
  sql << ") g where not exists (select 1 from agendamento.vaga v where v.slot_inicio = ";
  instant(sql, slot);
  if (vistoriador) {
    sql << " and v.vistoriador = ";
    sql.bind(*vistoriador);
    sql << " and v.indice_vistoriador = g))";
  } else {
    sql << " and v.indice = g))";
  }
}

// Claims a place for reservation `id` in the slot chosen by check_capacity (and a place of
// its inspector, if any). A place taken meanwhile → Error(conflict).
void claim_place(soci::session& s, const std::string& id, const sch::Agenda& agenda,
                 const sch::CapacityCheck& check) {
  const sys_seconds slot = check.slot.intervalo.inicio;
  store::Sql free("select ");
  lowest_free(free, agenda.capacidade_total(), slot, std::nullopt);
  free << "::text, ";
  if (check.vistoriador)
    lowest_free(free, agenda.capacidade_por_slot, slot, check.vistoriador);
  else
    free << "null";
  free << "::text";
  auto row = store::fetch(s, free).at(0);
  const std::string when = check.slot.inicio;
  if (!row.at(0) || (check.vistoriador && !row.at(1)))
    throw Error(errc::conflict, "o horário de " + when + " está lotado", "inicio");
  store::Sql insert(
      "insert into agendamento.vaga (reserva_id, slot_inicio, indice, vistoriador, "
      "indice_vistoriador) values (");
  insert.bind(id, "bigint") << ", ";
  instant(insert, slot);
  insert << ", ";
  insert.bind(row[0], "integer") << ", ";
  insert.bind(check.vistoriador) << ", ";
  insert.bind(row[1], "integer") << ")";
  store::execute(s, insert);
}

void release_place(soci::session& s, const std::string& id) {
  store::Sql release("delete from agendamento.vaga where reserva_id = ");
  release.bind(id, "bigint");
  store::execute(s, release);
}

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

void check_references(soci::session& s, const ReservaInput& in) {
  for (const auto& c : in.columns)
    if (c.value) store::check_cadastre_reference(s, c.name, *c.value);
}

sch::CapacityCheck check(soci::session& s, const sch::Agenda& agenda, const sch::Reservation& nova,
                         const std::optional<std::string>& except_id) {
  auto existing = load_reservations(s, sch::capacity_window(nova.intervalo), except_id);
  return sch::check_capacity(agenda, existing, nova, now());
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
      reservation_json_expr() + "::text from agendamento.reserva r where r.id = ");
  sql.bind(id, "bigint") << " for update";
  auto rows = store::fetch(s, sql);
  if (rows.empty()) throw Error(errc::not_found, not_found_text(id), "id");
  const auto& row = rows[0];
  Stored out;
  out.reservation.vistoriador = row[0];
  out.reservation.intervalo = {epoch(row[1]), epoch(row[2])};
  out.reservation.status = sch::parse_status(row[3].value());
  out.json = row[4].value();
  return out;
}

void append_where(store::Sql& sql, const ListFilter& f) {
  sql << " where true";
  if (f.status) (sql << " and r.status = ").bind(f.status);
  if (f.vistoriador) (sql << " and r.vistoriador = ").bind(f.vistoriador);
  // Local dates of the transaction's time zone (set by prepare).
  if (f.de) (sql << " and r.inicio >= ").bind(f.de, "date") << "::timestamp::timestamptz";
  if (f.ate) (sql << " and r.inicio < (").bind(f.ate, "date") << " + 1)::timestamp::timestamptz";
}

}  // namespace

std::optional<sch::Agenda> load_agenda(soci::session& s, const store::Tenant& tenant) {
  auto json = store::fetch_value(
      s, store::Sql("select configuracao::text from agendamento.agenda where id = 1"));
  if (!json) return std::nullopt;
  return parse_agenda(*json, tenant);
}

sch::Agenda require_agenda(soci::session& s, const store::Tenant& tenant) {
  auto agenda = load_agenda(s, tenant);
  if (!agenda)
    throw Error(errc::not_found,
                "o município " + tenant.slug + " ainda não tem agenda de vistorias configurada",
                "agenda");
  return *agenda;
}

void use_time_zone(soci::session& s, const std::string& time_zone) {
  store::Sql sql("select set_config('TimeZone', ");
  sql.bind(time_zone) << ", true)";
  store::fetch(s, sql);
}

store::PageRows list_reservations(store::Pool& db, const store::Tenant& tenant,
                                  const ListFilter& f) {
  store::Sql sql("select (select count(*) from agendamento.reserva r");
  append_where(sql, f);
  sql << ")::text, (select coalesce(json_agg(t.j order by t.inicio, t.id), '[]') from (select "
         "r.id, r.inicio, "
      << reservation_json_expr() << " as j from agendamento.reserva r";
  append_where(sql, f);
  sql << " order by r.inicio, r.id";
  store::append_page(sql, f.paging);
  sql << ") t)::text";
  store::PageRows page;
  db.run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      prepare(s, tenant);
      page = store::fetch_page(s, sql);
    });
  });
  return page;
}

std::string create_reservation(store::Pool& db, const store::Tenant& tenant,
                               const store::Principal& user, const ReservaInput& in) {
  std::string answer;
  with_claim_retry([&](bool& claiming) {
    db.run([&](soci::session& s) {
      store::in_transaction(s, [&] {
        auto agenda = require_agenda(s, tenant);
        use_time_zone(s, agenda.fuso_horario);
        check_references(s, in);
        auto nova = sch::propose(agenda, in.change);
        auto cap = check(s, agenda, nova, std::nullopt);
        store::Sql sql("insert into agendamento.reserva (vistoriador, inicio, fim, criado_por");
        for (const auto& c : in.columns) sql << ", " << c.name;
        sql << ") values (";
        sql.bind(cap.vistoriador) << ", ";
        instant(sql, nova.intervalo.inicio);
        sql << ", ";
        instant(sql, nova.intervalo.fim);
        sql << ", ";
        sql.bind(user.email);
        for (const auto& c : in.columns) (sql << ", ").bind(c.value, c.cast);
        sql << ") returning id::text";
        std::string id = store::fetch_value(s, sql).value();
        claiming = true;
        claim_place(s, id, agenda, cap);
        claiming = false;
        answer = reservation_json(s, id).value();
        store::record_audit(s, kTable, id, store::Operation::insert, user, std::nullopt, answer);
      });
    });
  });
  return answer;
}

std::string update_reservation(store::Pool& db, const store::Tenant& tenant,
                               const store::Principal& user, const std::string& id,
                               const ReservaInput& in) {
  std::string answer;
  with_claim_retry([&](bool& claiming) {
    db.run([&](soci::session& s) {
      store::in_transaction(s, [&] {
        auto agenda = prepare(s, tenant);
        Stored old = lock_reservation(s, id);
        check_references(s, in);
        store::Sql sql("update agendamento.reserva r set atualizado_em = now()");
        for (const auto& c : in.columns) (sql << ", " << c.name << " = ").bind(c.value, c.cast);
        std::optional<sch::CapacityCheck> cap;
        if (sch::moves(old.reservation, in.change)) {
          sch::check_reschedule(old.reservation.status);
          if (!agenda) agenda = require_agenda(s, tenant);
          auto nova = sch::propose(*agenda, in.change, old.reservation);
          cap = check(s, *agenda, nova, id);
          sql << ", vistoriador = ";
          sql.bind(cap->vistoriador) << ", inicio = ";
          instant(sql, nova.intervalo.inicio);
          sql << ", fim = ";
          instant(sql, nova.intervalo.fim);
          release_place(s, id);
        }
        sql << " where r.id = ";
        sql.bind(id, "bigint");
        store::execute(s, sql);
        if (cap) {
          claiming = true;
          claim_place(s, id, *agenda, *cap);
          claiming = false;
        }
        answer = reservation_json(s, id).value();
        store::record_audit(s, kTable, id, store::Operation::update, user, old.json, answer);
      });
    });
  });
  return answer;
}

std::string delete_reservation(store::Pool& db, const store::Tenant& tenant,
                               const store::Principal& user, const std::string& id) {
  std::string before;
  db.run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      prepare(s, tenant);
      store::Sql sql("delete from agendamento.reserva r where r.id = ");
      sql.bind(id, "bigint") << " returning " << reservation_json_expr() << "::text";
      auto row = store::fetch_value(s, sql);
      if (!row) throw Error(errc::not_found, not_found_text(id), "id");
      before = *row;
      store::record_audit(s, kTable, id, store::Operation::remove, user, before, std::nullopt);
    });
  });
  return before;
}

std::string advance_reservation(store::Pool& db, const store::Tenant& tenant,
                                const store::Principal& user, const std::string& id) {
  std::string answer;
  db.run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      prepare(s, tenant);
      Stored old =
          lock_reservation(s, id);  // FOR UPDATE: concurrent advances run one after the other
      sch::Status next = sch::next_status(old.reservation.status);
      store::Sql sql("update agendamento.reserva set atualizado_em = now(), status = ");
      sql.bind(std::string(sch::to_string(next))) << " where id = ";
      sql.bind(id, "bigint");
      store::execute(s, sql);
      answer = reservation_json(s, id).value();
      store::record_audit(s, kTable, id, store::Operation::update, user, old.json, answer);
    });
  });
  return answer;
}

SlotInputs slot_inputs(store::Pool& db, const store::Tenant& tenant, const DateRange& range) {
  std::optional<SlotInputs> out;
  db.run([&](soci::session& s) {
    auto agenda = require_agenda(s, tenant);
    out = SlotInputs{std::move(agenda),
                     load_reservations(s, sch::slots_window(range.first, range.last))};
  });
  return std::move(*out);
}

StoredAgenda read_agenda(store::Pool& db, const store::Tenant& tenant) {
  auto stored = db.with([&](soci::session& s) {
    return store::fetch_value(
        s, store::Sql("select configuracao::text from agendamento.agenda where id = 1"));
  });
  if (!stored)
    throw Error(errc::not_found,
                "o município " + tenant.slug + " ainda não tem agenda configurada");
  auto agenda = parse_agenda(*stored, tenant);
  return {std::move(*stored), std::move(agenda)};
}

StoredAgenda save_agenda(store::Pool& db, const store::Principal& user, std::string_view body,
                         schedule::Agenda agenda) {
  std::string stored;
  db.run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      auto before = store::fetch_value(
          s,
          store::Sql("select configuracao::text from agendamento.agenda where id = 1 for update"));
      store::Sql sql(
          "insert into agendamento.agenda (id, configuracao, atualizado_por) values (1, ");
      sql.bind(std::string(body), "jsonb") << ", ";
      sql.bind(user.email)
          << ") on conflict (id) do update set configuracao = excluded.configuracao, "
             "atualizado_em = now(), atualizado_por = excluded.atualizado_por "
             "returning configuracao::text";
      stored = store::fetch_value(s, sql).value();
      store::record_audit(s, "agendamento.agenda", "1",
                          before ? store::Operation::update : store::Operation::insert, user,
                          before, stored);
    });
  });
  return {std::move(stored), std::move(agenda)};
}

}  // namespace cadastre::server::sched
