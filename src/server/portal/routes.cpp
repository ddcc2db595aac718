// Portal (/portal): the taxpayer-facing views of the cadastre, on the main bearer scheme.
//
//   GET  /portal/{municipio}/imovel               property search (unit, lot, address), paged
//   GET  /portal/{municipio}/avaliacao/terreno    land value of a unit's lot (stored data)
//   POST /portal/{municipio}/avaliacao/construcao construction value of the posted input
//   GET  /portal/{municipio}/avaliacao/iptu       IPTU of a unit (stored lot, unit, buildings)
//   GET  /portal/cache-reloader                   drops the caches of the caller's tenant (admin)
//
// Valuations use the tenant's profile (server/valuation/profiles.hpp) and answer the
// library's result with its full breakdown, next to the stored data it was computed from
// (portal_property.hpp; the use-code mapping is server/portal/uses.hpp). Stored data the
// profile cannot value (a code it lacks, a lot without block face) is a 422 naming the
// field; input posted by the caller is a 400, as on /equacao.
//
// Access: reading a property needs read permission on the layers it comes from
// (imobiliario and lote; edificacao too for the IPTU).
#include <soci/soci.h>

#include <chrono>
#include <initializer_list>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "server/app.hpp"
#include "server/portal/property.hpp"
#include "server/valuation/profiles.hpp"
#include "service/geojson.hpp"
#include "store/sql.hpp"

