// cadastre-server: the tenant-scoped cadastre API and tile service.
//
//   cadastre-server --platform-dsn "host=... dbname=cadastre_platform" [--host 127.0.0.1]
//                   [--port 8080] [--threads 64] [--pool-size 16] [--pool-wait-ms 2000]
//                   [--statement-timeout-ms 15000] [--cors-origins "*"] [--no-access-log]
//
// Every flag can also come from the environment (CADASTRE_PLATFORM_DSN, CADASTRE_PORT...).
// SIGTERM/SIGINT stop accepting connections, let in-flight requests finish and exit 0.

#include <iostream>
#include <sstream>

#include "cli/flags.hpp"
#include "cli/serve.hpp"
#include "server/app.hpp"

using namespace cadastre;

int main(int argc, char** argv) {
  const sigset_t stop_signals = cli::block_stop_signals();

  server::AppOptions o;
  try {
    cli::Flags f(argc, argv, 1,
                 {"platform-dsn", "host", "port", "threads", "pool-size", "pool-wait-ms", "statement-timeout-ms",
                  "cors-origins", "payload-max-mb", "token-ttl-ms"},
                 {"no-access-log", "help"});
    if (f.has("help")) {
      std::cout << "uso: cadastre-server --platform-dsn DSN [--host H] [--port P] [--threads N] [--pool-size N]\n"
                   "       [--pool-wait-ms MS] [--statement-timeout-ms MS] [--cors-origins a,b] [--no-access-log]\n";
      return 0;
    }
    o.platform_dsn = f.get("platform-dsn", "", "CADASTRE_PLATFORM_DSN");
    if (o.platform_dsn.empty()) throw std::invalid_argument("informe --platform-dsn (ou CADASTRE_PLATFORM_DSN)");
    o.http.host = f.get("host", "127.0.0.1", "CADASTRE_HOST");
    o.http.port = static_cast<int>(f.get_int("port", 8080, "CADASTRE_PORT"));
    o.http.threads = static_cast<int>(f.get_int("threads", 64, "CADASTRE_THREADS"));
    o.http.payload_max = static_cast<std::size_t>(f.get_int("payload-max-mb", 32, "CADASTRE_PAYLOAD_MAX_MB")) << 20;
    o.http.access_log = !f.has("no-access-log");
    o.pool.size = static_cast<std::size_t>(f.get_int("pool-size", 16, "CADASTRE_POOL_SIZE"));
    o.pool.wait = std::chrono::milliseconds(f.get_int("pool-wait-ms", 2000, "CADASTRE_POOL_WAIT_MS"));
    o.pool.statement_timeout = std::chrono::milliseconds(f.get_int("statement-timeout-ms", 15000, "CADASTRE_STATEMENT_TIMEOUT_MS"));
    o.token_ttl = std::chrono::milliseconds(f.get_int("token-ttl-ms", 5000, "CADASTRE_TOKEN_TTL_MS"));
    std::string origins = f.get("cors-origins", "*", "CADASTRE_CORS_ORIGINS");
    o.http.cors_origins.clear();
    std::stringstream ss(origins);
    for (std::string item; std::getline(ss, item, ',');)
      if (!item.empty()) o.http.cors_origins.push_back(item);
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
