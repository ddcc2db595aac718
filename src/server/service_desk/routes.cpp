// Service desk and inspections (/atendimento/{municipio}/...): protocols with filters and
// paging, inspections (vistoria) of reservations with their public access token, and the
// approval audit.
//
// Access: everything but the public routes is governed as the layer "atendimento" (rule
// "atendimento", else the user's "*"): reads need read, writes need write. The public
// routes (service_desk_public.cpp) take no bearer but the inspection's access token.
//
// The access token is 256 random bits, answered once by the creation and stored only as
// its SHA-256 (vistoria.token_hash), so the database never holds it. Inspection writes
// record an audit row in the same transaction (tabela "atendimento.vistoria", without
// token_hash); an approval is itself a row of atendimento.auditoria (who, when, decision).
#include "server/service_desk/routes.hpp"

#include <soci/soci.h>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "cadastre/schedule.hpp"
#include "server/app.hpp"
#include "server/scheduling/store.hpp"
#include "server/service_desk/input.hpp"
#include "service/geojson.hpp"
#include "store/audit.hpp"
#include "store/crypto.hpp"

namespace cadastre::server {
namespace {

using http::Request;
using http::Response;

constexpr const char* kLayer = "atendimento";
constexpr const char* kTable = "atendimento.vistoria";
std::optional<std::string> date_filter(const Request& req, const char* name) {
  auto v = req.query_value(name);
  if (!v) return std::nullopt;
  schedule::parse_date(*v, name);
  return v;
}

std::optional<std::string> integer_filter(const Request& req, const char* name, std::int64_t min,
                                          std::int64_t max) {
  auto v = req.query_value(name);
  if (!v) return std::nullopt;
  return std::to_string(query::parse_integer(*v, name, min, max));
}

// Local dates [de, ate] on a timestamp column (the transaction's time zone is the tenant's).
void date_range(store::Sql& sql, const char* column, const std::optional<std::string>& de,
                const std::optional<std::string>& ate) {
  if (de) {
    sql << " and " << column << " >= ";
    sql.bind(de, "date") << "::timestamp::timestamptz";
  }
  if (ate) {
    sql << " and " << column << " < (";
    sql.bind(ate, "date") << " + 1)::timestamp::timestamptz";
  }
}

// {total, pagina, limite, <member>} from a count and a page of JSON rows.
Response page(const Context& ctx, const store::Sql& sql, const query::Paging& paging,
              const char* member) {
  store::Row row;
  ctx.db->run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      desk::use_tenant_zone(s, ctx.tenant);
      row = store::fetch(s, sql).at(0);
    });
  });
  JsonWriter w;
  w.begin_object().key("total").value(
      static_cast<std::int64_t>(std::stoll(row.at(0).value_or("0"))));
  w.key("pagina").value(paging.page).key("limite").value(paging.size);
  w.key(member).raw(row.at(1).value_or("[]")).end_object();
  return Response::json(std::move(w).str());
}

Response protocols(App& app, Request& req) {
  const Context& ctx = desk::allowed(app, req, false);
  auto status = req.query_value("status");
  auto ano = integer_filter(req, "ano", 2000, 2200),
       numero = integer_filter(req, "numero", 1, 2147483647);
  auto solicitante = req.query_value("solicitante"), assunto = req.query_value("assunto");
  auto de = date_filter(req, "de"), ate = date_filter(req, "ate");
  auto paging = query::normalize_paging(query_params(req));
  auto where = [&](store::Sql& sql) {
    sql << " from atendimento.protocolo p where true";
    if (status) (sql << " and p.status = ").bind(status);
    if (ano) (sql << " and p.ano = ").bind(ano, "integer");
    if (numero) (sql << " and p.numero = ").bind(numero, "integer");
    // icontains without LIKE, so % and _ in the text are plain characters
    if (solicitante)
      (sql << " and strpos(lower(p.solicitante_nome), lower(").bind(solicitante) << ")) > 0";
    if (assunto) (sql << " and strpos(lower(p.assunto), lower(").bind(assunto) << ")) > 0";
    date_range(sql, "p.aberto_em", de, ate);
  };
  store::Sql sql("select (select count(*)");
  where(sql);
  sql << ")::text, (select coalesce(json_agg(t.j order by t.ano desc, t.numero desc), '[]') from "
         "(select p.ano, "
         "p.numero, to_jsonb(p) || jsonb_build_object('codigo', lpad(p.numero::text, 6, '0') || "
         "'/' || p.ano) as j";
  where(sql);
  sql << " order by p.ano desc, p.numero desc limit " << std::to_string(paging.size) << " offset "
      << std::to_string(paging.offset) << ") t)::text";
  return page(ctx, sql, paging, "protocolos");
}

