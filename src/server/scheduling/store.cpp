#include "server/scheduling/store.hpp"

#include <simdjson.h>
#include <soci/soci.h>

#include "core/json_in.hpp"

namespace cadastre::server::sched {

using std::chrono::sys_seconds;

schedule::Agenda parse_agenda(std::string_view json, const store::Tenant& tenant) {
  schedule::Agenda agenda = schedule::Agenda::from_json(json);
  simdjson::dom::parser p;
  auto root = jsonin::as_object(jsonin::parse(p, json), "agenda");
  if (!jsonin::find(root, "fuso_horario") && !tenant.fuso_horario.empty()) {
    agenda.fuso_horario = tenant.fuso_horario;
    agenda.validate();
  }
  return agenda;
}

std::optional<schedule::Agenda> load_agenda(soci::session& s, const store::Tenant& tenant) {
  auto json = store::fetch_value(s, store::Sql("select configuracao::text from agendamento.agenda where id = 1"));
  if (!json) return std::nullopt;
  return parse_agenda(*json, tenant);
}

schedule::Agenda require_agenda(soci::session& s, const store::Tenant& tenant) {
  auto agenda = load_agenda(s, tenant);
  if (!agenda)
    throw Error(errc::not_found, "o município " + tenant.slug + " ainda não tem agenda de vistorias configurada",
                "agenda");
  return *agenda;
}

void use_time_zone(soci::session& s, const std::string& time_zone) {
  store::Sql sql("select set_config('TimeZone', ");
  sql.bind(time_zone) << ", true)";
  store::fetch(s, sql);
}

store::Sql& bind_instant(store::Sql& sql, sys_seconds t) {
  return sql.bind(std::to_string(t.time_since_epoch().count()), "bigint") << "::double precision";
}

namespace {
// to_timestamp(epoch seconds): exact and independent of the session time zone.
void instant(store::Sql& sql, sys_seconds t) {
  sql << "to_timestamp(";
  bind_instant(sql, t) << ")";
}
}  // namespace

std::vector<schedule::Reservation> load_reservations(soci::session& s, sys_seconds from, sys_seconds to,
                                                     const std::optional<std::string>& except_id) {
  store::Sql sql(
      "select vistoriador, extract(epoch from inicio)::bigint::text, extract(epoch from fim)::bigint::text, status "
      "from agendamento.reserva where inicio < ");
  instant(sql, to);
  sql << " and fim > ";
  instant(sql, from);
  if (except_id) {
    sql << " and id <> ";
    sql.bind(*except_id, "bigint");
  }
  std::vector<schedule::Reservation> out;
  for (const auto& row : store::fetch(s, sql)) {
    schedule::Reservation r;
    r.vistoriador = row.at(0);
    r.intervalo.inicio = sys_seconds(std::chrono::seconds(std::stoll(row.at(1).value())));
    r.intervalo.fim = sys_seconds(std::chrono::seconds(std::stoll(row.at(2).value())));
    r.status = schedule::parse_status(row.at(3).value());
    out.push_back(std::move(r));
  }
  return out;
}

std::string reservation_json_expr() {
  return "json_build_object('id', r.id, 'status', r.status, 'vistoriador', r.vistoriador, 'inicio', r.inicio, "
         "'fim', r.fim, 'imobiliario_id', r.imobiliario_id, 'lote_id', r.lote_id, 'protocolo', r.protocolo, "
         "'solicitante', json_build_object('nome', r.solicitante_nome, 'contato', r.solicitante_contato), "
         "'observacao', r.observacao, 'criado_em', r.criado_em, 'atualizado_em', r.atualizado_em, "
         "'criado_por', r.criado_por)";
}

std::optional<std::string> reservation_json(soci::session& s, const std::string& id) {
  store::Sql sql("select " + reservation_json_expr() + "::text from agendamento.reserva r where r.id = ");
  sql.bind(id, "bigint");
  return store::fetch_value(s, sql);
}

namespace {
// The lowest place index in 1..capacity not yet claimed in the slot (by anyone, or by
// `vistoriador` when given); NULL when all are taken.
void lowest_free(store::Sql& sql, int capacity, sys_seconds slot, const std::optional<std::string>& vistoriador) {
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
}  // namespace

void claim_place(soci::session& s, const std::string& id, const schedule::Agenda& agenda,
                 const schedule::CapacityCheck& check) {
  const sys_seconds slot = check.slot.intervalo.inicio;
  store::Sql free("select ");
  lowest_free(free, agenda.capacidade_total(), slot, std::nullopt);
  free << "::text, ";
  if (check.vistoriador) lowest_free(free, agenda.capacidade_por_slot, slot, check.vistoriador);
  else free << "null";
  free << "::text";
  auto row = store::fetch(s, free).at(0);
  const std::string when = check.slot.inicio;
  if (!row.at(0) || (check.vistoriador && !row.at(1)))
    throw Error(errc::conflict, "o horário de " + when + " está lotado", "inicio");
  store::Sql insert(
      "insert into agendamento.vaga (reserva_id, slot_inicio, indice, vistoriador, indice_vistoriador) values (");
  insert.bind(id, "bigint") << ", ";
  instant(insert, slot);
  insert << ", ";
  insert.bind(row[0], "integer") << ", ";
  insert.bind(check.vistoriador) << ", ";
  insert.bind(row[1], "integer") << ")";
  store::execute(s, insert);
}

}  // namespace cadastre::server::sched
