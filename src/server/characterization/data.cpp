// GET /caracterizacao/{municipio}/get-data/{id_lote}: everything the characterization form
// shows of a lot, in one statement (json_build_object over correlated subqueries):
//   lote        the lot as a GeoJSON Feature (read permission on lote is required: 403)
//   edificacoes its buildings as Features                     (layer edificacao)
//   unidades    its property units, each with `pessoas`:       (layer imobiliario; pessoas
//               the linked people with papel and percentual     need layer pessoa)
//   midia       files linked to the lot or to one of its units (layer midia)
//   vistorias   reservations of the lot or its units, each with its inspection or null
//               (layer agendamento); the inspection's access token hash is never selected
// Sections the caller may not read are left out and named in `sem_permissao`.
#include <soci/soci.h>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "server/characterization/routes.hpp"
#include "server/layer_access.hpp"
#include "store/features.hpp"
#include "store/sql.hpp"

namespace cadastre::server {
namespace {

constexpr const char* kMediaColumns =
    "json_build_object('id', a.id, 'chave', a.chave, 'nome', a.nome, 'extensao', a.extensao, 'content_type', "
    "a.content_type, 'tamanho', a.tamanho, 'sha256', a.sha256, 'descricao', a.descricao, 'lote_id', a.lote_id, "
    "'imobiliario_id', a.imobiliario_id, 'criado_em', a.criado_em)";

// Explicit columns: atendimento.vistoria also holds token_hash, which must never leave.
constexpr const char* kVisitColumns =
    "json_build_object('id', r.id, 'inicio', r.inicio, 'fim', r.fim, 'status', r.status, 'vistoriador', "
    "r.vistoriador, 'lote_id', r.lote_id, 'imobiliario_id', r.imobiliario_id, 'protocolo', r.protocolo, "
    "'solicitante_nome', r.solicitante_nome, 'observacao', r.observacao, 'criado_em', r.criado_em, 'vistoria', "
    "case when v.agendamento_id is null then null else json_build_object('status', v.status, 'checklist', "
    "v.checklist, 'constatacoes', v.constatacoes, 'fotos', v.fotos, 'criado_em', v.criado_em) end)";

}  // namespace

http::Response lot_package(App& app, http::Request& req) {
  LayerRef lote = layer_for(app, req, "lote", false);
  std::string id = record_id(*lote, req.param("id_lote"));
  const Context& ctx = context(req);
  auto perms = app.identity().permissions(ctx.user.user_id);
  std::vector<std::string> denied;
  // A section is shown when its layer may be read (and, for cadastro layers, exists).
  auto readable = [&](const char* layer, bool in_catalog) {
    if (in_catalog && !lote.catalog->find(layer)) return false;
    if (store::layer_allowed(perms, layer, false, ctx.user.admin)) return true;
    denied.emplace_back(layer);
    return false;
  };
  const bool buildings = readable("edificacao", true), units = readable("imobiliario", true);
  const bool people = units && readable("pessoa", true);
  const bool media = readable("midia", false), visits = readable("agendamento", false);

  const store::Column& pk = *lote->column(lote->primary_key);
  store::Sql sql("with l as materialized (select * from ");
  sql << lote->qualified() << " t where t." << query::quote_identifier(pk.name) << " = ";
  sql.bind(id, pk.type)
      << "), u as materialized (select * from cadastro.imobiliario where lote_id = (select id from l)) "
      << "select json_build_object('lote', (select " << store::feature_expression(*lote, "l") << " from l)";
  if (buildings) {
    const store::Layer& e = *lote.catalog->find("edificacao");
    sql << ", 'edificacoes', (select coalesce(json_agg(" << store::feature_expression(e, "e") << " order by e.id), '[]') from "
        << e.qualified() << " e where e.lote_id = (select id from l))";
  }
  if (units) {
    sql << ", 'unidades', (select coalesce(json_agg(to_jsonb(u)";
    if (people) {
      sql << " || jsonb_build_object('pessoas', (select coalesce(jsonb_agg(to_jsonb(p) || jsonb_build_object('papel', "
          << "ip.papel, 'percentual', ip.percentual) order by p.id, ip.papel), '[]'::jsonb) from "
          << "cadastro.imobiliario_pessoa ip join cadastro.pessoa p on p.id = ip.pessoa_id where ip.imobiliario_id = u.id))";
    }
    sql << " order by u.id), '[]') from u)";
  }
  if (media) {
    sql << ", 'midia', (select coalesce(json_agg(" << kMediaColumns << " order by a.id), '[]') from midia.arquivo a "
        << "where a.lote_id = (select id from l) or a.imobiliario_id in (select id from u))";
  }
  if (visits) {
    sql << ", 'vistorias', (select coalesce(json_agg(" << kVisitColumns << " order by r.inicio, r.id), '[]') from "
        << "agendamento.reserva r left join atendimento.vistoria v on v.agendamento_id = r.id "
        << "where r.lote_id = (select id from l) or r.imobiliario_id in (select id from u))";
  }
  JsonWriter names;
  names.begin_array();
  for (const auto& d : denied) names.value(d);
  names.end_array();
  sql << ", 'sem_permissao', ";
  sql.bind(names.str(), "json") << ")::text from l";

  auto package = ctx.db->with([&](soci::session& s) { return store::fetch_value(s, sql); });
  if (!package) throw Error(errc::not_found, "lote " + id + " não encontrado", "id_lote");
  return http::Response::json(std::move(*package));
}

}  // namespace cadastre::server