Response inspections(App& app, Request& req) {
  const Context& ctx = desk::allowed(app, req, false);
  auto status = req.query_value("status");
  auto protocolo = integer_filter(req, "protocolo_id", 1, INT64_MAX);
  auto de = date_filter(req, "de"), ate = date_filter(req, "ate");
  auto paging = query::normalize_paging(query_params(req));
  auto where = [&](store::Sql& sql) {
    sql << desk::kFrom << " where true";
    if (status) (sql << " and v.status = ").bind(status);
    if (protocolo) (sql << " and v.protocolo_id = ").bind(protocolo, "bigint");
    date_range(sql, "r.inicio", de, ate);
  };
  store::Sql sql("select (select count(*)");
  where(sql);
  sql << ")::text, (select coalesce(json_agg(t.j order by t.inicio, t.agendamento_id), '[]') from "
         "(select r.inicio, "
         "v.agendamento_id, "
      << desk::vistoria_json_expr() << "::jsonb as j";
  where(sql);
  sql << " order by r.inicio, v.agendamento_id limit " << std::to_string(paging.size) << " offset "
      << std::to_string(paging.offset) << ") t)::text";
  return page(ctx, sql, paging, "vistorias");
}

// The photos (media ids of this tenant) and the protocol an inspection refers to must exist.
void check_references(soci::session& s, const desk::VistoriaInput& in) {
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

Response create(App& app, Request& req) {
  const Context& ctx = desk::allowed(app, req, true);
  auto in = desk::parse_vistoria(req.body, std::nullopt);
  const std::string& id = *in.agendamento_id;
  const std::string token = store::random_token();  // outside the transaction: a retry keeps it
  std::string answer;
  ctx.db->run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      desk::use_tenant_zone(s, ctx.tenant);
      store::Sql lock("select 1 from agendamento.reserva where id = ");
      lock.bind(id, "bigint") << " for update";
      if (store::fetch(s, lock).empty())
        throw Error(errc::not_found, "reserva " + id + " não encontrada", "agendamento_id");
      if (desk::vistoria_json(s, id))
        throw Error(errc::conflict, "a reserva " + id + " já tem vistoria", "agendamento_id");
      check_references(s, in);
      store::Sql sql("insert into atendimento.vistoria (agendamento_id, token_hash, criado_por");
      for (const auto& c : in.columns) sql << ", " << c.column;
      sql << ") values (";
      sql.bind(id, "bigint") << ", ";
      sql.bind(store::sha256_hex(token)) << ", ";
      sql.bind(ctx.user.email);
      for (const auto& c : in.columns) {
        sql << ", ";
        sql.bind(c.value, c.cast);
      }
      sql << ")";
      store::execute(s, sql);
      answer = desk::vistoria_json(s, id).value();
      store::record_audit(s, kTable, id, store::Operation::insert, ctx.user, std::nullopt, answer);
    });
  });
  // The token is shown this once: only its hash was stored.
  answer.pop_back();
  answer += ",\"token\":" + json_quote(token) + "}";
  return Response::json(std::move(answer), 201);
}

