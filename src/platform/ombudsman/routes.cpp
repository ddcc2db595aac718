// Ombudsman (/ouv): citizens report a problem on the map without an account, in a
// municipality that enabled it ("ouvidoria" in the modulos of its configuration), named by
// the query parameter `cidade` (its slug, as /ouv/cidades lists). Filing is throttled per
// client address; the answer carries the protocol and a follow-up token shown once (only
// its hash is stored). Public answers never carry the citizen's contact (LGPD); the staff
// bring the requests into a project layer with POST /importar/add/ouv and work them there.
// See docs/platform-ombudsman-wikimap.md.
#include <soci/soci.h>

#include <algorithm>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "platform/app.hpp"
#include "platform/jobs/jobs.hpp"
#include "platform/jobs/parameters.hpp"
#include "platform/ombudsman/input.hpp"
#include "platform/ombudsman/store.hpp"
#include "platform/schemas.hpp"
#include "store/rate_limit.hpp"

namespace cadastre::platform::ombudsman {
namespace {

using http::Request;
using http::Response;

constexpr const char* kTag = "Ouvidoria";
// Filings per client address per hour (across municipalities): enough for a family sharing
// an address, too few for a flood. In memory, per process, like the login throttle.
constexpr int kFilingsPerHour = 10;

// The municipality a public caller names in `cidade`, resolved by the auth scheme "cidade"
// (as cadastre-server's schemes resolve theirs) before the handler runs.
struct City {
  store::Pool* db;
};

// The scheme's hook: 404 for an unknown, inactive or not enabled municipality.
void resolve_city(store::Identity& identity, store::TenantPools& tenants, Request& req) {
  std::string slug = city_param(req);
  auto t = identity.tenant(slug);
  if (!t || !t->ativo || !ombudsman_enabled(t->config_json))
    throw Error(errc::not_found, "cidade sem ouvidoria: " + slug, "cidade");
  req.tenant = slug;
  req.auth = City{&tenants.pool(*t)};
}

struct Ombudsman {
  store::Identity* identity;
  std::unique_ptr<store::RateLimit> filings;  ///< per address, every filing counts, accepted or not

  // The municipality the scheme resolved (a route without the scheme fails closed: 500).
  static store::Pool& city(const Request& req) {
    if (const auto* c = std::any_cast<City>(&req.auth)) return *c->db;
    throw std::logic_error("rota da ouvidoria sem o esquema cidade");
  }

  Response cities(Request&) const {
    auto all = identity->tenants();
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.nome < b.nome; });
    JsonWriter w;
    w.begin_array();
    for (const auto& t : all) {
      if (!t.ativo || !ombudsman_enabled(t.config_json)) continue;
      w.begin_object().key("cidade").value(t.slug).key("nome").value(t.nome).key("uf");
      if (t.uf.empty()) w.null();
      else w.value(t.uf);
      w.end_object();
    }
    w.end_array();
    return Response::json(std::move(w).str());
  }
  Response legend(Request& req) const { return Response::json(ombudsman::legend(city(req))); }
  Response list(Request& req) const {
    auto& pool = city(req);
    Page page = parse_page(req, "criadoEm", true);
    return Response::json(page_json(public_page(pool, parse_search(req), page), page));
  }
  Response layer(Request& req) const {
    auto& pool = city(req);
    std::int64_t id = query::parse_integer(req.param("id"), "id", 1, INT64_MAX);
    return Response::text(layer_features(pool, id), "application/geo+json");
  }
  Response file(Request& req) const {
    auto& pool = city(req);
    Report r = parse_report(req);
    filings->take(req.remote_addr, "muitos pedidos deste endereço; tente mais tarde");
    Filed f = file_request(pool, r);
    JsonWriter w;
    w.begin_object().key("id").value(f.id).key("protocolo").value(f.protocolo).key("token").value(f.token);
    w.key("status").value("aberto").key("cidade").value(req.tenant);
    w.key("mensagem").value("guarde o protocolo e o token: o token não será mostrado de novo").end_object();
    return Response::json(std::move(w).str(), 201);
  }
  Response ask(Request& req) const {
    auto& pool = city(req);
    RequestKey key = parse_request_key(req.param("id"));
    FollowUp f = parse_follow_up(req.body);
    return Response::json(follow_up(pool, key, f.token, f.mensagem));
  }
};