namespace cadastre::server {
namespace {

using http::Param;
using http::Request;
using http::Response;

void require_read(App& app, const Request& req, std::initializer_list<const char*> layers) {
  const Context& ctx = context(req);
  auto perms = app.identity().permissions(ctx.user.user_id);
  for (const char* layer : layers)
    if (!store::layer_allowed(perms, layer, false, ctx.user.admin))
      throw Error(errc::forbidden,
                  std::string("sem permissão de leitura na camada '") + layer + "'");
}

// Errors of the equations on stored data are the data's (or the profile's), not the
// request's: 422 with the library's message and field.
template <class F>
auto valuing(const StoredProperty& p, F&& fn) {
  try {
    return fn();
  } catch (const Error& e) {
    if (e.code() != errc::invalid_argument && e.code() != errc::unknown_code &&
        e.code() != errc::missing_field)
      throw;
    throw Error(errc::unprocessable,
                "o imóvel " + p.inscricao_cartografica +
                    " não pode ser avaliado com o perfil do município: " + e.what(),
                e.field());
  }
}

std::string answer(const StoredProperty& p, const TenantProfile& profile,
                   const valuation::Result& r, std::optional<int> reference_year) {
  JsonWriter w;
  w.begin_object().key("imovel");
  write_property(w, p);
  w.key("perfil").value(profile.nome);
  if (reference_year) w.key("ano_referencia").value(*reference_year);
  w.key("avaliacao").raw(r.to_json()).end_object();
  return std::move(w).str();
}

Response land(App& app, Request& req) {
  require_read(app, req, {"imobiliario", "lote"});
  const Context& ctx = context(req);
  auto p = load_property(*ctx.db, req, false);
  auto profile = app.valuation_profiles().get(ctx.tenant, *ctx.db);
  auto r = valuing(p, [&] { return valuation::land_value(land_input(p), profile->profile); });
  return Response::json(answer(p, *profile, r, std::nullopt));
}

// The year ages are counted to: ano_referencia of the query, else the profile's, else the
// current year (the portal values properties as of today).
std::optional<int> reference_year(const Request& req, const valuation::Profile& profile) {
  if (auto y = req.query_value("ano_referencia"))
    return static_cast<int>(query::parse_integer(*y, "ano_referencia", 1, 9999));
  if (profile.reference_year) return std::nullopt;
  std::chrono::year_month_day today{
      std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now())};
  return static_cast<int>(today.year());
}

Response iptu(App& app, Request& req) {
  require_read(app, req, {"imobiliario", "lote", "edificacao"});
  const Context& ctx = context(req);
  auto profile = app.valuation_profiles().get(ctx.tenant, *ctx.db);
  auto year = reference_year(req, profile->profile);
  auto p = load_property(*ctx.db, req, true);
  auto r = valuing(p, [&] { return valuation::iptu(iptu_input(p, year), profile->profile); });
  return Response::json(answer(p, *profile, r, year ? year : profile->profile.reference_year));
}

Response construction(App& app, Request& req) {
  const Context& ctx = context(req);
  auto profile = app.valuation_profiles().get(ctx.tenant, *ctx.db);
  auto r = valuation::construction_value(valuation::ConstructionInput::from_json(req.body),
                                         profile->profile);
  JsonWriter w;
  w.begin_object()
      .key("perfil")
      .value(profile->nome)
      .key("avaliacao")
      .raw(r.to_json())
      .end_object();
  return Response::json(std::move(w).str());
}

// Property search. Filters: inscricao_cartografica, numero_cadastro, inscricao_lote and
// uso match exactly; logradouro and bairro match names case- and accent-insensitively.
Response search(App& app, Request& req) {
  require_read(app, req, {"imobiliario", "lote"});
  auto paging = query::normalize_paging(req.query);
  store::Sql sql(
      "with base as (select i.id, i.inscricao_cartografica, i.numero_cadastro, i.complemento, "
      "i.uso, "
      "i.fracao_ideal, i.area_privativa, l.id as lote_id, l.inscricao as lote_inscricao, "
      "trim(coalesce(g.tipo || ' ', '') || coalesce(g.nome, '')) as logradouro, l.numero, b.nome "
      "as bairro "
      "from cadastro.imobiliario i join cadastro.lote l on l.id = i.lote_id "
      "left join cadastro.logradouro g on g.id = l.logradouro_id "
      "left join cadastro.quadra q on q.id = l.quadra_id left join cadastro.bairro b on b.id = "
      "q.bairro_id "
      "where true");
  auto exact = [&](const char* param, const char* column) {
    if (auto v = req.query_value(param)) {
      sql << " and " << column << " = ";
      sql.bind(*v);
    }
  };
  auto named = [&](const char* param, const char* column) {
    if (auto v = req.query_value(param)) {
      sql << " and unaccent(" << column << ") ilike unaccent(";
      sql.bind(query::like_pattern(query::FilterType::icontains, *v)) << ")";
    }
  };
  exact("inscricao_cartografica", "i.inscricao_cartografica");
  exact("numero_cadastro", "i.numero_cadastro");
  exact("inscricao_lote", "l.inscricao");
  exact("uso", "i.uso");
  named("logradouro", "g.nome");
  named("bairro", "b.nome");
  sql << ") select (select count(*) from base)::text, (select coalesce(json_agg(json_build_object("
         "'id', p.id, 'inscricao_cartografica', p.inscricao_cartografica, 'numero_cadastro', "
         "p.numero_cadastro, "
         "'complemento', p.complemento, 'uso', p.uso, 'fracao_ideal', p.fracao_ideal, "
         "'area_privativa', p.area_privativa, 'lote', json_build_object('id', p.lote_id, "
         "'inscricao', "
         "p.lote_inscricao), 'endereco', json_build_object('logradouro', p.logradouro, 'numero', "
         "p.numero, "
         "'bairro', p.bairro)) order by p.id), '[]') from (select * from base order by id limit "
      << std::to_string(paging.size) << " offset " << std::to_string(paging.offset) << ") p)::text";
  auto rows = context(req).db->with([&](soci::session& s) { return store::fetch(s, sql); });
  JsonWriter w;
  w.begin_object().key("total").value(
      static_cast<std::int64_t>(std::stoll(rows.at(0)[0].value_or("0"))));
  w.key("pagina").value(paging.page).key("limite").value(paging.size);
  w.key("registros").raw(rows.at(0)[1].value_or("[]")).end_object();
  return Response::json(std::move(w).str());
}

Response reload_caches(App& app, Request& req) {
  const Context& ctx = context(req);
  if (!ctx.user.admin)
    throw Error(errc::forbidden, "somente administradores podem recarregar os caches");
  app.identity().reload();
  app.catalogs().invalidate(ctx.tenant.id);
  app.valuation_profiles().invalidate(ctx.tenant.id);
  // Loading the profile now reports a broken one to the administrator who just edited it.
  auto profile = app.valuation_profiles().get(ctx.tenant, *ctx.db);
  JsonWriter w;
  w.begin_object().key("municipio").value(ctx.tenant.slug).key("recarregados").begin_array();
  for (const char* what : {"configuracao_municipio", "perfil_avaliacao", "catalogo_camadas"})
    w.value(what);
  w.end_array().key("perfil_avaliacao").value(profile->nome).end_object();
  return Response::json(std::move(w).str());
}

}  // namespace