Response read(App& app, Request& req) {
  const Context& ctx = desk::allowed(app, req, false);
  std::string id = desk::path_agendamento_id(req);
  std::optional<std::string> answer;
  ctx.db->run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      desk::use_tenant_zone(s, ctx.tenant);
      answer = desk::vistoria_json(s, id);
    });
  });
  if (!answer)
    throw Error(errc::not_found, "a reserva " + id + " não tem vistoria", "agendamento_id");
  return Response::json(std::move(*answer));
}

Response update(App& app, Request& req) {
  const Context& ctx = desk::allowed(app, req, true);
  std::string id = desk::path_agendamento_id(req);
  auto in = desk::parse_vistoria(req.body, id);
  std::string answer;
  ctx.db->run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      desk::use_tenant_zone(s, ctx.tenant);
      store::Sql lock("select 1 from atendimento.vistoria where agendamento_id = ");
      lock.bind(id, "bigint") << " for update";
      if (store::fetch(s, lock).empty())
        throw Error(errc::not_found, "a reserva " + id + " não tem vistoria", "agendamento_id");
      auto before = desk::vistoria_json(s, id);
      check_references(s, in);
      store::Sql sql("update atendimento.vistoria set atualizado_em = now()");
      for (const auto& c : in.columns) {
        sql << ", " << c.column << " = ";
        sql.bind(c.value, c.cast);
      }
      sql << " where agendamento_id = ";
      sql.bind(id, "bigint");
      store::execute(s, sql);
      answer = desk::vistoria_json(s, id).value();
      store::record_audit(s, kTable, id, store::Operation::update, ctx.user, before, answer);
    });
  });
  return Response::json(std::move(answer));
}

Response approve(App& app, Request& req) {
  const Context& ctx = desk::allowed(app, req, true);
  auto in = desk::parse_auditoria(req.body);
  store::Sql sql(
      "insert into atendimento.auditoria as a (tabela, registro_id, alteracao, decisao, "
      "comentario, "
      "usuario_id, usuario_email) values (");
  sql.bind(in.tabela) << ", ";
  sql.bind(in.registro_id) << ", ";
  sql.bind(in.alteracao, "jsonb") << ", ";
  sql.bind(in.decisao) << ", ";
  sql.bind(in.comentario) << ", ";
  sql.bind(std::to_string(ctx.user.user_id), "bigint") << ", ";
  sql.bind(ctx.user.email) << ") returning to_jsonb(a)::text";
  std::string answer;
  ctx.db->run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      desk::use_tenant_zone(s, ctx.tenant);
      answer = store::fetch_value(s, sql).value();
    });
  });
  return Response::json(std::move(answer), 201);
}

}  // namespace

const Context& desk::allowed(App& app, const Request& req, bool write) {
  const Context& ctx = context(req);
  if (!store::layer_allowed(app.identity().permissions(ctx.user.user_id), kLayer, write,
                            ctx.user.admin))
    throw Error(errc::forbidden, std::string("sem permissão de ") +
                                     (write ? "escrita" : "leitura") +
                                     " no atendimento (camada 'atendimento')");
  return ctx;
}

std::string desk::path_agendamento_id(const Request& req) {
  const std::string& id = req.param("agendamento_id");
  if (id.empty() || id.size() > 18 || id.find_first_not_of("0123456789") != std::string::npos ||
      id[0] == '0')
    throw Error(errc::invalid_argument, "agendamento_id inválido: " + id, "agendamento_id");
  return id;
}

void desk::use_tenant_zone(soci::session& s, const store::Tenant& tenant) {
  sched::use_time_zone(s, tenant.fuso_horario.empty()
                              ? std::string(schedule::Agenda::default_time_zone)
                              : tenant.fuso_horario);
}

