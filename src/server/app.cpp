#include "server/app.hpp"

#include "cadastre/json.hpp"
#include "server/service_desk/token_scheme.hpp"
#include "service/health.hpp"

namespace cadastre::server {

App::App(AppOptions options) : options_(std::move(options)) {
  store::PoolOptions platform = options_.pool;
  platform.dsn = options_.platform_dsn;
  platform.application_name = "cadastre-server:plataforma";
  platform_ = std::make_unique<store::Pool>(platform);
  identity_ = std::make_unique<store::Identity>(*platform_, options_.token_ttl);
  secret_checks_ = std::make_unique<store::SecretChecks>(*platform_, options_.secret_checks);
  events_ = std::make_unique<store::EventFollower>(
      options_.platform_dsn, store::EventFollower::Handlers{.on_event = [this](const store::LoggedEvent& e) {
        if (e.type == "sessao_revogada" && e.sessions)
          for (std::int64_t session : *e.sessions) identity_->forget_session(session);
      },
      .on_resync = {}});
  store::PoolOptions tenant = options_.pool;
  tenant.application_name = "cadastre-server";
  tenants_ = std::make_unique<store::TenantPools>(tenant, options_.connections_per_server);
  tenancy_ = std::make_unique<service::Tenancy>(*identity_, *tenants_, catalogs_);

  http::ServiceInfo info{
      "cadastre-server", "0.1.0",
      "API do cadastro territorial multimunicipal: camadas, buscas, consultas geoespaciais, "
      "mídia, domínios, avaliação, agendamento e vistorias.",
      "/openapi.json", "cadastre"};
  server_ = std::make_unique<http::Server>(info, options_.http);
  service::add_pool_metrics(*server_, *platform_, *tenants_);


  add_auth_schemes(*this);
  add_inspection_token_scheme(*this);
  add_health_routes(*this);
  add_user_routes(*this);
  add_layer_routes(*this);
  add_tile_routes(*this);
  add_crud_routes(*this);
  add_domain_routes(*this);
  add_geo_routes(*this);
  add_scheduling_routes(*this);
  add_explorer_routes(*this);
  add_dbrest_routes(*this);
  add_mapoteca_routes(*this);
  add_viewer360_routes(*this);
  add_characterization_routes(*this);
  add_mobile_routes(*this);
  add_media_routes(*this);
  add_service_desk_routes(*this);
  add_ldap_routes(*this);
  add_integracao_routes(*this);
  add_issue_tracker_routes(*this);
  add_valuation_routes(*this);
  add_portal_routes(*this);
  add_provas_routes(*this);
}

App::~App() { stop(); }

bool App::start() { return server_->start(); }

void App::stop() {
  if (server_) server_->stop();
}

}  // namespace cadastre::server
