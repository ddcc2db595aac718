// cadastre-platform: the platform API (sessions, accounts, licenses, providers, proxies,
// the live socket; docs/platform.md).
//
//   cadastre-platform --platform-dsn "host=... dbname=cadastre_platform" [--host 127.0.0.1] [--port 8090]
//       [--public-url https://cadastro.exemplo.gov.br] [--reset-page-url URL] [--files-dir var/plataforma] [--files-max-mb 20] [--tile-cache-mb 64]
//       [--pool-size 16] [--pool-wait-ms 2000] [--pool-idle-seconds 60] [--connections-per-server 64] [--statement-timeout-ms 15000] [--token-ttl-ms 5000]
//       [--session-idle-min 480] [--session-max-days 30]
//       [--login-max-failures 5] [--login-window-s 900] [--login-lockout-s 900]
//       [--trial-days 30] [--trial-users 5] [--trial-storage-mb 1024] [--tenant-server-dsn DSN]
//       [--smtp-url smtp://host:587 --smtp-from "Cadastro <nao-responda@...>" [--smtp-user U] [--smtp-require-tls]]
//       [--ldap-uri ... (as cadastre-server)]
//       [--oidc-issuer URL --oidc-audience ID (--oidc-rs256-pem FILE | CADASTRE_OIDC_HS256_SECRET)]
//       [--service app-backend=http://127.0.0.1:8080 ...] [--city-auth cidade=https://... ...]
//       [--city-routes campinas,valinhos]
//       [--outbound-hosts a.gov.br,*.b.gov.br] [--outbound-networks 10.0.0.0/8] [--outbound-max-mb 10]
//       [--outbound-timeout-ms 15000] [--cors-origins "*"] [--no-access-log] [engine limits as cadastre-server]
//
// Secrets (SMTP password, LDAP service password, OIDC HS256 secret, the key of presigned
// file links) come from the environment only: CADASTRE_SMTP_PASSWORD,
// CADASTRE_LDAP_BIND_PASSWORD, CADASTRE_OIDC_HS256_SECRET, CADASTRE_FILES_SECRET (random
// per process when absent). Every other flag can also come from the environment
// (CADASTRE_PLATFORM_DSN, CADASTRE_PLATFORM_PORT...). SIGTERM/SIGINT stop gracefully.

#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/engine_flags.hpp"
#include "cli/flags.hpp"
#include "cli/ldap_flags.hpp"
#include "cli/secret_check_flags.hpp"
#include "cli/serve.hpp"
#include "platform/app.hpp"

using namespace cadastre;

