// Domains (/dominio/{municipio}/{campo}): list, create, update and delete the rows of the
// lookup tables of the tenant's `dominio` schema (topografia, pedologia, uso, ...).
//
// Access: domain tables are governed as one layer named "dominio" in the user's permission
// rules (a rule for "dominio", else the user's "*" default): reads need its read
// permission, writes its write permission (the route table's access). Then the table
// name's identifier rules (400) and the catalog of schema dominio (404), so hostile names
// never reach SQL.
//
// Rules of a row (cadastre/domain.hpp): id = codigo, descricao required; other members
// must be columns of that table (e.g. fator). The code is the key cadastral records
// reference, so it never changes; deleting a code still in use is refused by the foreign
// keys of the cadastro layers (409 conflito). Every write is audited (store.cpp).
#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "server/app.hpp"
#include "server/domains/input.hpp"
#include "server/domains/store.hpp"
#include "service/geojson.hpp"
#include "service/paging.hpp"
#include "service/scope.hpp"

namespace cadastre::server::domains {
namespace {

using http::Request;
using http::Response;
using service::Scope;

DomainTable table(const Scope& s, const Request& req) {
  return domain_table(s, req.param("campo"));
}

Response list_rows(const Scope& s, Request& req) {
  DomainTable t = table(s, req);
  auto fq = store::resolve(*t.layer, query::parse_list_query(query_params(req)));
  auto page = list(*s.db, t, fq);
  return Response::json(
      service::page_envelope(page, fq.paging, "registros", t.layer->name, "tabela"));
}

Response create_row(const Scope& s, Request& req) {
  DomainTable t = table(s, req);
  return Response::json(create(*s.db, t, parse_create(req), s.user), 201);
}

Response update_row(const Scope& s, Request& req) {
  DomainTable t = table(s, req);
  return Response::json(update(*s.db, t, parse_update(req), s.user));
}

Response remove_row(const Scope& s, Request& req) {
  DomainTable t = table(s, req);
  std::string id = path_code(req);
  auto row = remove(*s.db, t, id, s.user);
  JsonWriter w;
  w.begin_object().key("mensagem").value("código '" + id + "' excluído de " + t.audit_name);
  w.key("registro").raw(row).end_object();
  return Response::json(std::move(w).str());
}

}  // namespace
}  // namespace cadastre::server::domains

namespace cadastre::server {

void add_domain_routes(App& app) {
  auto& srv = app.server();
  const std::string tag = "Domínios";
  srv.add(
      {.method = "GET",
       .pattern = "/dominio/{municipio}/{campo}",
       .auth = "bearer",
       .access = http::reads("dominio"),
       .tag = tag,
       .summary =
           "Lista a tabela de domínio {campo} ordenada por codigo: {tabela, total, pagina, limite, "
           "registros}; aceita filtros campo=valor e paginação. Tabela desconhecida → 404.",
       .params = with_paging(),
       .handler = service::scoped(&domains::list_rows)});
  srv.add(
      {.method = "POST",
       .pattern = "/dominio/{municipio}/{campo}",
       .auth = "bearer",
       .access = http::writes("dominio"),
       .tag = tag,
       .summary = "Cria um código: id e codigo devem ser iguais (400 caso contrário); colunas "
                  "extras (ex.: "
                  "fator) precisam existir na tabela (400). Código repetido → 409. Responde 201 "
                  "com o registro; "
                  "grava um registro de auditoria.",
       .body = {.description =
                    "{\"id\": \"...\", \"codigo\": \"...\" (igual a id), \"descricao\": \"...\", "
                    "demais colunas da tabela}"},
       .handler = service::scoped(&domains::create_row)});
  srv.add({.method = "PUT",
           .pattern = "/dominio/{municipio}/{campo}/{id}",
           .auth = "bearer",
           .access = http::writes("dominio"),
           .tag = tag,
           .summary = "Altera descricao e colunas extras do código {id} (o código não muda: "
                      "id/codigo no corpo, se "
                      "vierem, devem ser iguais a {id}). Código inexistente → 404; grava um "
                      "registro de auditoria.",
           .body = {.description = "{\"descricao\": \"...\", demais colunas da tabela}"},
           .handler = service::scoped(&domains::update_row)});
  srv.add({.method = "DELETE",
           .pattern = "/dominio/{municipio}/{campo}/{id}",
           .auth = "bearer",
           .access = http::writes("dominio"),
           .tag = tag,
           .summary = "Exclui o código {id}; 404 se não existe; 409 (conflito) se ainda é usado "
                      "por registros do "
                      "cadastro; grava um registro de auditoria.",
           .handler = service::scoped(&domains::remove_row)});
}

}  // namespace cadastre::server
