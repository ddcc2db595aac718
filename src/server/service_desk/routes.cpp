// Service desk and inspections (/atendimento/{municipio}/...): protocols with filters and
// paging, inspections (vistoria) of reservations with their public access token, and the
// approval audit. The SQL lives in store.cpp, the inspection rules in
// cadastre/inspection.hpp; the handlers parse, call and render.
//
// Access: everything but the public routes is governed as the layer "atendimento": reads
// need read, writes need write. The public routes take no bearer but the inspection's
// access token (the auth scheme "vistoria_token", token_scheme.hpp). An approval is itself
// a row of atendimento.auditoria (who, when, decision).
#include <memory>

#include "cadastre/json.hpp"
#include "server/app.hpp"
#include "server/media/files.hpp"
#include "server/service_desk/input.hpp"
#include "server/service_desk/store.hpp"
#include "server/service_desk/token_scheme.hpp"
#include "service/geojson.hpp"
#include "service/paging.hpp"
#include "store/crypto.hpp"

namespace cadastre::server {
namespace {

using http::Request;
using http::Response;
using service::Scope;

Response protocols(const Scope& s, Request& req) {
  auto filter = desk::parse_protocol_filter(req);
  auto page = desk::list_protocols(*s.db, s.tenant, filter);
  return Response::json(service::page_envelope(page, filter.paging, "protocolos"));
}

Response inspections(const Scope& s, Request& req) {
  auto filter = desk::parse_inspection_filter(req);
  auto page = desk::list_inspections(*s.db, s.tenant, filter);
  return Response::json(service::page_envelope(page, filter.paging, "vistorias"));
}

Response create(const Scope& s, Request& req) {
  auto in = desk::parse_vistoria(req.body, std::nullopt);
  const std::string token = store::random_token();  // outside the transaction: a retry keeps it
  // The token is shown this once: only its hash was stored.
  return Response::json(desk::create_inspection(*s.db, s.tenant, s.user, in, token), 201);
}

Response read(const Scope& s, Request& req) {
  std::string id = desk::parse_agendamento_id(req);
  return Response::json(desk::read_inspection(*s.db, s.tenant, id));
}

Response update(const Scope& s, Request& req) {
  std::string id = desk::parse_agendamento_id(req);
  auto in = desk::parse_vistoria(req.body, id);
  return Response::json(desk::update_inspection(*s.db, s.tenant, s.user, id, in));
}

Response approve(const Scope& s, Request& req) {
  auto in = desk::parse_auditoria(req.body);
  return Response::json(desk::record_approval(*s.db, s.tenant, s.user, in), 201);
}

Response public_read(const desk::Citizen& c, Request&) {
  return Response::json(desk::public_inspection(*c.db, c.tenant, c.agendamento_id));
}

// Fields are judged only after the token (the auth scheme): a caller without it learns nothing.
Response public_update(const media::Files& files, const desk::Citizen& c, Request& req) {
  auto in = desk::parse_citizen(req.body, files);
  return Response::json(desk::citizen_update(*c.db, c.tenant, c.user, c.agendamento_id, in));
}

}  // namespace

void add_service_desk_routes(App& app) {
  auto& srv = app.server();
  auto files = std::make_shared<const media::Files>(app.options().media);
  const std::string tag = "Atendimento";
  const std::string audited = " Grava auditoria (atendimento.vistoria).";
  const std::string vistoria_body =
      "{\"agendamento_id\": int, \"checklist\"?: [{\"item\": \"...\", \"ok\": true}], "
      "\"constatacoes\"?: \"...\", "
      "\"fotos\"?: [ids de midia.arquivo], \"protocolo_id\"?: int, \"status\"?: "
      "\"pendente|em_andamento|concluida|cancelada\"}";
  const std::string citizen_body =
      "{\"token\": \"...\" (ou ?token=), \"contato_cidadao\"?: \"...\", \"disponibilidade\"?: "
      "\"...\", "
      "\"observacoes_cidadao\"?: \"...\", \"fotos_cidadao\"?: [chaves de POST /midia/storage]}";

  srv.add(
      {.method = "GET",
       .pattern = "/atendimento/{municipio}/protocolos",
       .auth = "bearer",
       .access = http::reads("atendimento"),
       .tag = tag,
       .summary =
           "Protocolos do atendimento (número por ano), do mais recente: {total, pagina, limite, "
           "protocolos}. Filtros: status, ano, numero, solicitante e assunto (contém, sem "
           "diferenciar "
           "maiúsculas), de/ate (data local de abertura). Filtro desconhecido → 400.",
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
       .handler = service::scoped(&protocols)});
  srv.add(
      {.method = "POST",
       .pattern = "/atendimento/{municipio}/vistoria",
       .auth = "bearer",
       .access = http::writes("atendimento"),
       .tag = tag,
       .summary =
           "Cria a vistoria de uma reserva: responde 201 com a vistoria e o token de acesso "
           "público "
           "(mostrado só agora; o banco guarda apenas o SHA-256). Reserva inexistente → 404; "
           "reserva "
           "que já tem vistoria → 409; foto (id de midia.arquivo) ou protocolo inexistente → 400." +
           audited,
       .body = {.description = vistoria_body},
       .handler = service::scoped(&create)});
  srv.add(
      {.method = "GET",
       .pattern = "/atendimento/{municipio}/vistoria",
       .auth = "bearer",
       .access = http::reads("atendimento"),
       .tag = tag,
       .summary =
           "Lista as vistorias pelo início da reserva: {total, pagina, limite, vistorias}; filtros "
           "status, protocolo_id e de/ate (data local do início da reserva).",
       .params = paging_params({{"status",
                                 "query",
                                 "string",
                                 false,
                                 "situação da vistoria",
                                 {"pendente", "em_andamento", "concluida", "cancelada"}},
                                {"protocolo_id", "query", "integer", false, "id do protocolo"},
                                {"de", "query", "string", false, "data local inicial YYYY-MM-DD"},
                                {"ate", "query", "string", false, "data local final YYYY-MM-DD"}}),
       .handler = service::scoped(&inspections)});
  srv.add({.method = "GET",
           .pattern = "/atendimento/{municipio}/vistoria/{agendamento_id}",
           .auth = "bearer",
           .access = http::reads("atendimento"),
           .tag = tag,
           .summary = "A vistoria da reserva {agendamento_id} (sem o token), com a reserva e os "
                      "links das fotos. "
                      "Sem vistoria → 404.",
           .handler = service::scoped(&read)});
  srv.add({.method = "PUT",
           .pattern = "/atendimento/{municipio}/vistoria/{agendamento_id}",
           .auth = "bearer",
           .access = http::writes("atendimento"),
           .tag = tag,
           .summary = "Altera checklist, constatacoes, fotos, protocolo_id ou status; outros "
                      "campos → 400. Sem "
                      "vistoria → 404." +
                      audited,
           .body = {.description = "campos a alterar (formato da criação, sem agendamento_id)"},
           .handler = service::scoped(&update)});
  srv.add(
      {.method = "GET",
       .pattern = "/atendimento/{municipio}/public/vistoria/{agendamento_id}",
       .auth = "vistoria_token",
       .access = http::holders("o token de acesso da vistoria agendada {agendamento_id}"),
       .tag = tag,
       .summary =
           "Leitura pelo cidadão, sem bearer: token de acesso em ?token=. Token ausente ou errado "
           "→ 401 "
           "(também para vistoria inexistente, que não é revelada); município desconhecido → 404. "
           "Responde só status, horário e os campos do cidadão.",
       .params = {{"token", "query", "string", true,
                   "token de acesso devolvido na criação da vistoria"}},
       .handler = [](Request& r) { return public_read(desk::citizen(r), r); }});
  srv.add(
      {.method = "PUT",
       .pattern = "/atendimento/{municipio}/public/vistoria/{agendamento_id}",
       .auth = "vistoria_token",
       .access = http::holders("o token de acesso da vistoria agendada {agendamento_id}"),
       .tag = tag,
       .summary =
           "Atualização pelo cidadão, sem bearer: token no corpo (token) ou em ?token=. Só "
           "contato_cidadao, disponibilidade, observacoes_cidadao e fotos_cidadao (chaves de POST "
           "/midia/storage); outro campo → 400; token ausente ou errado → 401; vistoria concluída "
           "ou "
           "cancelada → 409. Grava auditoria (atendimento.vistoria, usuário 'cidadao').",
       .params = {{"token", "query", "string", false,
                   "token de acesso (alternativa ao campo token do corpo)"}},
       .body = {.description = citizen_body},
       .handler = [files](Request& r) { return public_update(*files, desk::citizen(r), r); }});
  srv.add(
      {.method = "POST",
       .pattern = "/atendimento/{municipio}/auditoria",
       .auth = "bearer",
       .access = http::writes("atendimento"),
       .tag = tag,
       .summary =
           "Registra a aprovação de uma alteração: quem (o usuário da credencial), quando, tabela, "
           "registro, alteração, decisão (aprovado ou reprovado) e comentário. Responde 201 com o "
           "registro.",
       .body =
           {.description =
                "{\"tabela\": \"cadastro.lote\", \"registro_id\": \"12\", \"alteracao\": {...}, "
                "\"decisao\": \"aprovado|reprovado\", \"comentario\"?: \"...\"}"},
       .handler = service::scoped(&approve)});
}

}  // namespace cadastre::server
