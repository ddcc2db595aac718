// cadastre-server: the tenant-scoped cadastre API and tile service.
//
//   cadastre-server --platform-dsn "host=... dbname=cadastre_platform" [--host 127.0.0.1]
//                   [--port 8080] [--pool-size 16] [--pool-wait-ms 2000] [--pool-idle-seconds 60]
//                   [--statement-timeout-ms 15000] [--cors-origins "*"] [--no-access-log]
//                   [--media-root var/midia] [--media-max-mb 25] [--media-public-max-mb 5]
//                   [--ldap-uri ldap://host:389 --ldap-base-dn DN [--ldap-user-dn "uid=%s,ou=..."]
//                    [--ldap-user-filter "(uid=%s)"] [--ldap-bind-dn DN] [--ldap-group-base-dn DN]
//                    [--ldap-group-prefix cadastre-] [--ldap-new-user-perm "*:r"] [--ldap-timeout-ms 5000]]
//                   [engine limits: --threads 64 --max-connections 4096
//                    --reserved-connections 64 --keep-alive-s 5 --head-timeout-s 10 --body-timeout-s 10
//                    --min-rate-kb 8 --write-timeout-s 30 --header-max-kb 64 --header-max-fields 100
//                    --payload-max-mb 32 --drain-seconds 3 --stop-grace-seconds 30; docs/operations.md, "The HTTP engine"]
//                   (the service account's password only in CADASTRE_LDAP_BIND_PASSWORD: a
//                   flag would show in ps; without --ldap-uri POST /ldap/login/ answers 503)
//
// Every flag can also come from the environment (CADASTRE_PLATFORM_DSN, CADASTRE_PORT...).
// SIGTERM/SIGINT stop accepting connections, let in-flight requests finish and exit 0.

#include <algorithm>
#include <iostream>

#include "cli/engine_flags.hpp"
#include "cli/flags.hpp"
#include "cli/ldap_flags.hpp"
#include "cli/secret_check_flags.hpp"
#include "cli/serve.hpp"
#include "server/app.hpp"

using namespace cadastre;

int main(int argc, char** argv) {
  const sigset_t stop_signals = cli::block_stop_signals();

  server::AppOptions o;
  try {
    std::set<std::string> known = {"platform-dsn", "host", "port", "pool-size", "pool-wait-ms", "pool-idle-seconds",
                                   "connections-per-server",
                                   "statement-timeout-ms", "cors-origins", "token-ttl-ms", "media-root",
                                   "media-max-mb", "media-public-max-mb"};
    known.merge(cli::engine_flag_names());
    known.merge(cli::ldap_flag_names());
    known.merge(cli::secret_check_flag_names());
    cli::Flags f(argc, argv, 1, known, {"no-access-log", "help"});
    if (f.has("help")) {
      std::cout << "uso: cadastre-server --platform-dsn DSN [--host H] [--port P] [--pool-size N]\n"
                   "       [--pool-wait-ms MS] [--pool-idle-seconds S] [--connections-per-server N] [--statement-timeout-ms MS] [--cors-origins a,b] [--no-access-log]\n"
                   "       [--media-root DIR (padrão var/midia)] [--media-max-mb 25] [--media-public-max-mb 5]\n"
                   "       [--ldap-uri URI --ldap-base-dn DN [--ldap-user-dn MODELO | --ldap-user-filter FILTRO]\n"
                   "        [--ldap-bind-dn DN] [--ldap-group-base-dn DN] [--ldap-group-prefix P]\n"
                   "        [--ldap-new-user-perm camada:r] [--ldap-timeout-ms MS]]\n"
                   "       [--threads 64] [--max-connections 4096] [--reserved-connections 64]\n"
                   "       [--keep-alive-s 5] [--head-timeout-s 10] [--body-timeout-s 10] [--min-rate-kb 8]\n"
                   "       [--write-timeout-s 30] [--header-max-kb 64] [--header-max-fields 100] [--payload-max-mb 32]\n";
      return 0;
    }
    o.platform_dsn = f.get("platform-dsn", "", "CADASTRE_PLATFORM_DSN");
    if (o.platform_dsn.empty()) throw std::invalid_argument("informe --platform-dsn (ou CADASTRE_PLATFORM_DSN)");
    o.http.host = f.get("host", "127.0.0.1", "CADASTRE_HOST");
    o.http.port = static_cast<int>(f.get_int("port", 8080, "CADASTRE_PORT"));
    cli::read_engine_flags(f, o.http, "CADASTRE_");
    o.http.access_log = !f.has("no-access-log");
    o.pool.size = static_cast<std::size_t>(f.get_int("pool-size", 16, "CADASTRE_POOL_SIZE"));
    o.pool.wait = std::chrono::milliseconds(f.get_int("pool-wait-ms", 2000, "CADASTRE_POOL_WAIT_MS"));
    o.pool.idle_timeout = std::chrono::seconds(f.get_int("pool-idle-seconds", 60, "CADASTRE_POOL_IDLE_SECONDS"));
    o.connections_per_server =
        static_cast<std::size_t>(f.get_int("connections-per-server", 64, "CADASTRE_CONNECTIONS_PER_SERVER"));
    o.pool.statement_timeout = std::chrono::milliseconds(f.get_int("statement-timeout-ms", 15000, "CADASTRE_STATEMENT_TIMEOUT_MS"));
    o.token_ttl = std::chrono::milliseconds(f.get_int("token-ttl-ms", 5000, "CADASTRE_TOKEN_TTL_MS"));
    cli::read_ldap_flags(f, o.ldap);
    cli::read_secret_check_flags(f, o.secret_checks);
    o.media.root = f.get("media-root", "var/midia", "CADASTRE_MEDIA_ROOT");
    o.media.max_bytes = static_cast<std::size_t>(f.get_int("media-max-mb", 25, "CADASTRE_MEDIA_MAX_MB")) << 20;
    o.media.public_max_bytes =
        static_cast<std::size_t>(f.get_int("media-public-max-mb", 5, "CADASTRE_MEDIA_PUBLIC_MAX_MB")) << 20;
    // A base64 upload of max_bytes is 4/3 as long, plus the JSON around it.
    o.http.payload_max = std::max(o.http.payload_max, o.media.max_bytes / 3 * 4 + (std::size_t{1} << 20));
    o.http.cors_origins = f.get_list("cors-origins", "*", "CADASTRE_CORS_ORIGINS");
  } catch (const std::exception& e) {
    std::cerr << "cadastre-server: " << e.what() << "\n";
    return 2;
  }

  server::App app(o);
  if (!app.server().bind()) {
    std::cerr << "cadastre-server: não foi possível escutar em " << o.http.host << ":" << o.http.port << "\n";
    return 1;
  }
  cli::serve_until_signal(app.server(), stop_signals, "cadastre-server",
                          [](const std::string& line) { std::cerr << line << "\n"; }, o.http.drain,
                          o.http.stop_grace);
  return 0;
}
