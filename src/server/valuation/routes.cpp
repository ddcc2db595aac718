// Valuation (/equacao/calculo/{municipio}/terreno|construcao/calcularvalor/): the land and
// construction equations of docs/valuation.md over HTTP, with the tenant's
// valuation profile (server/valuation/profiles.hpp).
//
// These routes serve integrations, not people: they use their own bearer scheme
// "valuation", whose tokens are API clients of scope 'avaliacao' (plataforma.clientes_api,
// issued by `cadastre-admin client add --scope avaliacao`). User session tokens are not
// accepted here, nor valuation tokens on the main scheme: the two live in different
// tables. {municipio} must be the client's own tenant (403 otherwise).
#include <memory>

#include "cadastre/error.hpp"
#include "cadastre/valuation.hpp"
#include "server/app.hpp"
#include "server/valuation/profiles.hpp"
#include "store/api_clients.hpp"

namespace cadastre::server {
namespace {

using http::Request;
using http::Response;

/// What the valuation scheme establishes for a request (in Request::auth).
struct ValuationContext {
  store::ApiClient client;
  store::Tenant tenant;
  store::Pool* db = nullptr;
};

const ValuationContext& valuation_context(const Request& req) {
  const auto* c = std::any_cast<ValuationContext>(&req.auth);
  if (!c) throw Error(errc::internal, "rota sem contexto de autenticação de avaliação");
  return *c;
}

void authenticate(const service::Tenancy& tenancy, store::ApiClients& clients, Request& req) {
  auto token = req.bearer_token();
  if (!token)
    throw Error(errc::unauthenticated,
                "credencial ausente: envie Authorization: Bearer <token de avaliação>");
  auto client = clients.authenticate_bearer(*token, "avaliacao");
  if (!client) throw Error(errc::unauthenticated, "token de avaliação inválido ou revogado");
  const std::string& slug = req.param("municipio");
  auto tenant = tenancy.active(slug);
  if (!tenant)
    throw Error(errc::tenant_forbidden, "município desconhecido ou inativo: " + slug);
  if (tenant->id != client->tenant_id)
    throw Error(errc::tenant_forbidden, "o token de avaliação não pertence ao município " + slug);
  ValuationContext ctx{std::move(*client), std::move(*tenant), nullptr};
  ctx.db = &tenancy.pool(ctx.tenant);
  req.tenant = ctx.tenant.slug;
  req.auth = std::move(ctx);
}

Response land(ValuationProfiles& profiles, Request& req) {
  const auto& ctx = valuation_context(req);
  auto profile = profiles.get(ctx.tenant, *ctx.db);
  auto input = valuation::LandInput::from_json(req.body);
  return Response::json(valuation::land_value(input, profile->profile).to_json());
}

Response construction(ValuationProfiles& profiles, Request& req) {
  const auto& ctx = valuation_context(req);
  auto profile = profiles.get(ctx.tenant, *ctx.db);
  auto input = valuation::ConstructionInput::from_json(req.body);
  return Response::json(valuation::construction_value(input, profile->profile).to_json());
}

}  // namespace

void add_valuation_routes(App& app) {
  auto clients =
      std::make_shared<store::ApiClients>(app.identity().pool(), app.options().token_ttl);
  app.server().add_auth_scheme(
      {"valuation",
       R"json({"type":"http","scheme":"bearer","description":"token de cliente de API com escopo avaliacao, emitido por cadastre-admin client add --scope avaliacao (tokens de usuário não valem aqui)"})json",
       [tenancy = &app.tenancy(), clients](Request& req, const http::Route&) {
         authenticate(*tenancy, *clients, req);
       }});

  auto& srv = app.server();
  ValuationProfiles* profiles = &app.valuation_profiles();
  const std::string tag = "Avaliação";
  const std::string answer =
      " Responde {tipo, valor, formula, fatores: [{nome, valor, entrada, regra}], intermediarios, "
      "faixas, "
      "componentes} (memória de cálculo completa). Entrada inválida → 400 nomeando o campo; código "
      "desconhecido no "
      "perfil → 400 codigo_desconhecido. Usa o perfil de avaliação ativo do município "
      "(avaliacao.perfil) ou o perfil "
      "padrão.";
  srv.add({.method = "POST",
           .pattern = "/equacao/calculo/{municipio}/terreno/calcularvalor/",
           .auth = "valuation",
           .access = http::holders("um token de cliente de API com escopo avaliacao do município"),
           .tag = tag,
           .summary = "Valor venal do terreno: VVT = area × valor_m2 × Ft × Fp × Ftopo × Fped × "
                      "Fsit (Fg no lugar de Ft × Fp "
                      "para glebas)." +
                      answer,
           .body = {.description =
                        "{\"area\": m², \"frente\": m, \"valor_m2\": R$/m² (ou "
                        "\"face_quadra\"/\"zona\" resolvidos pelo perfil), "
                        "\"topografia\", \"pedologia\", \"situacao\", \"profundidade\"?: m}"},
           .handler = [profiles](Request& r) { return land(*profiles, r); }});
  srv.add({.method = "POST",
           .pattern = "/equacao/calculo/{municipio}/construcao/calcularvalor/",
           .auth = "valuation",
           .access = http::holders("um token de cliente de API com escopo avaliacao do município"),
           .tag = tag,
           .summary = "Valor venal da construção: VVE = area_construida × CUB(padrao) × Foc, "
                      "depreciação de Ross–Heidecke." +
                      answer,
           .body = {.description = "{\"area_construida\": m², \"padrao\": código NBR 12721 (ex.: "
                                   "R1-N), \"idade\" | \"ano_construcao\" "
                                   "(+ \"ano_referencia\"?), \"conservacao\": a–h, \"uso\"?, "
                                   "\"vida_util\"?, \"valor_residual\"?}"},
           .handler = [profiles](Request& r) { return construction(*profiles, r); }});
}

}  // namespace cadastre::server
