#include "gateway/app.hpp"

#include <iostream>

#include "store/dsn.hpp"

namespace cadastre::gateway {

std::string identity_store_label(const std::string& dsn) {
  std::string host = store::dsn_get(dsn, "host"), port = store::dsn_get(dsn, "port"), db = store::dsn_get(dsn, "dbname");
  return (host.empty() ? "local" : host) + ":" + (port.empty() ? "5432" : port) + "/" + db;
}

App::App(AppOptions options) : options_(std::move(options)), started_(std::chrono::steady_clock::now()) {
  const Config& cfg = options_.config;
  store::PoolOptions platform = options_.pool;
  platform.dsn = cfg.platform_dsn;
  platform.application_name = "cadastre-gateway";
  platform_ = std::make_unique<store::Pool>(platform);
  // The gateway keeps its own cache in front of the store (PrincipalCache): a second cache
  // inside Identity would only double how long a deactivated user keeps access.
  identity_ = std::make_unique<store::Identity>(*platform_, std::chrono::milliseconds(0));
  intranet_ = std::make_unique<store::IntranetUsers>(*platform_);
  jwt_ = std::make_unique<JwtVerifier>(cfg.intranet);
  breakers_ = std::make_unique<Breakers>(cfg.breakers);
  upstream_ = std::make_unique<UpstreamPool>(cfg.timeouts, cfg.upstream);
  auth_ = std::make_unique<Authenticator>(*identity_, *intranet_, *jwt_, *breakers_, identity_store_label(cfg.platform_dsn),
                                          cfg.token_cache_ttl);
  // A session revoked anywhere (a platform logout) stops working here at once.
  events_ = std::make_unique<store::EventFollower>(
      cfg.platform_dsn, store::EventFollower::Handlers{.on_event = [this](const store::LoggedEvent& e) {
        if (e.type == "sessao_revogada") auth_->forget();
      },
      .on_resync = {}});
  forwarder_ = std::make_unique<Forwarder>(*upstream_, *breakers_, [this](const std::string& line) { log(line); });
  for (const auto& [label, p] : cfg.providers)
    if (p.token) provider_tokens_[label] = std::make_unique<ProviderToken>(*p.token, client_credentials_fetch(*p.token, *upstream_));

  http::ServiceInfo info{"cadastre-gateway", kVersion,
                         "Ponto de entrada único: autentica a chamada, encaminha ao serviço REST e de tiles do município "
                         "do usuário, à instância fixa da plataforma e a provedores externos de mapas, com disjuntores "
                         "(circuit breakers) por destino. Toda resposta traz X-Target-URL com o endereço de destino.",
                         "/openapi.json", "cadastre_gateway"};
  // The spec puts X-Target-URL on every response: answers that reach no destination
  // (405, preflight, /metrics, /openapi.json, /docs) say so with "none".
  // Bodies pass through as they are: compressed answers keep the destination's coding, and
  // multipart uploads are forwarded, not split.
  options_.http.compress = false;
  options_.http.multipart = false;
  options_.http.finalize = [](const http::Request&, http::Response& res) {
    if (!res.headers.find("X-Target-URL")) res.headers.set("X-Target-URL", "none");
  };
  server_ = std::make_unique<http::Server>(info, options_.http);

  add_auth_scheme(*this);
  add_health_routes(*this);
  add_tenant_routes(*this);
  add_provider_routes(*this);
  add_gateway_metrics(*this);
}

App::~App() { stop(); }

ProviderToken* App::provider_token(std::string_view label) {
  auto it = provider_tokens_.find(label);
  return it == provider_tokens_.end() ? nullptr : it->second.get();
}

void App::log(const std::string& line) {
  std::lock_guard lock(log_mutex_);
  (options_.http.log ? *options_.http.log : std::cerr) << line << '\n';
}

bool App::start() { return server_->start(); }

void App::stop() {
  if (server_) server_->stop();
}

void add_auth_scheme(App& app) {
  app.server().add_auth_scheme(
      {kGatewayScheme,
       R"({"type":"http","scheme":"bearer","description":"Qualquer uma das quatro formas: Authorization: Bearer <auth_token>; X-Auth-Token + X-Tn-Token (base64 do id do município); x_auth_token + x_tn_token na query (legado; retirados antes do encaminhamento); ou X-Origin: login_intranet + Authorization: Bearer <JWT da intranet> + nome_tenant na query. Credencial ausente ou inválida: 401 com X-Target-URL."})",
       [&app](http::Request& req, const http::Route&) {
         // Never throws: the handler answers refusals so that they carry X-Target-URL.
         AuthResult r = app.authenticator().authenticate(req);
         if (r.ok) req.tenant = r.principal->tenant_slug;
         req.auth = std::move(r);
       }});
}

}  // namespace cadastre::gateway
