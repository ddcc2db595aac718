#include "server/service_desk/store.hpp"

#include <soci/soci.h>

#include "cadastre/inspection.hpp"
#include "cadastre/schedule.hpp"
#include "server/scheduling/store.hpp"
#include "store/audit.hpp"
#include "store/crypto.hpp"

namespace cadastre::server::desk {
namespace {

constexpr const char* kTable = "atendimento.vistoria";
// FROM clause joining an inspection (v) to its reservation (r).
constexpr const char* kFrom =
    " from atendimento.vistoria v join agendamento.reserva r on r.id = v.agendamento_id";

// The inspection as the staff sees it (every column but token_hash, its reservation and
// the links of its photos), as text.
std::string vistoria_json_expr() {
  return "((to_jsonb(v) - 'token_hash') || jsonb_build_object("
         "'reserva', jsonb_build_object('id', r.id, 'inicio', r.inicio, 'fim', r.fim, 'status', "
         "r.status, "
         "'vistoriador', r.vistoriador, 'lote_id', r.lote_id, 'imobiliario_id', r.imobiliario_id, "
         "'protocolo', r.protocolo, 'solicitante_nome', r.solicitante_nome), "
         "'fotos_arquivos', (select coalesce(jsonb_agg(jsonb_build_object('id', a.id, 'nome', "
         "a.nome, 'link', "
         "'/midia/get?file_url=' || a.chave) order by a.id), '[]') from midia.arquivo a where a.id "
         "= any(v.fotos)), "
         "'fotos_cidadao_links', (select coalesce(jsonb_agg('/midia/get?file_url=' || u.k order by "
         "u.o), '[]') "
         "from unnest(v.fotos_cidadao) with ordinality u(k, o))))::text";
}

// The inspection as the citizen sees it, as text.
std::string public_json_expr() {
  return "jsonb_build_object('agendamento_id', v.agendamento_id, 'status', v.status, 'inicio', "
         "r.inicio, 'fim', "
         "r.fim, 'contato_cidadao', v.contato_cidadao, 'disponibilidade', v.disponibilidade, "
         "'observacoes_cidadao', v.observacoes_cidadao, 'fotos_cidadao', "
         "to_jsonb(v.fotos_cidadao), "
         "'fotos_cidadao_links', (select coalesce(jsonb_agg('/midia/get?file_url=' || u.k order by "
         "u.o), '[]') "
         "from unnest(v.fotos_cidadao) with ordinality u(k, o)), 'atualizado_em', "
         "v.atualizado_em)::text";
}

// Makes timestamps of this transaction render in the tenant's time zone.
void use_tenant_zone(soci::session& s, const store::Tenant& tenant) {
  sched::use_time_zone(s, tenant.fuso_horario.empty()
                              ? std::string(schedule::Agenda::default_time_zone)
                              : tenant.fuso_horario);
}

// With `shown_token`, the answer also carries the access token (shown once, at creation:
// only its hash is stored).
std::optional<std::string> vistoria_json(soci::session& s, const std::string& id,
                                         const std::string* shown_token = nullptr) {
  store::Sql sql("select ");
  if (shown_token) {
    (sql << "((" << vistoria_json_expr() << ")::jsonb || jsonb_build_object('token', ").bind(*shown_token, "text")
        << "))::text";
  } else {
    sql << vistoria_json_expr();
  }
  sql << kFrom << " where v.agendamento_id = ";
  sql.bind(id, "bigint");
  return store::fetch_value(s, sql);
}

[[noreturn]] void no_inspection(const std::string& id) {
  throw Error(errc::not_found, "a reserva " + id + " não tem vistoria", "agendamento_id");
}

[[noreturn]] void wrong_token() {
  throw Error(errc::unauthenticated, "token de acesso inválido para esta vistoria", "token");
}

// Local dates [de, ate] on a timestamp column (the transaction's time zone is the tenant's).
void date_range(store::Sql& sql, const char* column, const std::optional<std::string>& de,
                const std::optional<std::string>& ate) {
  if (de) (sql << " and " << column << " >= ").bind(de, "date") << "::timestamp::timestamptz";
  if (ate)
    (sql << " and " << column << " < (").bind(ate, "date") << " + 1)::timestamp::timestamptz";
}

store::PageRows page(store::Pool& db, const store::Tenant& tenant, const store::Sql& sql) {
  store::PageRows rows;
  db.run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      use_tenant_zone(s, tenant);
      rows = store::fetch_page(s, sql);
    });
  });
  return rows;
}