std::string desk::vistoria_json_expr() {
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

std::string desk::public_json_expr() {
  return "jsonb_build_object('agendamento_id', v.agendamento_id, 'status', v.status, 'inicio', "
         "r.inicio, 'fim', "
         "r.fim, 'contato_cidadao', v.contato_cidadao, 'disponibilidade', v.disponibilidade, "
         "'observacoes_cidadao', "
         "v.observacoes_cidadao, 'fotos_cidadao', to_jsonb(v.fotos_cidadao), "
         "'fotos_cidadao_links', "
         "(select coalesce(jsonb_agg('/midia/get?file_url=' || u.k order by u.o), '[]') "
         "from unnest(v.fotos_cidadao) with ordinality u(k, o)), 'atualizado_em', "
         "v.atualizado_em)::text";
}

std::optional<std::string> desk::vistoria_json(soci::session& s, const std::string& id) {
  store::Sql sql("select " + vistoria_json_expr() + kFrom + " where v.agendamento_id = ");
  sql.bind(id, "bigint");
  return store::fetch_value(s, sql);
}

void add_service_desk_routes(App& app) {
  auto& srv = app.server();
  const std::string tag = "Atendimento";
  const std::string reads =
      " Requer leitura na camada 'atendimento' (regra 'atendimento' ou a padrão '*').";
  const std::string writes = " Requer escrita na camada 'atendimento'.";
  const std::string write_audited = writes + " Grava auditoria (atendimento.vistoria).";
  auto h = [&app](Response (*fn)(App&, Request&)) {
    return [&app, fn](Request& r) { return fn(app, r); };
  };
  const std::string vistoria_body =
      "{\"agendamento_id\": int, \"checklist\"?: [{\"item\": \"...\", \"ok\": true}], "
      "\"constatacoes\"?: \"...\", "
      "\"fotos\"?: [ids de midia.arquivo], \"protocolo_id\"?: int, \"status\"?: "
      "\"pendente|em_andamento|concluida|"
      "cancelada\"}";
  const std::string citizen_body =
      "{\"token\": \"...\" (ou ?token=), \"contato_cidadao\"?: \"...\", \"disponibilidade\"?: "
      "\"...\", "
      "\"observacoes_cidadao\"?: \"...\", \"fotos_cidadao\"?: [chaves de POST /midia/storage]}";

  srv.add({.method = "GET",
           .pattern = "/atendimento/{municipio}/protocolos",
           .auth = "bearer",
           .tag = tag,
           .summary = "Protocolos do atendimento (número por ano), do mais recente: {total, "
                      "pagina, limite, protocolos}. Filtros: "
                      "status, ano, numero, solicitante e assunto (contém, sem diferenciar "
                      "maiúsculas), de/ate (data local de "
                      "abertura). Filtro desconhecido → 400." +
                      reads,
           .params = paging_params(
               {{"status",
                 "query",
                 "string",
                 false,
                 "situação do protocolo",
                 {"aberto", "em_analise", "deferido", "indeferido", "arquivado"}},
                {"ano", "query", "integer", false, "ano do protocolo"},
                {"numero", "query", "integer", false, "número no ano"},
                {"solicitante", "query", "string", false, "parte do nome do solicitante"},
                {"assunto", "query", "string", false, "parte do assunto"},
                {"de", "query", "string", false, "data local inicial YYYY-MM-DD (abertura)"},
                {"ate", "query", "string", false, "data local final YYYY-MM-DD (abertura)"}}),
           .handler = h(&protocols)});
  srv.add({.method = "POST",
           .pattern = "/atendimento/{municipio}/vistoria",
           .auth = "bearer",
           .tag = tag,
           .summary = "Cria a vistoria de uma reserva: responde 201 com a vistoria e o token de "
                      "acesso público (mostrado só "
                      "agora; o banco guarda apenas o SHA-256). Reserva inexistente → 404; reserva "
                      "que já tem vistoria → 409; "
                      "foto (id de midia.arquivo) ou protocolo inexistente → 400." +
                      write_audited,
           .body = {.description = vistoria_body},
           .handler = h(&create)});
  srv.add(
      {.method = "GET",
       .pattern = "/atendimento/{municipio}/vistoria",
       .auth = "bearer",
       .tag = tag,
       .summary = "Lista as vistorias pelo início da reserva: {total, pagina, limite, vistorias}; "
                  "filtros status, "
                  "protocolo_id e de/ate (data local do início da reserva)." +
                  reads,
       .params = paging_params({{"status",
                                 "query",
                                 "string",
                                 false,
                                 "situação da vistoria",
                                 {"pendente", "em_andamento", "concluida", "cancelada"}},
                                {"protocolo_id", "query", "integer", false, "id do protocolo"},
                                {"de", "query", "string", false, "data local inicial YYYY-MM-DD"},
                                {"ate", "query", "string", false, "data local final YYYY-MM-DD"}}),
       .handler = h(&inspections)});
  srv.add({.method = "GET",
           .pattern = "/atendimento/{municipio}/vistoria/{agendamento_id}",
           .auth = "bearer",
           .tag = tag,
           .summary = "A vistoria da reserva {agendamento_id} (sem o token), com a reserva e os "
                      "links das fotos. Sem vistoria → "
                      "404." +
                      reads,
           .handler = h(&read)});
  srv.add({.method = "PUT",
           .pattern = "/atendimento/{municipio}/vistoria/{agendamento_id}",
           .auth = "bearer",
           .tag = tag,
           .summary = "Altera checklist, constatacoes, fotos, protocolo_id ou status; outros "
                      "campos → 400. Sem vistoria → 404." +
                      write_audited,
           .body = {.description = "campos a alterar (formato da criação, sem agendamento_id)"},
           .handler = h(&update)});
  srv.add({.method = "GET",
           .pattern = "/atendimento/{municipio}/public/vistoria/{agendamento_id}",
           .auth = "none",
           .tag = tag,
           .summary = "Leitura pelo cidadão, sem bearer: token de acesso em ?token=. Token ausente "
                      "ou errado → 401 (também para "
                      "vistoria inexistente, que não é revelada); município desconhecido → 404. "
                      "Responde só status, horário e "
                      "os campos do cidadão.",
           .params = {{"token", "query", "string", true,
                       "token de acesso devolvido na criação da vistoria"}},
           .handler = h(&desk::public_read)});
  srv.add(
      {.method = "PUT",
       .pattern = "/atendimento/{municipio}/public/vistoria/{agendamento_id}",
       .auth = "none",
       .tag = tag,
       .summary =
           "Atualização pelo cidadão, sem bearer: token no corpo (token) ou em ?token=. Só "
           "contato_cidadao, "
           "disponibilidade, observacoes_cidadao e fotos_cidadao (chaves de POST /midia/storage); "
           "outro campo → 400; "
           "token ausente ou errado → 401; vistoria concluída ou cancelada → 409. Grava auditoria "
           "(atendimento.vistoria, usuário 'cidadao').",
       .params = {{"token", "query", "string", false,
                   "token de acesso (alternativa ao campo token do corpo)"}},
       .body = {.description = citizen_body},
       .handler = h(&desk::public_update)});
  srv.add(
      {.method = "POST",
       .pattern = "/atendimento/{municipio}/auditoria",
       .auth = "bearer",
       .tag = tag,
       .summary =
           "Registra a aprovação de uma alteração: quem (o usuário da credencial), quando, tabela, "
           "registro, "
           "alteração, decisão (aprovado ou reprovado) e comentário. Responde 201 com o registro." +
           writes,
       .body = {.description = "{\"tabela\": \"cadastro.lote\", \"registro_id\": \"12\", "
                               "\"alteracao\": {...}, \"decisao\": "
                               "\"aprovado|reprovado\", \"comentario\"?: \"...\"}"},
       .handler = h(&approve)});
}

}  // namespace cadastre::server