// The staff import runs as a job of tipo "ouv" (platform/jobs): 202 at once, the copy in
// the job's own transaction; the same codigo again by the same user gives the first job.
Response import_requests(jobs::Runner& runner, const service::Scope& s, Request& req) {
  ImportParams p = parse_import(req);
  const std::int64_t layer = s.grant().id;
  check_target(*s.db, layer);
  JsonWriter params;
  params.begin_object().key("idCamada").value(layer).key("codigo").value(p.codigo).key("xdzs").begin_array();
  for (const auto& st : p.statuses) params.value(st);
  params.end_array().end_object();
  jobs::Job job{.tipo = "ouv", .handler = {}, .parametros = std::move(params).str(), .codigo = p.codigo,
                .projeto = s.grant().project_id, .entrada = std::nullopt};
  jobs::Submitted sub = runner.submit(s, std::move(job));
  return Response::json(jobs::accepted_json(runner, s, sub), 202);
}

// The job, on whichever instance claimed it: the copy, with the parameters the route wrote.
void run_import(jobs::Context& ctx) {
  const jobs::Parameters par(ctx.parametros());
  const std::int64_t layer = par.required_integer("idCamada");
  ImportParams p{par.required_text("codigo"), par.texts("xdzs")};
  ctx.db().with([&](soci::session& session) {
    import_into_layer(session, layer, ctx.user_id(), p, [&](soci::session& tx, const Imported& out) {
      ctx.counts().lidas = out.criados + out.atualizados;
      ctx.counts().importadas = out.criados;
      ctx.complete(tx);
    });
  });
}

}  // namespace
}  // namespace cadastre::platform::ombudsman