// The photos (media ids of this tenant) and the protocol an inspection refers to must exist.
void check_references(soci::session& s, const VistoriaInput& in) {
  if (in.protocolo_id) {
    store::Sql sql("select 1 from atendimento.protocolo where id = ");
    sql.bind(in.protocolo_id, "bigint");
    if (store::fetch(s, sql).empty())
      throw Error(errc::invalid_argument, "protocolo " + *in.protocolo_id + " não existe",
                  "protocolo_id");
  }
  if (in.fotos.empty()) return;
  std::string list = "{";
  for (const auto& id : in.fotos) list += (list.size() > 1 ? "," : "") + id;
  store::Sql sql("select string_agg(x::text, ', ' order by x) from unnest(");
  sql.bind(list + "}", "bigint[]")
      << ") x where not exists (select 1 from midia.arquivo a where a.id = x)";
  if (auto missing = store::fetch_value(s, sql))
    throw Error(errc::invalid_argument,
                "arquivos de mídia inexistentes neste município: " + *missing, "fotos");
}

void set_columns(store::Sql& sql, const std::vector<Assignment>& columns) {
  for (const auto& c : columns) (sql << ", " << c.column << " = ").bind(c.value, c.cast);
}

}  // namespace

store::PageRows list_protocols(store::Pool& db, const store::Tenant& tenant,
                               const ProtocolFilter& f) {
  auto where = [&](store::Sql& sql) {
    sql << " from atendimento.protocolo p where true";
    if (f.status) (sql << " and p.status = ").bind(f.status);
    if (f.ano) (sql << " and p.ano = ").bind(f.ano, "integer");
    if (f.numero) (sql << " and p.numero = ").bind(f.numero, "integer");
    // icontains without LIKE, so % and _ in the text are plain characters
    if (f.solicitante)
      (sql << " and strpos(lower(p.solicitante_nome), lower(").bind(f.solicitante) << ")) > 0";
    if (f.assunto) (sql << " and strpos(lower(p.assunto), lower(").bind(f.assunto) << ")) > 0";
    date_range(sql, "p.aberto_em", f.de, f.ate);
  };
  store::Sql sql("select (select count(*)");
  where(sql);
  sql << ")::text, (select coalesce(json_agg(t.j order by t.ano desc, t.numero desc), '[]') from "
         "(select p.ano, "
         "p.numero, to_jsonb(p) || jsonb_build_object('codigo', lpad(p.numero::text, 6, '0') || "
         "'/' || p.ano) as j";
  where(sql);
  sql << " order by p.ano desc, p.numero desc";
  store::append_page(sql, f.paging);
  sql << ") t)::text";
  return page(db, tenant, sql);
}

store::PageRows list_inspections(store::Pool& db, const store::Tenant& tenant,
                                 const InspectionFilter& f) {
  auto where = [&](store::Sql& sql) {
    sql << kFrom << " where true";
    if (f.status) (sql << " and v.status = ").bind(f.status);
    if (f.protocolo_id) (sql << " and v.protocolo_id = ").bind(f.protocolo_id, "bigint");
    date_range(sql, "r.inicio", f.de, f.ate);
  };
  store::Sql sql("select (select count(*)");
  where(sql);
  sql << ")::text, (select coalesce(json_agg(t.j order by t.inicio, t.agendamento_id), '[]') from "
         "(select r.inicio, "
         "v.agendamento_id, "
      << vistoria_json_expr() << "::jsonb as j";
  where(sql);
  sql << " order by r.inicio, v.agendamento_id";
  store::append_page(sql, f.paging);
  sql << ") t)::text";
  return page(db, tenant, sql);
}

std::string create_inspection(store::Pool& db, const store::Tenant& tenant,
                              const store::Principal& user, const VistoriaInput& in,
                              const std::string& token) {
  const std::string& id = *in.agendamento_id;
  std::string answer;
  db.run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      use_tenant_zone(s, tenant);
      store::Sql lock("select 1 from agendamento.reserva where id = ");
      lock.bind(id, "bigint") << " for update";
      if (store::fetch(s, lock).empty())
        throw Error(errc::not_found, "reserva " + id + " não encontrada", "agendamento_id");
      if (vistoria_json(s, id))
        throw Error(errc::conflict, "a reserva " + id + " já tem vistoria", "agendamento_id");
      check_references(s, in);
      store::Sql sql("insert into atendimento.vistoria (agendamento_id, token_hash, criado_por");
      for (const auto& c : in.columns) sql << ", " << c.column;
      sql << ") values (";
      sql.bind(id, "bigint") << ", ";
      sql.bind(store::sha256_hex(token)) << ", ";
      sql.bind(user.email);
      for (const auto& c : in.columns) (sql << ", ").bind(c.value, c.cast);
      sql << ")";
      store::execute(s, sql);
      store::record_audit(s, kTable, id, store::Operation::insert, user, std::nullopt, vistoria_json(s, id).value());
      answer = vistoria_json(s, id, &token).value();
    });
  });
  return answer;
}

