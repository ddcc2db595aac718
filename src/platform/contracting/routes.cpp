// Contracting: the plans on sale (GET /planos), quotes (POST /preparar/contratacao/*),
// contracts (POST /contratar/*) and the storage calculators (POST /calculadora/armazenamento/*).
//
// A quote is priced from the tenant's current license and the catalog, stored with a
// SHA-256 of what it priced, and valid for kQuoteHours. Contracting sends its id and hash
// back: in one transaction the quote becomes a contract and the license changes as the
// quote said; the same quote again answers the same contract (200 instead of 201). Money
// is integer centavos; pro rata and taxes are in cadastre/pricing.hpp, the quotes themselves in
// cadastre/quote.hpp; the rules where the spec is silent are in docs/platform-contracting.md.
#include "cadastre/pricing.hpp"
#include "cadastre/quote.hpp"
#include "platform/app.hpp"
#include "platform/contracting/input.hpp"
#include "platform/contracting/store.hpp"
#include "platform/schemas.hpp"

namespace cadastre::platform::contracting {
namespace {

using http::Request;
using http::Response;
using service::Scope;
// Quotes are the library's (cadastre/quote.hpp).
using pricing::addons_quote;
using pricing::Basis;
using pricing::Date;
using pricing::parse_date;
using pricing::Plan;
using pricing::plan_quote;
using pricing::Quote;
using pricing::storage_quote;
using pricing::to_json;
using pricing::users_quote;

constexpr const char* kTag = "Contratação";
constexpr int kQuoteHours = 24;

struct Contracting {
  store::Pool* platform;

  Date today(const Basis& b) const { return parse_date(b.hoje, "data"); }
  Date day_of(const Basis& b, const std::optional<std::string>& data) const {
    return data ? parse_date(*data, "data") : today(b);
  }
  Plan current_plan(const Basis& b) const {
    auto p = b.licenca ? plan_by_code(*platform, b.licenca->plano) : std::nullopt;
    if (!p) throw Error(errc::conflict, "a licença do município não é de um plano à venda: contrate um plano", "licenca");
    return *p;
  }
  Response quote(const Scope& s, const Quote& q) const {
    return Response::json(save_quote(*platform, s.tenant.id, s.user.user_id, q.tipo, to_json(q), kQuoteHours), 201);
  }

  Response plans(Request&) const { return Response::json(catalog_json(*platform)); }

  Response prepare_plan(const Scope& s, Request& req) const {
    std::int64_t id = parse_plan_request(req.body);
    auto p = plan(*platform, id);
    if (!p) throw Error(errc::not_found, "plano não encontrado", "idPlano");
    Basis b = basis(*platform, s.tenant.id);
    return quote(s, plan_quote(b, *p, addons(*platform), today(b)));
  }
  Response prepare_storage(const Scope& s, Request& req) const {
    auto [gb, upgrade] = parse_storage_request(req.body);
    Basis b = basis(*platform, s.tenant.id);
    return quote(s, storage_quote(b, gb, upgrade, today(b)));
  }
  Response prepare_users(const Scope& s, Request& req) const {
    std::int64_t n = parse_users_request(req.body);
    Basis b = basis(*platform, s.tenant.id);
    return quote(s, users_quote(b, n, today(b)));
  }
  Response prepare_addons(const Scope& s, Request& req) const {
    auto wanted = parse_addons_request(req.body);
    auto items = pricing::addon_items(addons(*platform), wanted);
    Basis b = basis(*platform, s.tenant.id);
    return quote(s, addons_quote(b, items, today(b)));
  }

  Response contract_of(const Scope& s, Request& req, const char* tipo) const {
    ContractRequest in = parse_contract_request(req.body);
    Contracted c = contract(*platform, s.tenant.id, s.user.user_id, in.quote_id, in.hash, tipo);
    return Response::json(std::move(c.json), c.created ? 201 : 200);
  }

  Response renewal(const Scope& s, Request& req) const {
    CalculatorRequest in = parse_calculator_request(req.body, true);
    Basis b = basis(*platform, s.tenant.id);
    return Response::json(to_json(plan_quote(b, current_plan(b), addons(*platform), day_of(b, in.data), in.gb)));
  }
  Response upgrade(const Scope& s, Request& req) const {
    CalculatorRequest in = parse_calculator_request(req.body, false);
    Basis b = basis(*platform, s.tenant.id);
    return Response::json(to_json(storage_quote(b, *in.gb, true, day_of(b, in.data))));
  }
  Response additional(const Scope& s, Request& req) const {
    CalculatorRequest in = parse_calculator_request(req.body, false);
    Basis b = basis(*platform, s.tenant.id);
    return Response::json(to_json(storage_quote(b, *in.gb, false, day_of(b, in.data))));
  }
};

}  // namespace
}  // namespace cadastre::platform::contracting