void add_portal_routes(App& app) {
  auto& srv = app.server();
  const std::string tag = "Portal";
  const std::vector<Param> key = {
      {"id", "query", "integer", false, "id do imóvel (cadastro.imobiliario)"},
      {"inscricao_cartografica", "query", "string", false, "inscrição cartográfica do imóvel"},
      {"numero_cadastro", "query", "string", false, "número de cadastro do imóvel"}};
  const std::string key_rule =
      " Informe exatamente um entre id, inscricao_cartografica e numero_cadastro (400 caso "
      "contrário); imóvel "
      "inexistente → 404; dado armazenado que o perfil não avalia → 422.";
  srv.add({.method = "GET",
           .pattern = "/portal/{municipio}/imovel",
           .auth = "bearer",
           .tag = tag,
           .summary = "Busca imóveis: {total, pagina, limite, registros: [{id, "
                      "inscricao_cartografica, numero_cadastro, "
                      "complemento, uso, fracao_ideal, area_privativa, lote: {id, inscricao}, "
                      "endereco: {logradouro, numero, "
                      "bairro}}]}, ordenados por id. Parâmetro desconhecido → 400. Requer leitura "
                      "em imobiliario e lote.",
           .params = paging_params(
               {{"inscricao_cartografica", "query", "string", false, "igual a"},
                {"numero_cadastro", "query", "string", false, "igual a"},
                {"inscricao_lote", "query", "string", false, "inscrição do lote, igual a"},
                {"uso", "query", "string", false, "código de dominio.uso, igual a"},
                {"logradouro", "query", "string", false,
                 "parte do nome do logradouro (sem distinção de caixa e acento)"},
                {"bairro", "query", "string", false,
                 "parte do nome do bairro (sem distinção de caixa e acento)"}}),
           .handler = [&app](Request& r) { return search(app, r); }});
  srv.add({.method = "GET",
           .pattern = "/portal/{municipio}/avaliacao/terreno",
           .auth = "bearer",
           .tag = tag,
           .summary = "Valor venal do terreno do lote do imóvel, calculado do lote armazenado "
                      "(area_terreno, testada, "
                      "profundidade, topografia, pedologia, situacao e valor_m2 da face de "
                      "quadra): {imovel, perfil, avaliacao: "
                      "{tipo, valor, formula, fatores, intermediarios, ...}}." +
                      key_rule + " Requer leitura em imobiliario e lote.",
           .params = key,
           .handler = [&app](Request& r) { return land(app, r); }});
  srv.add({.method = "POST",
           .pattern = "/portal/{municipio}/avaliacao/construcao",
           .auth = "bearer",
           .tag = tag,
           .summary = "Valor venal de uma construção com o perfil do município: {perfil, "
                      "avaliacao}. Entrada inválida → 400 "
                      "nomeando o campo.",
           .body = {.description = "{\"area_construida\": m², \"padrao\": código NBR 12721, "
                                   "\"idade\" | \"ano_construcao\" "
                                   "(+ \"ano_referencia\"?), \"conservacao\": a–h, \"uso\"?, "
                                   "\"vida_util\"?, \"valor_residual\"?}"},
           .handler = [&app](Request& r) { return construction(app, r); }});
  auto iptu_params = key;
  iptu_params.push_back(
      {"ano_referencia", "query", "integer", false,
       "ano até o qual se conta a idade das edificações (padrão: o do perfil, senão o ano atual)"});
  srv.add({.method = "GET",
           .pattern = "/portal/{municipio}/avaliacao/iptu",
           .auth = "bearer",
           .tag = tag,
           .summary = "IPTU do imóvel: VVI = VVT × fracao_ideal + Σ VVE, com as edificações do "
                      "lote na proporção da "
                      "fracao_ideal do imóvel (imóvel territorial: só o terreno); alíquota pelo "
                      "uso (tabela de usos em "
                      "server/portal/uses.cpp). Responde {imovel (com edificacoes), perfil, "
                      "ano_referencia, avaliacao}." +
                      key_rule + " Requer leitura em imobiliario, lote e edificacao.",
           .params = iptu_params,
           .handler = [&app](Request& r) { return iptu(app, r); }});
  srv.add({.method = "GET",
           .pattern = "/portal/cache-reloader",
           .auth = "bearer",
           .tag = tag,
           .summary = "Recarrega os caches do município do usuário: configuração do município, "
                      "perfil de avaliação e catálogos "
                      "de camadas. Somente administradores (403 para os demais). Responde "
                      "{municipio, recarregados, "
                      "perfil_avaliacao}; um perfil armazenado inválido → 422.",
           .handler = [&app](Request& r) { return reload_caches(app, r); }});
}

}  // namespace cadastre::server