std::string read_inspection(store::Pool& db, const store::Tenant& tenant, const std::string& id) {
  std::optional<std::string> answer;
  db.run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      use_tenant_zone(s, tenant);
      answer = vistoria_json(s, id);
    });
  });
  if (!answer) no_inspection(id);
  return std::move(*answer);
}

std::string update_inspection(store::Pool& db, const store::Tenant& tenant,
                              const store::Principal& user, const std::string& id,
                              const VistoriaInput& in) {
  std::string answer;
  db.run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      use_tenant_zone(s, tenant);
      store::Sql lock("select 1 from atendimento.vistoria where agendamento_id = ");
      lock.bind(id, "bigint") << " for update";
      if (store::fetch(s, lock).empty()) no_inspection(id);
      auto before = vistoria_json(s, id);
      check_references(s, in);
      store::Sql sql("update atendimento.vistoria set atualizado_em = now()");
      set_columns(sql, in.columns);
      sql << " where agendamento_id = ";
      sql.bind(id, "bigint");
      store::execute(s, sql);
      answer = vistoria_json(s, id).value();
      store::record_audit(s, kTable, id, store::Operation::update, user, before, answer);
    });
  });
  return answer;
}

std::string record_approval(store::Pool& db, const store::Tenant& tenant,
                            const store::Principal& user, const AuditoriaInput& in) {
  store::Sql sql(
      "insert into atendimento.auditoria as a (tabela, registro_id, alteracao, decisao, "
      "comentario, "
      "usuario_id, usuario_email) values (");
  sql.bind(in.tabela) << ", ";
  sql.bind(in.registro_id) << ", ";
  sql.bind(in.alteracao, "jsonb") << ", ";
  sql.bind(in.decisao) << ", ";
  sql.bind(in.comentario) << ", ";
  sql.bind(std::to_string(user.user_id), "bigint") << ", ";
  sql.bind(user.email) << ") returning to_jsonb(a)::text";
  std::string answer;
  db.run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      use_tenant_zone(s, tenant);
      answer = store::fetch_value(s, sql).value();
    });
  });
  return answer;
}

std::optional<std::string> token_hash(store::Pool& db, const std::string& id) {
  store::Sql sql("select token_hash from atendimento.vistoria where agendamento_id = ");
  sql.bind(id, "bigint");
  return db.with([&](soci::session& s) { return store::fetch_value(s, sql); });
}

std::string public_inspection(store::Pool& db, const store::Tenant& tenant, const std::string& id) {
  store::Sql sql("select " + public_json_expr() + kFrom + " where v.agendamento_id = ");
  sql.bind(id, "bigint");
  std::optional<std::string> answer;
  db.run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      use_tenant_zone(s, tenant);
      answer = store::fetch_value(s, sql);
    });
  });
  if (!answer)
    wrong_token();  // gone since the token was checked: the same answer as an unknown one
  return std::move(*answer);
}

std::string citizen_update(store::Pool& db, const store::Tenant& tenant,
                           const store::Principal& citizen, const std::string& id,
                           const CitizenInput& in) {
  std::string answer;
  db.run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      use_tenant_zone(s, tenant);
      store::Sql lock("select status from atendimento.vistoria where agendamento_id = ");
      lock.bind(id, "bigint") << " for update";
      auto status = store::fetch_value(s, lock);
      if (!status) wrong_token();
      schedule::check_citizen_may_change(schedule::parse_inspection_status(*status));
      auto before = vistoria_json(s, id);
      store::Sql sql("update atendimento.vistoria set atualizado_em = now()");
      set_columns(sql, in.columns);
      sql << " where agendamento_id = ";
      sql.bind(id, "bigint");
      store::execute(s, sql);
      store::record_audit(s, kTable, id, store::Operation::update, citizen, before,
                          vistoria_json(s, id));
      store::Sql view("select " + public_json_expr() + kFrom + " where v.agendamento_id = ");
      view.bind(id, "bigint");
      answer = store::fetch_value(s, view).value();
    });
  });
  return answer;
}

}  // namespace cadastre::server::desk
