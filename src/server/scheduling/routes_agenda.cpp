// /agendamento reads (reservation list, free slots) and the tenant's agenda (GET/PUT).
#include <soci/soci.h>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "service/geojson.hpp"
#include "server/scheduling/store.hpp"
#include "server/scheduling/routes.hpp"
#include "store/audit.hpp"

namespace cadastre::server::sched {
namespace {

using http::Request;
using http::Response;
namespace sch = cadastre::schedule;

std::optional<std::string> date_param(const Request& req, const char* name, bool required) {
  auto v = req.query_value(name);
  if (!v || v->empty()) {
    if (required) throw Error(errc::missing_field, std::string("informe ?") + name + "=YYYY-MM-DD", name);
    return std::nullopt;
  }
  sch::parse_date(*v, name);
  return v;
}

struct ListFilter {
  std::optional<std::string> status, vistoriador, de, ate;
};

void append_where(store::Sql& sql, const ListFilter& f) {
  sql << " where true";
  if (f.status) {
    sql << " and r.status = ";
    sql.bind(f.status);
  }
  if (f.vistoriador) {
    sql << " and r.vistoriador = ";
    sql.bind(f.vistoriador);
  }
  // Local dates of the transaction's time zone (set by prepare).
  if (f.de) {
    sql << " and r.inicio >= ";
    sql.bind(f.de, "date") << "::timestamp::timestamptz";
  }
  if (f.ate) {
    sql << " and r.inicio < (";
    sql.bind(f.ate, "date") << " + 1)::timestamp::timestamptz";
  }
}

const Context& agenda_writer(App& app, const Request& req) {
  const Context& ctx = context(req);
  if (!store::layer_allowed(app.identity().permissions(ctx.user.user_id), "agenda", true, ctx.user.admin))
    throw Error(errc::forbidden, "só administradores ou quem tem escrita na camada 'agenda' podem alterar a agenda");
  return ctx;
}

std::string agenda_answer(const std::string& stored, const sch::Agenda& agenda) {
  JsonWriter w;
  w.begin_object().key("agenda").raw(stored).key("fuso_horario").value(agenda.fuso_horario);
  w.key("capacidade_total").value(agenda.capacidade_total()).end_object();
  return std::move(w).str();
}

}  // namespace

Response list(App& app, Request& req) {
  const Context& ctx = allowed(app, req, false);
  ListFilter f;
  f.status = req.query_value("status");
  f.vistoriador = req.query_value("vistoriador");
  f.de = date_param(req, "de", false);
  f.ate = date_param(req, "ate", false);
  auto paging = query::normalize_paging(query_params(req));
  store::Sql sql("select (select count(*) from agendamento.reserva r");
  append_where(sql, f);
  sql << ")::text, (select coalesce(json_agg(t.j order by t.inicio, t.id), '[]') from (select r.id, r.inicio, "
      << reservation_json_expr() << " as j from agendamento.reserva r";
  append_where(sql, f);
  sql << " order by r.inicio, r.id limit " << std::to_string(paging.size) << " offset " << std::to_string(paging.offset)
      << ") t)::text";
  store::Row row;
  ctx.db->run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      prepare(s, ctx);
      row = store::fetch(s, sql).at(0);
    });
  });
  JsonWriter w;
  w.begin_object().key("total").value(static_cast<std::int64_t>(std::stoll(row.at(0).value_or("0"))));
  w.key("pagina").value(paging.page).key("limite").value(paging.size);
  w.key("reservas").raw(row.at(1).value_or("[]")).end_object();
  return Response::json(std::move(w).str());
}

Response free_slots(App& app, Request& req) {
  const Context& ctx = allowed(app, req, false);
  std::string de = *date_param(req, "de", true), ate = *date_param(req, "ate", true);
  auto d1 = sch::parse_date(de, "de"), d2 = sch::parse_date(ate, "ate");
  std::optional<sch::Agenda> agenda;
  std::vector<sch::Reservation> reservations;
  ctx.db->run([&](soci::session& s) {
    agenda = require_agenda(s, ctx.tenant);
    // Local dates span at most ±14 h around UTC midnight: two days of margin cover every zone.
    auto from = std::chrono::sys_seconds(std::chrono::sys_days(d1) - std::chrono::days(2));
    auto to = std::chrono::sys_seconds(std::chrono::sys_days(d2) + std::chrono::days(3));
    reservations = load_reservations(s, from, to);
  });
  auto now = std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
  auto slots = sch::free_slots(*agenda, reservations, d1, d2, now);
  JsonWriter w;
  w.begin_object().key("fuso_horario").value(agenda->fuso_horario).key("de").value(de).key("ate").value(ate);
  w.key("horarios").raw(sch::to_json(slots)).end_object();
  return Response::json(std::move(w).str());
}

Response agenda_get(App& app, Request& req) {
  const Context& ctx = allowed(app, req, false);
  std::string answer;
  ctx.db->run([&](soci::session& s) {
    auto stored = store::fetch_value(s, store::Sql("select configuracao::text from agendamento.agenda where id = 1"));
    if (!stored) throw Error(errc::not_found, "o município " + ctx.tenant.slug + " ainda não tem agenda configurada");
    answer = agenda_answer(*stored, parse_agenda(*stored, ctx.tenant));
  });
  return Response::json(std::move(answer));
}

Response agenda_put(App& app, Request& req) {
  const Context& ctx = agenda_writer(app, req);
  auto agenda = parse_agenda(req.body, ctx.tenant);
  std::string answer;
  ctx.db->run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      auto before = store::fetch_value(
          s, store::Sql("select configuracao::text from agendamento.agenda where id = 1 for update"));
      store::Sql sql("insert into agendamento.agenda (id, configuracao, atualizado_por) values (1, ");
      sql.bind(req.body, "jsonb") << ", ";
      sql.bind(ctx.user.email)
          << ") on conflict (id) do update set configuracao = excluded.configuracao, atualizado_em = now(), "
             "atualizado_por = excluded.atualizado_por returning configuracao::text";
      auto stored = store::fetch_value(s, sql).value();
      store::record_audit(s, "agendamento.agenda", "1", before ? store::Operation::update : store::Operation::insert,
                          ctx.user, before, stored);
      answer = agenda_answer(stored, agenda);
    });
  });
  return Response::json(std::move(answer));
}

}  // namespace cadastre::server::sched
