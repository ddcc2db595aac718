// Scheduling of inspections (/agendamento/{municipio}/...): reservations with filters and
// paging, create / edit / delete, the status machine (avanca-status) and the free time
// slots of the tenant's agenda. The rules live in cadastre/schedule.hpp, the SQL in
// store.cpp; the handlers parse, call and render.
//
// Access: reservations, slots and reading the agenda are governed as the layer
// "agendamento" (reads need read, writes need write); defining the agenda needs write on
// the layer "agenda" (administrators may do anything).
#include "cadastre/json.hpp"
#include "cadastre/schedule.hpp"
#include "server/app.hpp"
#include "server/scheduling/input.hpp"
#include "server/scheduling/store.hpp"
#include "service/geojson.hpp"
#include "service/paging.hpp"

namespace cadastre::server {
namespace {

using http::Request;
using http::Response;
using service::Scope;
namespace sch = cadastre::schedule;

std::string agenda_answer(const sched::StoredAgenda& a) {
  JsonWriter w;
  w.begin_object().key("agenda").raw(a.json).key("fuso_horario").value(a.agenda.fuso_horario);
  w.key("capacidade_total").value(a.agenda.capacidade_total()).end_object();
  return std::move(w).str();
}

Response list(const Scope& s, Request& req) {
  auto filter = sched::parse_list(req);
  auto page = sched::list_reservations(*s.db, s.tenant, filter);
  return Response::json(service::page_envelope(page, filter.paging, "reservas"));
}

Response create(const Scope& s, Request& req) {
  auto in = sched::parse_reserva(req.body, true);
  return Response::json(sched::create_reservation(*s.db, s.tenant, s.user, in), 201);
}

Response update(const Scope& s, Request& req) {
  std::string id = sched::parse_reservation_id(req);
  auto in = sched::parse_reserva(req.body, false);
  return Response::json(sched::update_reservation(*s.db, s.tenant, s.user, id, in));
}

Response remove(const Scope& s, Request& req) {
  std::string id = sched::parse_reservation_id(req);
  std::string before = sched::delete_reservation(*s.db, s.tenant, s.user, id);
  JsonWriter w;
  w.begin_object().key("mensagem").value("reserva " + id + " excluída; o horário foi liberado");
  w.key("reserva").raw(before).end_object();
  return Response::json(std::move(w).str());
}

Response advance(const Scope& s, Request& req) {
  std::string id = sched::parse_reservation_id(req);
  return Response::json(sched::advance_reservation(*s.db, s.tenant, s.user, id));
}

Response free_slots(const Scope& s, Request& req) {
  auto range = sched::parse_date_range(req);
  auto in = sched::slot_inputs(*s.db, s.tenant, range);
  auto now = std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
  auto slots = sch::free_slots(in.agenda, in.reservations, range.first, range.last, now);
  JsonWriter w;
  w.begin_object().key("fuso_horario").value(in.agenda.fuso_horario).key("de").value(range.de);
  w.key("ate").value(range.ate).key("horarios").raw(sch::to_json(slots)).end_object();
  return Response::json(std::move(w).str());
}

Response agenda_get(const Scope& s, Request&) {
  return Response::json(agenda_answer(sched::read_agenda(*s.db, s.tenant)));
}

Response agenda_put(const Scope& s, Request& req) {
  auto agenda = sched::parse_agenda(req.body, s.tenant);
  return Response::json(
      agenda_answer(sched::save_agenda(*s.db, s.user, req.body, std::move(agenda))));
}

}  // namespace

void add_scheduling_routes(App& app) {
  auto& srv = app.server();
  const std::string tag = "Agendamento";
  const std::string audited = " Grava auditoria (agendamento.reserva).";
  const std::string body =
      "{\"inicio\": RFC 3339, \"fim\"?: RFC 3339 (padrão: início + duração do horário), "
      "\"vistoriador\"?: \"...\", "
      "\"imobiliario_id\"?: int, \"lote_id\"?: int, \"protocolo\"?: \"...\", "
      "\"solicitante\": {\"nome\": \"...\", \"contato\"?: \"...\"}, \"observacao\"?: \"...\"}";
  srv.add({.method = "GET",
           .pattern = "/agendamento/{municipio}/reservas",
           .auth = "bearer",
           .access = http::reads("agendamento"),
           .tag = tag,
           .summary = "Lista as reservas por início: {total, pagina, limite, reservas}; filtros "
                      "status, vistoriador "
                      "e período de/ate (datas locais, pelo início).",
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
           .handler = service::scoped(&list)});
  srv.add({.method = "POST",
           .pattern = "/agendamento/{municipio}/reservas",
           .auth = "bearer",
           .access = http::writes("agendamento"),
           .tag = tag,
           .summary = "Cria uma reserva no estado agendado dentro de um horário da agenda. Fora do "
                      "expediente, "
                      "feriado ou horário passado → 400; horário ou vistoriador lotado → 409; sem "
                      "agenda → 404. "
                      "Responde 201." +
                      audited,
           .body = {.description = body},
           .handler = service::scoped(&create)});
  srv.add(
      {.method = "PUT",
       .pattern = "/agendamento/{municipio}/reservas/{id}",
       .auth = "bearer",
       .access = http::writes("agendamento"),
       .tag = tag,
       .summary =
           "Altera a reserva {id}: dados do solicitante, imóvel, protocolo, observação; remarcação "
           "(inicio, fim, vistoriador) só no estado agendado, com as mesmas verificações da "
           "criação. "
           "Inexistente → 404." +
           audited,
       .body = {.description = "campos a alterar (formato da criação; status não é aceito)"},
       .handler = service::scoped(&update)});
  srv.add({.method = "DELETE",
           .pattern = "/agendamento/{municipio}/reservas/{id}",
           .auth = "bearer",
           .access = http::writes("agendamento"),
           .tag = tag,
           .summary =
               "Exclui (cancela) a reserva {id} e libera o horário. Inexistente → 404." + audited,
           .handler = service::scoped(&remove)});
  srv.add({.method = "PUT",
           .pattern = "/agendamento/{municipio}/avanca-status/{id}",
           .auth = "bearer",
           .access = http::writes("agendamento"),
           .tag = tag,
           .summary = "Avança o status: agendado → em_progresso → concluido. De concluido → 409 "
                      "transicao_invalida "
                      "com o estado atual. Inexistente → 404." +
                      audited,
           .handler = service::scoped(&advance)});
  srv.add(
      {.method = "GET",
       .pattern = "/agendamento/{municipio}/horarios-disponiveis",
       .auth = "bearer",
       .access = http::reads("agendamento"),
       .tag = tag,
       .summary =
           "Horários livres da agenda entre de e ate (datas locais, no máximo 92 dias): "
           "{fuso_horario, "
           "de, ate, horarios: [{data, inicio, fim, capacidade, ocupadas, livres, "
           "vistoriadores_livres}]}; sem feriados, horários lotados ou passados. Sem agenda → 404.",
       .params = {{"de", "query", "string", true, "data local inicial YYYY-MM-DD"},
                  {"ate", "query", "string", true, "data local final YYYY-MM-DD"}},
       .handler = service::scoped(&free_slots)});
  srv.add({.method = "GET",
           .pattern = "/agendamento/{municipio}/agenda",
           .auth = "bearer",
           .access = http::reads("agendamento"),
           .tag = tag,
           .summary = "A agenda semanal do município: {agenda, fuso_horario, capacidade_total}. "
                      "Sem agenda → 404.",
           .handler = service::scoped(&agenda_get)});
  srv.add(
      {.method = "PUT",
       .pattern = "/agendamento/{municipio}/agenda",
       .auth = "bearer",
       .access = http::writes("agenda"),
       .tag = tag,
       .summary =
           "Define a agenda semanal (expediente, duração do horário, capacidade, vistoriadores, "
           "feriados); sem fuso_horario vale o do município. Grava auditoria (agendamento.agenda).",
       .body = {.description =
                    "{\"duracao_slot_minutos\": 60, \"capacidade_por_slot\"?: 1, "
                    "\"vistoriadores\"?: [...], \"feriados\"?: [\"YYYY-MM-DD\"], "
                    "\"fuso_horario\"?: \"America/Sao_Paulo\", \"semana\": {\"segunda\": "
                    "[{\"inicio\": \"08:00\", \"fim\": \"12:00\"}], ...}}"},
       .handler = service::scoped(&agenda_put)});
}

}  // namespace cadastre::server
