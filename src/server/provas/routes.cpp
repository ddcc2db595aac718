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
#include <soci/soci.h>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "server/app.hpp"
#include "server/provas/auth.hpp"
#include "server/provas/record.hpp"
#include "service/geojson.hpp"
#include "store/audit.hpp"
#include "store/sql.hpp"

namespace cadastre::server {
namespace {

using http::Param;
using http::Request;
using http::Response;

constexpr const char* kTable = "provas.prova_digital";

std::string path_id(const Request& req) {
  return std::to_string(query::parse_integer(req.param("id"), "id", 1, INT64_MAX));
}

// Appends " and t.<col> = <value>" for each field (columns come from provas_record's
// fixed list, never from the request).
void append_filters(store::Sql& sql, const std::vector<ProvaField>& filters) {
  for (const auto& f : filters) {
    sql << " and t." << f.column << " = ";
    sql.bind(f.value, f.type);
  }
}

Response list(Request& req, const ProvasContext& ctx) {
  auto paging = query::normalize_paging(req.query);
  std::vector<ProvaField> filters;
  if (auto f = req.query_value("filtros")) filters = prova_filters(*f);
  store::Sql sql("select (select count(*) from provas.prova_digital t where true");
  append_filters(sql, filters);
  sql << ")::text, (select coalesce(json_agg(to_jsonb(t) order by t.id), '[]') from (select * from "
         "provas.prova_digital t where true";
  append_filters(sql, filters);
  sql << " order by t.id limit " << std::to_string(paging.size) << " offset "
      << std::to_string(paging.offset) << ") t)::text";
  auto rows = ctx.db->with([&](soci::session& s) { return store::fetch(s, sql); });
  JsonWriter w;
  w.begin_object().key("total").value(
      static_cast<std::int64_t>(std::stoll(rows.at(0)[0].value_or("0"))));
  w.key("pagina").value(paging.page).key("limite").value(paging.size);
  w.key("registros").raw(rows.at(0)[1].value_or("[]")).end_object();
  return Response::json(std::move(w).str());
}

Response by_unit(Request& req, const ProvasContext& ctx) {
  const std::string& numero = req.param("numero_cadastro");
  store::Sql sql(
      "select coalesce(json_agg(to_jsonb(t) order by t.data desc, t.id desc), '[]')::text, "
      "count(*)::text "
      "from provas.prova_digital t where t.numero_cadastro = ");
  sql.bind(numero);
  auto row = ctx.db->with([&](soci::session& s) { return store::fetch(s, sql); }).at(0);
  if (row[1].value_or("0") == "0")
    throw Error(errc::not_found, "nenhuma prova digital do imóvel " + numero, "numero_cadastro");
  JsonWriter w;
  w.begin_object().key("numero_cadastro").value(numero);
  w.key("total")
      .value(static_cast<std::int64_t>(std::stoll(*row[1])))
      .key("registros")
      .raw(*row[0])
      .end_object();
  return Response::json(std::move(w).str());
}

// The unit named by a written numero_cadastro must exist in the cadastre.
void check_unit(soci::session& s, const std::vector<ProvaField>& fields) {
  for (const auto& f : fields) {
    if (f.column != "numero_cadastro") continue;
    store::Sql q("select count(*)::text from cadastro.imobiliario where numero_cadastro = ");
    q.bind(f.value);
    if (store::fetch_value(s, q).value_or("0") == "0")
      throw Error(errc::unprocessable,
                  "imóvel não encontrado no cadastro: numero_cadastro " + f.value.value_or(""),
                  "numero_cadastro");
  }
}

Response create(Request& req, const ProvasContext& ctx) {
  auto fields = prova_fields(req.body, true);
  store::Sql sql("insert into provas.prova_digital as t (");
  for (std::size_t i = 0; i < fields.size(); ++i) sql << (i ? ", " : "") << fields[i].column;
  sql << ") values (";
  for (std::size_t i = 0; i < fields.size(); ++i) {
    sql << (i ? ", " : "");
    sql.bind(fields[i].value, fields[i].type);
  }
  sql << ") returning t.id::text, to_jsonb(t)::text";
  std::string answer;
  ctx.db->run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      check_unit(s, fields);
      auto row = store::fetch(s, sql).at(0);
      store::record_audit(s, kTable, *row[0], store::Operation::insert, ctx.auditor, std::nullopt,
                          row[1]);
      answer = *row[1];
    });
  });
  return Response::json(answer, 201);
}

Response update(Request& req, const ProvasContext& ctx) {
  std::string id = path_id(req);
  auto fields = prova_fields(req.body, false);
  store::Sql before("select to_jsonb(t)::text from provas.prova_digital t where t.id = ");
  before.bind(id, "bigint");
  before << " for update";
  store::Sql sql("update provas.prova_digital as t set atualizado_em = now()");
  for (const auto& f : fields) {
    sql << ", " << f.column << " = ";
    sql.bind(f.value, f.type);
  }
  sql << " where t.id = ";
  sql.bind(id, "bigint");
  sql << " returning to_jsonb(t)::text";
  std::string answer;
  ctx.db->run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      auto old = store::fetch_value(s, before);
      if (!old) throw Error(errc::not_found, "prova digital não encontrada: " + id, "id");
      check_unit(s, fields);
      auto after = store::fetch_value(s, sql);
      store::record_audit(s, kTable, id, store::Operation::update, ctx.auditor, old, after);
      answer = *after;
    });
  });
  return Response::json(answer);
}

Response remove(Request& req, const ProvasContext& ctx) {
  std::string id = path_id(req);
  store::Sql sql("delete from provas.prova_digital t where t.id = ");
  sql.bind(id, "bigint");
  sql << " returning to_jsonb(t)::text";
  std::string answer;
  ctx.db->run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      auto old = store::fetch_value(s, sql);
      if (!old) throw Error(errc::not_found, "prova digital não encontrada: " + id, "id");
      store::record_audit(s, kTable, id, store::Operation::remove, ctx.auditor, old, std::nullopt);
      answer = *old;
    });
  });
  return Response::json(answer);
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
           .tag = tag,
           .summary = "Provas digitais de um imóvel pelo numero_cadastro (id de integração), mais "
                      "recentes primeiro: "
                      "{numero_cadastro, total, registros}; 404 quando não há nenhuma." +
                      record,
           .handler = basic_handler(by_unit)});
  srv.add({.method = "GET",
           .pattern = "/cad/provas-digitais/",
           .auth = "basic",
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
           .tag = tag,
           .summary = "Altera os campos informados da prova {id}; 404 quando não existe." + record,
           .body = {.description = body},
           .handler = basic_handler(update)});
  srv.add({.method = "DELETE",
           .pattern = "/cad/provas-digitais/{id}/",
           .auth = "basic",
           .tag = tag,
           .summary = "Remove a prova {id} e responde o registro removido; 404 quando não existe." +
                      record,
           .handler = basic_handler(remove)});
}

}  // namespace cadastre::server
