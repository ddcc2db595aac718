// Digital proofs (/cad/provas-digitais): evidence records about property units kept by
// integration partners, behind HTTP Basic (server/provas/auth.hpp). The tenant is the
// credential's: there is no {municipio}, and one tenant's proofs are invisible to another's
// credentials.
//
//   GET    /cad/provas-digitais/{numero_cadastro}/  the proofs of one unit (404 when none)
//   GET    /cad/provas-digitais/                    list, paged; ?filtros={json} filters
//   POST   /cad/provas-digitais/                    creates (201)
//   PUT    /cad/provas-digitais/{id}/               updates the fields given
//   DELETE /cad/provas-digitais/{id}/               removes; answers the removed record
//
// A proof names its unit by numero_cadastro (a soft link, see 0013_provas_digitais.sql):
// writes check that the unit exists (422 otherwise). Every write records an audit row
// (tabela "provas.prova_digital", usuario_email "cliente-api:<usuario>") in its
// transaction.
#include "cadastre/json.hpp"
#include "server/app.hpp"
#include "server/provas/auth.hpp"
#include "server/provas/input.hpp"
#include "server/provas/store.hpp"
#include "service/geojson.hpp"
#include "service/paging.hpp"

namespace cadastre::server {
namespace {

using http::Param;
using http::Request;
using http::Response;

Response list(Request& req, const ProvasContext& ctx) {
  auto q = provas::parse_list(req);
  auto page = ctx.db->with([&](soci::session& s) { return provas::list(s, q); });
  return Response::json(service::page_envelope(page, q.paging, "registros"));
}

Response by_unit(Request& req, const ProvasContext& ctx) {
  const std::string& numero = req.param("numero_cadastro");
  auto found = ctx.db->with([&](soci::session& s) { return provas::by_unit(s, numero); });
  if (found.total == 0)
    throw Error(errc::not_found, "nenhuma prova digital do imóvel " + numero, "numero_cadastro");
  JsonWriter w;
  w.begin_object().key("numero_cadastro").value(numero);
  w.key("total").value(found.total).key("registros").raw(found.records).end_object();
  return Response::json(std::move(w).str());
}

Response create(Request& req, const ProvasContext& ctx) {
  auto fields = provas::prova_fields(req.body, true);
  auto record = ctx.db->with([&](soci::session& s) { return provas::create(s, fields, ctx.auditor); });
  return Response::json(std::move(record), 201);
}

Response update(Request& req, const ProvasContext& ctx) {
  std::string id = provas::parse_id(req.param("id"));
  auto fields = provas::prova_fields(req.body, false);
  auto record = ctx.db->with([&](soci::session& s) { return provas::update(s, id, fields, ctx.auditor); });
  return Response::json(std::move(record));
}

Response remove(Request& req, const ProvasContext& ctx) {
  std::string id = provas::parse_id(req.param("id"));
  auto record = ctx.db->with([&](soci::session& s) { return provas::remove(s, id, ctx.auditor); });
  return Response::json(std::move(record));
}

}  // namespace

void add_provas_routes(App& app) {
  add_basic_scheme(app);
  auto& srv = app.server();
  const std::string tag = "Provas digitais";
  const std::string record =
      " Registro: {id, numero_cadastro, tipo, descricao, arquivo_url, sha256, data, criado_em, "
      "atualizado_em}. "
      "Credencial ausente ou inválida → 401 com WWW-Authenticate: Basic.";
  const std::string body =
      "{\"numero_cadastro\": imóvel existente, \"tipo\": texto, \"descricao\"?: texto, "
      "\"arquivo_url\": http(s), "
      "\"sha256\": 64 hexadecimais do arquivo, \"data\": \"AAAA-MM-DD\"}";
  srv.add({.method = "GET",
           .pattern = "/cad/provas-digitais/{numero_cadastro}/",
           .auth = "basic",
           .access = http::holders("uma credencial de integração com escopo provas_digitais do município"),
           .tag = tag,
           .summary = "Provas digitais de um imóvel pelo numero_cadastro (id de integração), mais "
                      "recentes primeiro: "
                      "{numero_cadastro, total, registros}; 404 quando não há nenhuma." +
                      record,
           .handler = basic_handler(by_unit)});
  srv.add({.method = "GET",
           .pattern = "/cad/provas-digitais/",
           .auth = "basic",
           .access = http::holders("uma credencial de integração com escopo provas_digitais do município"),
           .tag = tag,
           .summary = "Lista as provas digitais do município da credencial por id: {total, pagina, "
                      "limite, registros}. "
                      "filtros: objeto JSON (codificado na URL) de igualdades por campo, ex.: "
                      "{\"numero_cadastro\": \"1000017\", \"tipo\": \"foto\"}; campo desconhecido "
                      "ou JSON inválido → 400." +
                      record,
           .params = paging_params({{"filtros", "query", "string", false,
                                     "objeto JSON: id, numero_cadastro, tipo, descricao, "
                                     "arquivo_url, sha256, data → valor"}}),
           .handler = basic_handler(list)});
  srv.add({.method = "POST",
           .pattern = "/cad/provas-digitais/",
           .auth = "basic",
           .access = http::holders("uma credencial de integração com escopo provas_digitais do município"),
           .tag = tag,
           .summary = "Cria uma prova digital; responde 201 com o registro. Campo desconhecido ou "
                      "inválido → 400; imóvel "
                      "inexistente → 422." +
                      record,
           .body = {.description = body},
           .handler = basic_handler(create)});
  srv.add({.method = "PUT",
           .pattern = "/cad/provas-digitais/{id}/",
           .auth = "basic",
           .access = http::holders("uma credencial de integração com escopo provas_digitais do município"),
           .tag = tag,
           .summary = "Altera os campos informados da prova {id}; 404 quando não existe." + record,
           .body = {.description = body},
           .handler = basic_handler(update)});
  srv.add({.method = "DELETE",
           .pattern = "/cad/provas-digitais/{id}/",
           .auth = "basic",
           .access = http::holders("uma credencial de integração com escopo provas_digitais do município"),
           .tag = tag,
           .summary = "Remove a prova {id} e responde o registro removido; 404 quando não existe." +
                      record,
           .handler = basic_handler(remove)});
}

}  // namespace cadastre::server