namespace cadastre::platform {

void add_contracting_routes(App& app) {
  using namespace contracting;
  auto c = std::make_shared<const Contracting>(Contracting{&app.platform()});
  auto& srv = app.server();
  const std::string quote = schemas::ref("Orcamento"), contract = schemas::ref("Contrato");
  const http::Body contract_body{.description = R"({"idOrcamento", "hash"} (o id e o hash do orçamento preparado))",
                                 .max_bytes = 4 * 1024, .schema = schemas::ref("ContratoPedido")};
  auto calc_body = [](bool optional_gb) {
    return http::Body{.description = std::string(optional_gb ? R"({"gb"?, "data"?})" : R"({"gb", "data"?})") +
                                     " (gb: armazenamento em GB; data: AAAA-MM-DD, o dia do cálculo, padrão hoje)",
                      .max_bytes = 4 * 1024, .schema = schemas::ref("CalculoArmazenamentoPedido")};
  };

  srv.add({.method = "GET", .pattern = "/planos", .auth = "none", .tag = kTag,
           .summary = "Os planos à venda (preço em centavos por período, cotas), os preços por unidade, os "
                      "adicionais e os impostos aplicados (público)",
           .answer_schema = schemas::ref("CatalogoPlanos"),
           .handler = service::unscoped(c, &Contracting::plans)});

  srv.add({.method = "POST", .pattern = "/preparar/contratacao/plano", .auth = "sessao", .access = http::admins(),
           .tag = kTag,
           .summary = "Orçamento de um plano: licença nova a partir de hoje, ou renovação da atual (mesmo plano, "
                      "ativa) por mais um período",
           .body = {.description = R"({"idPlano"})", .max_bytes = 4 * 1024,
                    .schema = schemas::ref("PedidoPlano")},
           .answer_status = 201, .answer_schema = quote, .handler = service::scoped(c, &Contracting::prepare_plan)});
  srv.add({.method = "POST", .pattern = "/preparar/contratacao/armazenamento", .auth = "sessao",
           .access = http::admins(), .tag = kTag,
           .summary = "Orçamento de armazenamento na licença atual até o fim dela, pro rata pelos dias de cada mês",
           .body = {.description = R"({"gb" (1 a 100000), "modo"?: "adicional" (gb a mais, padrão) | "upgrade" (gb no total)})",
                    .max_bytes = 4 * 1024,
                    .schema = schemas::ref("PedidoArmazenamento")},
           .answer_status = 201, .answer_schema = quote, .handler = service::scoped(c, &Contracting::prepare_storage)});
  srv.add({.method = "POST", .pattern = "/preparar/contratacao/usuario", .auth = "sessao", .access = http::admins(),
           .tag = kTag, .summary = "Orçamento de usuários a mais na licença atual até o fim dela, pro rata",
           .body = {.description = R"({"quantidade" (1 a 10000)})", .max_bytes = 4 * 1024,
                    .schema = schemas::ref("PedidoUsuarios")},
           .answer_status = 201, .answer_schema = quote, .handler = service::scoped(c, &Contracting::prepare_users)});
  srv.add({.method = "POST", .pattern = "/preparar/contratacao/adicionais", .auth = "sessao",
           .access = http::admins(), .tag = kTag,
           .summary = "Orçamento de adicionais (módulos, suporte) na licença atual até o fim dela, pro rata",
           .body = {.description = R"({"itens": [{"codigo", "quantidade"}]} (1 a 50 itens))", .max_bytes = 16 * 1024,
                    .schema = schemas::ref("PedidoAdicionais")},
           .answer_status = 201, .answer_schema = quote, .handler = service::scoped(c, &Contracting::prepare_addons)});

  struct Kind {
    const char* tipo;
    const char* what;
  };
  for (Kind k : {Kind{"plano", "um plano"}, Kind{"armazenamento", "armazenamento"}, Kind{"usuario", "usuários"},
                 Kind{"adicionais", "adicionais"}}) {
    std::string tipo = k.tipo;
    srv.add({.method = "POST", .pattern = "/contratar/" + tipo, .auth = "sessao", .access = http::admins(),
             .tag = kTag,
             .summary = std::string("Contrata ") + k.what +
                        " pelo orçamento (não expirado, hash conferido, licença inalterada): contrato e licença "
                        "numa transação; o mesmo orçamento de novo responde o mesmo contrato (200)",
             .body = contract_body, .answer_status = 201, .answer_schema = contract,
             .handler = service::scoped([c, tipo](const Scope& s, Request& r) { return c->contract_of(s, r, tipo.c_str()); })});
  }

  srv.add({.method = "POST", .pattern = "/calculadora/armazenamento/renovacao", .auth = "sessao", .access = http::members("um cálculo de preço sobre a licença do próprio município; nada é gravado"), .tag = kTag,
           .summary = "Preço da renovação da licença por mais um período do seu plano, com o armazenamento atual "
                      "(ou gb no total), em meses inteiros",
           .body = calc_body(true), .answer_schema = quote, .handler = service::scoped(c, &Contracting::renewal)});
  srv.add({.method = "POST", .pattern = "/calculadora/armazenamento/upgrade", .auth = "sessao", .access = http::members("um cálculo de preço sobre a licença do próprio município; nada é gravado"), .tag = kTag,
           .summary = "Preço de levar o armazenamento da licença a gb no total, da data ao fim da licença, pro rata",
           .body = calc_body(false), .answer_schema = quote, .handler = service::scoped(c, &Contracting::upgrade)});
  srv.add({.method = "POST", .pattern = "/calculadora/armazenamento/adicional", .auth = "sessao", .access = http::members("um cálculo de preço sobre a licença do próprio município; nada é gravado"), .tag = kTag,
           .summary = "Preço de gb a mais de armazenamento, da data ao fim da licença, pro rata",
           .body = calc_body(false), .answer_schema = quote, .handler = service::scoped(c, &Contracting::additional)});
}

}  // namespace cadastre::platform