namespace cadastre::platform {

void add_ombudsman_routes(App& app) {
  using namespace ombudsman;
  app.server().add_auth_scheme(
      {"cidade",
       R"({"type":"apiKey","in":"query","name":"cidade","description":"não é uma credencial: o município (slug, como em /ouv/cidades) com a ouvidoria habilitada; outro → 404"})",
       [identity = &app.identity(), tenants = &app.tenants()](Request& req, const http::Route&) {
         resolve_city(*identity, *tenants, req);
       }});
  auto o = std::make_shared<const Ombudsman>(Ombudsman{
      &app.identity(),
      std::make_unique<store::RateLimit>(app.platform(), "ouvidoria", store::RateLimitOptions{.max = kFilingsPerHour})});
  const http::Param cidade{.name = "cidade", .required = true,
                           .description = "o município (slug, como em /ouv/cidades)"};
  std::vector<http::Param> list_params = page_params(kOrderColumns);
  list_params.push_back(cidade);
  list_params.push_back({.name = "q", .description = "busca sem acentos no protocolo, na categoria e na descrição"});
  const std::string report = R"({"descricao", "categoria" (chave de /ouv/legenda), "longitude", "latitude", )"
                             R"("nome"?, "email"?, "telefone"?, "foto"? (base64, até 2 MB: png, jpg, gif, webp)}; )"
                             R"(ou multipart/form-data com as mesmas partes (foto como arquivo))";
  auto runner = jobs::runner(app);
  runner->handle("ouv", run_import);
  auto& srv = app.server();
  srv.add({.method = "GET", .pattern = "/ouv/cidades", .auth = "none", .tag = kTag,
           .summary = "Os municípios com ouvidoria (sem conta)", .answer_schema = schemas::list_of("CidadeOuvidoria"),
           .handler = service::unscoped(o, &Ombudsman::cities)});
  srv.add({.method = "GET", .pattern = "/ouv/legenda", .auth = "cidade",
           .access = http::holders("nenhuma conta: o município de cidade, com a ouvidoria habilitada"), .tag = kTag,
           .summary = "As categorias de pedido do município (sem conta)", .params = {cidade},
           .answer_schema = schemas::list_of("CategoriaOuvidoria"), .handler = service::unscoped(o, &Ombudsman::legend)});
  srv.add({.method = "GET", .pattern = "/ouv/", .auth = "cidade",
           .access = http::holders("nenhuma conta: o município de cidade, com a ouvidoria habilitada"), .tag = kTag,
           .summary = "Os pedidos do município, sem dados pessoais (sem conta), paginados", .params = list_params,
           .answer_schema = schemas::page_of("PedidoOuvidoria"), .handler = service::unscoped(o, &Ombudsman::list)});
  srv.add({.method = "GET", .pattern = "/ouv/camadas/{id}/geometrias", .auth = "cidade",
           .access = http::holders("nenhuma conta: o município de cidade, com a ouvidoria habilitada"), .tag = kTag,
           .summary = "Os pedidos copiados para uma camada, em GeoJSON, sem dados pessoais (sem conta)",
           .params = {cidade}, .answers = "application/geo+json",
           .answer_schema = schemas::ref("PedidosOuvidoriaGeoJson"), .handler = service::unscoped(o, &Ombudsman::layer)});
  srv.add({.method = "POST", .pattern = "/ouv/contato", .auth = "cidade",
           .access = http::holders("nenhuma conta: o município de cidade, com a ouvidoria habilitada"), .tag = kTag,
           .summary = "Registra um pedido do cidadão (sem conta; limitado por endereço): protocolo e token de "
                      "acompanhamento, mostrado uma vez",
           .params = {cidade},
           .body = {.description = report, .max_bytes = (3u << 20) + 65536, .schema = schemas::ref("PedidoOuvidoriaNovo")},
           .answer_status = 201, .answer_schema = schemas::ref("ProtocoloOuvidoria"), .handler = service::unscoped(o, &Ombudsman::file)});
  srv.add({.method = "POST", .pattern = "/ouv/pedir/{id}", .auth = "cidade",
           .access = http::holders("nenhuma conta: o município de cidade, com a ouvidoria habilitada"), .tag = kTag,
           .summary = "Pede informação sobre um pedido (protocolo ou número, com o token): status e histórico público",
           .params = {cidade},
           .body = {.description = R"({"token", "mensagem"?})", .max_bytes = 8192,
                    .schema = schemas::ref("PedidoInformacaoOuvidoria")},
           .answer_schema = schemas::ref("AcompanhamentoOuvidoria"), .handler = service::unscoped(o, &Ombudsman::ask)});
  srv.add({.method = "POST", .pattern = "/importar/add/ouv", .auth = "sessao",
           .access = http::on("camada", "idCamada", "edicao"), .tag = "Importação e conversão",
           .summary = "Copia os pedidos da ouvidoria para uma camada de pontos (e traz de volta os status mudados nela), "
                      "numa tarefa (202 com o id; acompanhe em /importar/pendentes)",
           .params = {{.name = "codigo", .required = true,
                       .description = "código desta importação (até 64 de [A-Za-z0-9_.-]); repetido na mesma camada, "
                                      "responde a primeira sem copiar de novo"},
                      {.name = "idCamada", .type = "integer", .required = true,
                       .description = "a camada de pontos de destino (edição)"},
                      {.name = "xdzs", .required = true,
                       .description = "os status a copiar, separados por vírgula (aberto, em_analise, em_atendimento, "
                                      "concluido, recusado), ou todos"}},
           .answer_status = 202, .answer_schema = schemas::ref("ImportacaoAceita"),
           .handler = service::scoped([runner](const service::Scope& s, Request& r) {
             return import_requests(*runner, s, r);
           })});
}

}  // namespace cadastre::platform
