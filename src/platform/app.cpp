#include "platform/app.hpp"

#include "platform/guard/guard.hpp"
#include "platform/guard/memory.hpp"
#include "platform/schemas.hpp"
#include "service/health.hpp"

namespace cadastre::platform {

App::App(AppOptions options) : options_(std::move(options)) {
  store::PoolOptions platform = options_.pool;
  platform.dsn = options_.platform_dsn;
  platform.application_name = "cadastre-platform:plataforma";
  platform_ = std::make_unique<store::Pool>(platform);
  identity_ = std::make_unique<store::Identity>(*platform_, options_.token_ttl);
  secret_checks_ = std::make_unique<store::SecretChecks>(*platform_, options_.secret_checks);
  heavy_reads_ = std::make_unique<service::Bulkhead>(static_cast<int>(options_.pool.size / 4),
                                                     std::chrono::milliseconds(500));
  follower_ = std::make_unique<store::EventFollower>(options_.platform_dsn, store::EventFollower::Handlers{
      .on_event = [this](const store::LoggedEvent& e) { deliver(e); },
      .on_resync = [this] {
        events_.publish(store::kControlTenant, {.type = "ressincronizar", .json = R"({"tipo":"ressincronizar"})"});
      }});
  store::PoolOptions tenant = options_.pool;
  tenant.application_name = "cadastre-platform";
  tenants_ = std::make_unique<store::TenantPools>(tenant, options_.connections_per_server);
  tenancy_ = std::make_unique<service::Tenancy>(*identity_, *tenants_, catalogs_);
  guard_memory_ = std::make_shared<guard::Memory>(options_.guard_ttl);
  tenancy_->set_record_guard([this](const service::Scope& s, const http::Access& a, const http::Request& req) {
    return guard::resolve(*platform_, guard_memory_.get(), s, a, req);
  });
  mailer_ = std::make_unique<mail::Mailer>(options_.smtp);
  if (!options_.outbound.allowed_hosts.empty() || !options_.outbound.allowed_networks.empty())
    outbound::validate(options_.outbound);

  http::ServiceInfo info{
      "cadastre-platform", options_.version,
      "API da plataforma: sessões e contas, projetos, camadas, formulários, campos, geometrias, valores, "
      "arquivos, importações, análises, contratação e o proxy dos serviços internos.",
      "/swagger.json", "cadastre_platform"};
  info.schemas = schemas::components();
  server_ = std::make_unique<http::Server>(info, options_.http);
  service::add_pool_metrics(*server_, *platform_, *tenants_);

  add_auth_scheme(*this);
  add_system_routes(*this);
  add_session_routes(*this);
  add_account_routes(*this);
  add_profile_routes(*this);
  add_user_routes(*this);
  add_company_routes(*this);
  add_license_routes(*this);
  add_tenant_routes(*this);
  add_provider_routes(*this);
  add_proxy_routes(*this);
  add_live_routes(*this);
  add_project_routes(*this);
  add_additional_layer_routes(*this);
  add_layer_routes(*this);
  add_layer_style_routes(*this);
  add_layer_user_routes(*this);
  add_form_routes(*this);
  add_field_routes(*this);
  add_value_routes(*this);
  add_geometry_routes(*this);
  add_permission_routes(*this);
  add_search_routes(*this);
  add_geography_routes(*this);
  add_file_routes(*this);
  add_tile_routes(*this);
  add_import_routes(*this);
  add_raster_routes(*this);
  add_wms_routes(*this);
  add_geostatistics_routes(*this);
  add_mass_appraisal_routes(*this);
  add_contracting_routes(*this);
  add_audit_routes(*this);
  add_ombudsman_routes(*this);
  add_wikimap_routes(*this);
  add_custom_map_routes(*this);
  add_layer_report_routes(*this);
  add_city_report_routes(*this);
}

App::~App() { stop(); }

void App::deliver(const store::LoggedEvent& e) {
  if (e.tenant == store::kControlTenant && e.type == "sessao_revogada" && e.sessions)
    for (std::int64_t session : *e.sessions) identity_->forget_session(session);
  service::Event event{.type = e.type, .json = e.json};
  if (e.sessions)
    events_.publish_to(e.tenant, event, *e.sessions);
  else
    events_.publish(e.tenant, std::move(event));
}

std::string App::public_url() const {
  return options_.public_url.empty() ? server_->base_url() : options_.public_url;
}

bool App::start() { return server_->start(); }

void App::stop() {
  if (server_) server_->stop();
}

}  // namespace cadastre::platform
