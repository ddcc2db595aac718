// cadastre-server: the tenant-scoped cadastre API and tile service.
//
//   cadastre-server --platform-dsn "host=... dbname=cadastre_platform" [--host 127.0.0.1]
//                   [--port 8080] [--pool-size 16] [--pool-wait-ms 2000]
//                   [--statement-timeout-ms 15000] [--cors-origins "*"] [--no-access-log]
//                   [--media-root var/midia] [--media-max-mb 25] [--media-public-max-mb 5]
//                   [--ldap-uri ldap://host:389 --ldap-base-dn DN [--ldap-user-dn "uid=%s,ou=..."]
//                    [--ldap-user-filter "(uid=%s)"] [--ldap-bind-dn DN] [--ldap-group-base-dn DN]
//                    [--ldap-group-prefix cadastre-] [--ldap-new-user-perm "*:r"] [--ldap-timeout-ms 5000]]
//                   [engine limits: --threads 64 --max-connections 4096
//                    --reserved-connections 64 --keep-alive-s 5 --head-timeout-s 10 --body-timeout-s 10
//                    --min-rate-kb 8 --write-timeout-s 30 --header-max-kb 64 --header-max-fields 100
//                    --payload-max-mb 32; docs/operations.md, "The HTTP engine"]
//                   (the service account's password best in CADASTRE_LDAP_BIND_PASSWORD: a
//                   --ldap-bind-password flag shows in ps; without --ldap-uri POST /ldap/login/
//                   answers 503)
//
// Every flag can also come from the environment (CADASTRE_PLATFORM_DSN, CADASTRE_PORT...).
// SIGTERM/SIGINT stop accepting connections, let in-flight requests finish and exit 0.

#include <algorithm>
#include <iostream>

#include "cli/engine_flags.hpp"
#include "cli/flags.hpp"
#include "cli/serve.hpp"
#include "server/app.hpp"

using namespace cadastre;

int main(int argc, char** argv) {
  const sigset_t stop_signals = cli::block_stop_signals();

  server::AppOptions o;
  try {
    std::set<std::string> known = {"platform-dsn", "host", "port", "pool-size", "pool-wait-ms",
                                   "statement-timeout-ms", "cors-origins", "token-ttl-ms", "media-root",
                                   "media-max-mb", "media-public-max-mb", "ldap-uri", "ldap-base-dn",
                                   "ldap-user-dn", "ldap-user-filter", "ldap-bind-dn", "ldap-bind-password",
                                   "ldap-group-base-dn", "ldap-group-prefix", "ldap-new-user-perm", "ldap-timeout-ms"};
    known.merge(cli::engine_flag_names());
    cli::Flags f(argc, argv, 1, known, {"no-access-log", "help"});
    if (f.has("help")) {
      std::cout << "uso: cadastre-server --platform-dsn DSN [--host H] [--port P] [--pool-size N]\n"
                   "       [--pool-wait-ms MS] [--statement-timeout-ms MS] [--cors-origins a,b] [--no-access-log]\n"
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
    o.pool.statement_timeout = std::chrono::milliseconds(f.get_int("statement-timeout-ms", 15000, "CADASTRE_STATEMENT_TIMEOUT_MS"));
    o.token_ttl = std::chrono::milliseconds(f.get_int("token-ttl-ms", 5000, "CADASTRE_TOKEN_TTL_MS"));
    o.ldap.uri = f.get("ldap-uri", "", "CADASTRE_LDAP_URI");
    o.ldap.base_dn = f.get("ldap-base-dn", "", "CADASTRE_LDAP_BASE_DN");
    o.ldap.user_dn_template = f.get("ldap-user-dn", "", "CADASTRE_LDAP_USER_DN");
    o.ldap.user_filter = f.get("ldap-user-filter", "(uid=%s)", "CADASTRE_LDAP_USER_FILTER");
    o.ldap.bind_dn = f.get("ldap-bind-dn", "", "CADASTRE_LDAP_BIND_DN");
    o.ldap.bind_password = f.get("ldap-bind-password", "", "CADASTRE_LDAP_BIND_PASSWORD");
    o.ldap.group_base_dn = f.get("ldap-group-base-dn", "", "CADASTRE_LDAP_GROUP_BASE_DN");
    o.ldap.group_prefix = f.get("ldap-group-prefix", "cadastre-", "CADASTRE_LDAP_GROUP_PREFIX");
    o.ldap.new_user_permission = f.get("ldap-new-user-perm", "*:r", "CADASTRE_LDAP_NEW_USER_PERM");
    o.ldap.timeout = std::chrono::milliseconds(f.get_int("ldap-timeout-ms", 5000, "CADASTRE_LDAP_TIMEOUT_MS"));
    if (!o.ldap.uri.empty() && o.ldap.base_dn.empty()) throw std::invalid_argument("--ldap-uri pede --ldap-base-dn");
    // A service DN without a password would be an unauthenticated (anonymous) bind.
    if (!o.ldap.bind_dn.empty() && o.ldap.bind_password.empty())
      throw std::invalid_argument("--ldap-bind-dn pede a senha (CADASTRE_LDAP_BIND_PASSWORD)");
    if (o.ldap.timeout.count() < 100 || o.ldap.timeout.count() > 60000)
      throw std::invalid_argument("--ldap-timeout-ms deve estar entre 100 e 60000");
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
                          [](const std::string& line) { std::cerr << line << "\n"; });
  return 0;
}
