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
// (server/portal/property.hpp; the stored data → valuation input rules, use-code table
// included, are the shared library cadastre_property, src/property/). Stored data the
// profile cannot value (a code it lacks, a lot without block face) is a 422 naming the
// field; input posted by the caller is a 400, as on /equacao.
//
// Access: reading a property needs read permission on the layers it comes from
// (imobiliario and lote; edificacao too for the IPTU): the route table names imobiliario,
// the handler checks the others through the scope (http::Access names one layer).
#include <chrono>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "server/app.hpp"
#include "server/portal/input.hpp"
#include "server/portal/property.hpp"
#include "server/portal/store.hpp"
#include "server/valuation/profiles.hpp"
#include "service/geojson.hpp"
#include "service/paging.hpp"

namespace cadastre::server {
namespace {

using http::Param;
using http::Request;
using http::Response;
using service::Scope;

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

StoredProperty load(const Scope& s, const portal::PropertyKey& key, bool with_buildings) {
  return s.db->with(
      [&](soci::session& db) { return portal::load_property(db, key, with_buildings); });
}

Response land(ValuationProfiles& profiles, const Scope& s, Request& req) {
  auto p = load(s, portal::parse_property_key(req), false);
  auto profile = profiles.get(s.tenant, *s.db);
  auto r = property::valuing(p, [&] { return valuation::land_value(land_input(p), profile->profile); });
  return Response::json(answer(p, *profile, r, std::nullopt));
}

// The year ages are counted to: ano_referencia of the query, else the profile's, else the
// current year (the portal values properties as of today).
std::optional<int> reference_year(const Request& req, const valuation::Profile& profile) {
  if (auto y = portal::parse_reference_year(req)) return y;
  if (profile.reference_year) return std::nullopt;
  std::chrono::year_month_day today{
      std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now())};
  return static_cast<int>(today.year());
}

Response iptu(ValuationProfiles& profiles, const Scope& s, Request& req) {
  auto profile = profiles.get(s.tenant, *s.db);
  auto year = reference_year(req, profile->profile);
  auto p = load(s, portal::parse_property_key(req), true);
  auto r = property::valuing(p, [&] { return valuation::iptu(iptu_input(p, year), profile->profile); });
  return Response::json(answer(p, *profile, r, year ? year : profile->profile.reference_year));
}

Response construction(ValuationProfiles& profiles, const Scope& s, Request& req) {
  auto profile = profiles.get(s.tenant, *s.db);
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

// Property search: filters and paging, by id.
Response search(const Scope& s, Request& req) {
  auto in = portal::parse_search(req);
  auto page = s.db->with([&](soci::session& db) { return portal::search_properties(db, in); });
  return Response::json(service::page_envelope(page, in.paging, "registros"));
}

// What GET /portal/cache-reloader drops for the caller's tenant.
struct Caches {
  store::Identity& identity;
  store::CatalogCache& catalogs;
  ValuationProfiles& profiles;
};

Response reload_caches(const Caches& caches, const Scope& s, Request&) {
  caches.identity.reload();
  caches.catalogs.invalidate(s.tenant.id);
  caches.profiles.invalidate(s.tenant.id);
  // Loading the profile now reports a broken one to the administrator who just edited it.
  auto profile = caches.profiles.get(s.tenant, *s.db);
  JsonWriter w;
  w.begin_object().key("municipio").value(s.tenant.slug).key("recarregados").begin_array();
  for (const char* what : {"configuracao_municipio", "perfil_avaliacao", "catalogo_camadas"})
    w.value(what);
  w.end_array().key("perfil_avaliacao").value(profile->nome).end_object();
  return Response::json(std::move(w).str());
}

}  // namespace

void add_portal_routes(App& app) {
  auto& srv = app.server();
  ValuationProfiles* profiles = &app.valuation_profiles();
  Caches caches{app.identity(), app.catalogs(), app.valuation_profiles()};
  auto valued = [profiles](Response (*fn)(ValuationProfiles&, const Scope&, Request&)) {
    return service::scoped(
        [profiles, fn](const Scope& s, Request& r) { return fn(*profiles, s, r); });
  };
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
           .access = http::reads_all({"imobiliario", "lote"}),
           .tag = tag,
           .summary = "Busca imóveis: {total, pagina, limite, registros: [{id, "
                      "inscricao_cartografica, numero_cadastro, "
                      "complemento, uso, fracao_ideal, area_privativa, lote: {id, inscricao}, "
                      "endereco: {logradouro, numero, "
                      "bairro}}]}, ordenados por id. Parâmetro desconhecido → 400.",
           .params = paging_params(
               {{"inscricao_cartografica", "query", "string", false, "igual a"},
                {"numero_cadastro", "query", "string", false, "igual a"},
                {"inscricao_lote", "query", "string", false, "inscrição do lote, igual a"},
                {"uso", "query", "string", false, "código de dominio.uso, igual a"},
                {"logradouro", "query", "string", false,
                 "parte do nome do logradouro (sem distinção de caixa e acento)"},
                {"bairro", "query", "string", false,
                 "parte do nome do bairro (sem distinção de caixa e acento)"}}),
           .handler = service::scoped(search)});
  srv.add({.method = "GET",
           .pattern = "/portal/{municipio}/avaliacao/terreno",
           .auth = "bearer",
           .access = http::reads_all({"imobiliario", "lote"}),
           .tag = tag,
           .summary = "Valor venal do terreno do lote do imóvel, calculado do lote armazenado "
                      "(area_terreno, testada, "
                      "profundidade, topografia, pedologia, situacao e valor_m2 da face de "
                      "quadra): {imovel, perfil, avaliacao: "
                      "{tipo, valor, formula, fatores, intermediarios, ...}}." +
                      key_rule,
           .params = key,
           .handler = valued(land)});
  srv.add({.method = "POST",
           .pattern = "/portal/{municipio}/avaliacao/construcao",
           .auth = "bearer",
           .access = http::members("um cálculo com o perfil de avaliação do município sobre os dados enviados; nada é lido do cadastro"),
           .tag = tag,
           .summary = "Valor venal de uma construção com o perfil do município: {perfil, "
                      "avaliacao}. Entrada inválida → 400 "
                      "nomeando o campo.",
           .body = {.description = "{\"area_construida\": m², \"padrao\": código NBR 12721, "
                                   "\"idade\" | \"ano_construcao\" "
                                   "(+ \"ano_referencia\"?), \"conservacao\": a–h, \"uso\"?, "
                                   "\"vida_util\"?, \"valor_residual\"?}"},
           .handler = valued(construction)});
  auto iptu_params = key;
  iptu_params.push_back(
      {"ano_referencia", "query", "integer", false,
       "ano até o qual se conta a idade das edificações (padrão: o do perfil, senão o ano atual)"});
  srv.add({.method = "GET",
           .pattern = "/portal/{municipio}/avaliacao/iptu",
           .auth = "bearer",
           .access = http::reads_all({"imobiliario", "lote", "edificacao"}),
           .tag = tag,
           .summary = "IPTU do imóvel: VVI = VVT × fracao_ideal + Σ VVE, com as edificações do "
                      "lote na proporção da "
                      "fracao_ideal do imóvel (imóvel territorial: só o terreno); alíquota pelo "
                      "uso (tabela de usos em "
                      "src/property/uses.cpp). Responde {imovel (com edificacoes), perfil, "
                      "ano_referencia, avaliacao}." +
                      key_rule,
           .params = iptu_params,
           .handler = valued(iptu)});
  srv.add({.method = "GET",
           .pattern = "/portal/cache-reloader",
           .auth = "bearer",
           .access = http::admins(),
           .tag = tag,
           .summary = "Recarrega os caches do município do usuário: configuração do município, "
                      "perfil de avaliação e catálogos "
                      "de camadas. Responde "
                      "{municipio, recarregados, "
                      "perfil_avaliacao}; um perfil armazenado inválido → 422.",
           .handler = service::scoped(
               [caches](const Scope& s, Request& r) { return reload_caches(caches, s, r); })});
}

}  // namespace cadastre::server
