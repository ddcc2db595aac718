// The citizen's routes of an inspection (/atendimento/{municipio}/public/vistoria/{id}):
// no bearer, but the inspection's access token (query `token`, or body member `token` on
// PUT). The token is checked by hashing it and comparing with vistoria.token_hash in
// constant time; an unknown inspection answers the same 401 as a wrong token, so the
// route does not reveal which reservations have inspections. The tenant comes from
// {municipio} alone (404 when unknown or inactive).
#include <soci/soci.h>

#include "server/media/layout.hpp"
#include "server/media/store.hpp"
#include "server/service_desk/routes.hpp"
#include "server/service_desk/input.hpp"
#include "store/audit.hpp"
#include "store/crypto.hpp"
#include "store/sql.hpp"

namespace cadastre::server::desk {
namespace {

using http::Request;
using http::Response;

struct Target {
  store::Tenant tenant;
  store::Pool* db = nullptr;
  std::string id;  ///< agendamento_id
};

Target target(App& app, Request& req) {
  const std::string& slug = req.param("municipio");
  std::optional<store::Tenant> tenant;
  if (slug != cadastre::media::kPublicArea && cadastre::media::valid_area(slug)) tenant = app.identity().tenant(slug);
  if (!tenant || !tenant->ativo) throw Error(errc::not_found, "município desconhecido: " + slug, "municipio");
  Target t{*tenant, &app.tenants().pool(*tenant), path_agendamento_id(req)};
  return t;
}

// Checks the token of inspection `id` (locking its row when `lock`) and returns its status.
std::string authenticate(soci::session& s, const std::string& id, const std::optional<std::string>& token, bool lock) {
  if (!token || token->empty())
    throw Error(errc::unauthenticated, "informe o token de acesso da vistoria (?token= ou campo token)", "token");
  store::Sql sql("select token_hash, status from atendimento.vistoria where agendamento_id = ");
  sql.bind(id, "bigint") << (lock ? " for update" : "");
  auto rows = store::fetch(s, sql);
  // Hash and compare even without a row, so both refusals take the same time.
  std::string stored = rows.empty() ? std::string(64, '-') : rows[0].at(0).value();
  bool valid = store::equal_constant_time(store::sha256_hex(*token), stored);
  if (!valid || rows.empty()) throw Error(errc::unauthenticated, "token de acesso inválido para esta vistoria", "token");
  return rows[0].at(1).value();
}

std::string public_json(soci::session& s, const std::string& id) {
  store::Sql sql("select " + public_json_expr() + kFrom + " where v.agendamento_id = ");
  sql.bind(id, "bigint");
  return store::fetch_value(s, sql).value();
}

}  // namespace

Response public_read(App& app, Request& req) {
  Target t = target(app, req);
  auto token = req.query_value("token");
  std::string answer;
  t.db->run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      use_tenant_zone(s, t.tenant);
      authenticate(s, t.id, token, false);
      answer = public_json(s, t.id);
    });
  });
  return Response::json(std::move(answer));
}

Response public_update(App& app, Request& req) {
  Target t = target(app, req);
  auto token = body_token(req.body);
  if (!token) token = req.query_value("token");
  const media::Store files(app.options().media);
  store::Principal citizen;
  citizen.email = "cidadao";
  citizen.nome = "Cidadão (token de acesso da vistoria)";
  citizen.tenant_id = t.tenant.id;
  citizen.tenant_slug = t.tenant.slug;
  std::string answer;
  t.db->run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      use_tenant_zone(s, t.tenant);
      std::string status = authenticate(s, t.id, token, true);
      // Fields are judged only after the token: a caller without it learns nothing.
      auto in = parse_citizen(req.body);
      for (const auto& key : in.fotos_cidadao)
        if (!files.exists(key))
          throw Error(errc::invalid_argument, "foto não encontrada no armazenamento: " + key, "fotos_cidadao");
      if (status == "concluida" || status == "cancelada")
        throw Error(errc::conflict, "a vistoria está " + status + " e não aceita mais alterações", "status");
      auto before = vistoria_json(s, t.id);
      store::Sql sql("update atendimento.vistoria set atualizado_em = now()");
      for (const auto& c : in.columns) {
        sql << ", " << c.column << " = ";
        sql.bind(c.value, c.cast);
      }
      sql << " where agendamento_id = ";
      sql.bind(t.id, "bigint");
      store::execute(s, sql);
      store::record_audit(s, "atendimento.vistoria", t.id, store::Operation::update, citizen, before,
                          vistoria_json(s, t.id));
      answer = public_json(s, t.id);
    });
  });
  return Response::json(std::move(answer));
}

}  // namespace cadastre::server::desk