namespace {

// "name=value" items of a repeated flag.
std::map<std::string, std::string> named(const cli::Flags& f, const std::string& flag) {
  std::map<std::string, std::string> out;
  for (const auto& item : f.all(flag)) {
    auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      throw std::invalid_argument("--" + flag + " espera nome=url: " + item);
    out[item.substr(0, eq)] = item.substr(eq + 1);
  }
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("não foi possível ler " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

int main(int argc, char** argv) {
  const sigset_t stop_signals = cli::block_stop_signals();
  platform::AppOptions o;
  try {
    std::set<std::string> known = {
        "platform-dsn", "host", "port", "public-url", "reset-page-url", "pool-size", "pool-wait-ms", "pool-idle-seconds",
        "connections-per-server",
        "statement-timeout-ms", "token-ttl-ms", "session-idle-min", "session-max-days", 
        "trial-days", "trial-users", "trial-storage-mb", "tenant-server-dsn",
        "smtp-url", "smtp-from", "smtp-user", "oidc-issuer", "oidc-audience", "oidc-rs256-pem", "service", "city-auth", "outbound-hosts",
        "outbound-networks", "outbound-max-mb", "outbound-timeout-ms", "cors-origins", "build", "files-dir", "files-max-mb", "tile-cache-mb", "city-routes",
        "max-expanded-mb", "max-kml-mb", "max-attribute-mb", "max-vertices", "max-raster-mp", "max-raster-decoded-mb",
        "max-photo-mp", "job-workers", "job-per-tenant", "job-max-seconds", "job-max-cpu-seconds", "job-lease-seconds", "job-attempts"};
    known.merge(cli::engine_flag_names());
    known.merge(cli::ldap_flag_names());
    known.merge(cli::secret_check_flag_names());
    cli::Flags f(argc, argv, 1, known, {"no-access-log", "smtp-require-tls", "help"});
    if (f.has("help")) {
      std::cout << "uso: cadastre-platform --platform-dsn DSN [--port 8090] [--public-url URL] ... "
                   "(veja docs/operations.md, \"cadastre-platform\")\n";
      return 0;
    }
    o.platform_dsn = f.get("platform-dsn", "", "CADASTRE_PLATFORM_DSN");
    if (o.platform_dsn.empty()) throw std::invalid_argument("informe --platform-dsn (ou CADASTRE_PLATFORM_DSN)");
    o.http.host = f.get("host", "127.0.0.1", "CADASTRE_PLATFORM_HOST");
    o.http.port = static_cast<int>(f.get_int("port", 8090, "CADASTRE_PLATFORM_PORT"));
    cli::read_engine_flags(f, o.http, "CADASTRE_PLATFORM_");
    o.http.access_log = !f.has("no-access-log");
    o.http.cors_origins = f.get_list("cors-origins", "*", "CADASTRE_CORS_ORIGINS");
    o.public_url = f.get("public-url", "", "CADASTRE_PUBLIC_URL");
    o.reset_page_url = f.get("reset-page-url", "", "CADASTRE_RESET_PAGE_URL");
    o.build = f.get("build", "dev", "CADASTRE_BUILD");
    // The platform's file store (layers' rasters and drawings, their attachments); each
    // tenant gets a folder of its own under it.
    o.files_dir = f.get("files-dir", "var/plataforma", "CADASTRE_FILES_DIR");
    o.files_max_bytes = static_cast<std::size_t>(f.get_int("files-max-mb", 20, "CADASTRE_FILES_MAX_MB")) << 20;
    o.tile_cache_bytes = static_cast<std::size_t>(f.get_int("tile-cache-mb", 64, "CADASTRE_TILE_CACHE_MB")) << 20;
    // The key of presigned file links: a secret, so from the environment only; without it
    // each process draws its own (its links stop working when it restarts).
    if (const char* secret = std::getenv("CADASTRE_FILES_SECRET")) o.files_secret = secret;
    o.pool.size = static_cast<std::size_t>(f.get_int("pool-size", 16, "CADASTRE_POOL_SIZE"));
    o.pool.wait = std::chrono::milliseconds(f.get_int("pool-wait-ms", 2000, "CADASTRE_POOL_WAIT_MS"));
    o.pool.idle_timeout = std::chrono::seconds(f.get_int("pool-idle-seconds", 60, "CADASTRE_POOL_IDLE_SECONDS"));
    o.connections_per_server =
        static_cast<std::size_t>(f.get_int("connections-per-server", 64, "CADASTRE_CONNECTIONS_PER_SERVER"));
    o.pool.statement_timeout =
        std::chrono::milliseconds(f.get_int("statement-timeout-ms", 15000, "CADASTRE_STATEMENT_TIMEOUT_MS"));
    o.token_ttl = std::chrono::milliseconds(f.get_int("token-ttl-ms", 5000, "CADASTRE_TOKEN_TTL_MS"));
    // A read's guard answer kept for the same caller and record (at most 1 s; 0: none).
    o.guard_ttl = std::chrono::milliseconds(f.get_int("guard-ttl-ms", 1000, "CADASTRE_GUARD_TTL_MS"));
    o.sessions.idle = std::chrono::minutes(f.get_int("session-idle-min", 480, "CADASTRE_SESSION_IDLE_MIN"));
    o.sessions.absolute = std::chrono::hours(24 * f.get_int("session-max-days", 30, "CADASTRE_SESSION_MAX_DAYS"));
    cli::read_secret_check_flags(f, o.secret_checks);
    // What an upload may declare before it is decoded, and what a job may take
    // (docs/operations.md, "Limits").
    auto mb = [&](const char* name, std::uint64_t def, const char* env) {
      return static_cast<std::uint64_t>(f.get_int(name, static_cast<long long>(def >> 20), env)) << 20;
    };
    o.decode.archive.max_total = mb("max-expanded-mb", o.decode.archive.max_total, "CADASTRE_MAX_EXPANDED_MB");
    o.decode.max_kml = mb("max-kml-mb", o.decode.max_kml, "CADASTRE_MAX_KML_MB");
    o.decode.table.max_attribute_bytes = mb("max-attribute-mb", o.decode.table.max_attribute_bytes, "CADASTRE_MAX_ATTRIBUTE_MB");
    o.decode.table.max_vertices = static_cast<std::size_t>(
        f.get_int("max-vertices", static_cast<long long>(o.decode.table.max_vertices), "CADASTRE_MAX_VERTICES"));
    o.decode.raster.max_pixels = static_cast<std::uint64_t>(f.get_int(
        "max-raster-mp", static_cast<long long>(o.decode.raster.max_pixels / 1'000'000), "CADASTRE_MAX_RASTER_MP")) * 1'000'000;
    o.decode.raster.max_decoded = mb("max-raster-decoded-mb", o.decode.raster.max_decoded, "CADASTRE_MAX_RASTER_DECODED_MB");
    o.decode.image.max_pixels = static_cast<std::uint64_t>(f.get_int(
        "max-photo-mp", static_cast<long long>(o.decode.image.max_pixels / 1'000'000), "CADASTRE_MAX_PHOTO_MP")) * 1'000'000;
    o.decode.image.max_decoded = o.decode.image.max_pixels * 4;
    o.jobs.workers = static_cast<int>(f.get_int("job-workers", o.jobs.workers, "CADASTRE_JOB_WORKERS"));
    o.jobs.per_tenant = static_cast<int>(f.get_int("job-per-tenant", o.jobs.per_tenant, "CADASTRE_JOB_PER_TENANT"));
    o.jobs.wall = std::chrono::seconds(f.get_int("job-max-seconds", o.jobs.wall.count(), "CADASTRE_JOB_MAX_SECONDS"));
    o.jobs.cpu = std::chrono::seconds(f.get_int("job-max-cpu-seconds", o.jobs.cpu.count(), "CADASTRE_JOB_MAX_CPU_SECONDS"));
    o.jobs.lease = std::chrono::seconds(f.get_int("job-lease-seconds", o.jobs.lease.count(), "CADASTRE_JOB_LEASE_SECONDS"));
    o.jobs.attempts = static_cast<int>(f.get_int("job-attempts", o.jobs.attempts, "CADASTRE_JOB_ATTEMPTS"));
    o.trial.days = static_cast<int>(f.get_int("trial-days", 30, "CADASTRE_TRIAL_DAYS"));
    o.trial.max_users = static_cast<int>(f.get_int("trial-users", 5, "CADASTRE_TRIAL_USERS"));
    o.trial.max_storage_mb = static_cast<int>(f.get_int("trial-storage-mb", 1024, "CADASTRE_TRIAL_STORAGE_MB"));
    o.trial.tenant_server_dsn = f.get("tenant-server-dsn", "", "CADASTRE_TENANT_SERVER_DSN");
    o.smtp.url = f.get("smtp-url", "", "CADASTRE_SMTP_URL");
    o.smtp.from = f.get("smtp-from", "", "CADASTRE_SMTP_FROM");
    o.smtp.username = f.get("smtp-user", "", "CADASTRE_SMTP_USER");
    if (const char* pw = std::getenv("CADASTRE_SMTP_PASSWORD")) o.smtp.password = pw;
    o.smtp.require_tls = f.has("smtp-require-tls");
    cli::read_ldap_flags(f, o.ldap);
    o.oidc.issuer = f.get("oidc-issuer", "", "CADASTRE_OIDC_ISSUER");
    o.oidc.audience = f.get("oidc-audience", "", "CADASTRE_OIDC_AUDIENCE");
    if (auto pem = f.get("oidc-rs256-pem")) o.oidc.rs256_public_pem = read_file(*pem);
    if (const char* secret = std::getenv("CADASTRE_OIDC_HS256_SECRET")) o.oidc.hs256_secret = secret;
    o.services = named(f, "service");
    o.city_auth = named(f, "city-auth");
    // Municipalities with their own routes (/zonas/<cidade>, /observacoes/<cidade>, /consulta/<cidade>).
    o.city_routes = f.get_list("city-routes", "", "CADASTRE_CITY_ROUTES");
    o.outbound.allowed_hosts = f.get_list("outbound-hosts", "", "CADASTRE_OUTBOUND_HOSTS");
    o.outbound.allowed_networks = f.get_list("outbound-networks", "", "CADASTRE_OUTBOUND_NETWORKS");
    o.outbound.max_bytes = static_cast<std::size_t>(f.get_int("outbound-max-mb", 10, "CADASTRE_OUTBOUND_MAX_MB")) << 20;
    o.outbound.total_timeout =
        std::chrono::milliseconds(f.get_int("outbound-timeout-ms", 15000, "CADASTRE_OUTBOUND_TIMEOUT_MS"));
  } catch (const std::exception& e) {
    std::cerr << "cadastre-platform: " << e.what() << "\n";
    return 2;
  }

  try {
    platform::App app(o);
    if (!app.server().bind()) {
      std::cerr << "cadastre-platform: não foi possível escutar em " << o.http.host << ":" << o.http.port << "\n";
      return 1;
    }
    cli::serve_until_signal(app.server(), stop_signals, "cadastre-platform",
                            [](const std::string& line) { std::cerr << line << "\n"; }, o.http.drain,
                          o.http.stop_grace);
  } catch (const std::exception& e) {
    std::cerr << "cadastre-platform: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
