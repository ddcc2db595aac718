// cadastre-gateway: the single entry point; authenticates, forwards per tenant, circuit
// breakers and external map providers (docs/gateway.md).
//
//   cadastre-gateway --config gateway.json [--platform-dsn DSN] [--host 127.0.0.1]
//                    [--port 8090] [--threads 1024] [--pool-size 8] [--cors-origins "*"]
//                    [--no-access-log]
//   cadastre-gateway --print-demo-config CADASTRE_URL [--platform-url URL]
//
// Every flag can also come from the environment (CADASTRE_GATEWAY_CONFIG,
// CADASTRE_PLATFORM_DSN, CADASTRE_GATEWAY_PORT...). The platform DSN comes from the flag,
// else the environment, else the config file. SIGTERM/SIGINT stop accepting connections,
// let in-flight requests finish and exit 0.

#include <iostream>

#include "cli/engine_flags.hpp"
#include "cli/flags.hpp"
#include "cli/serve.hpp"
#include "gateway/app.hpp"
#include "gateway/demo_config.hpp"

using namespace cadastre;

namespace {
const char* kUsage =
    "uso: cadastre-gateway --config ARQUIVO [--platform-dsn DSN] [--host H] [--port P]\n"
    "       [--pool-size N] [--pool-wait-ms MS] [--cors-origins a,b] [--no-access-log]\n"
    "       [--threads 256] [--max-connections 4096] [--reserved-connections 64]\n"
    "       [--keep-alive-s 5] [--head-timeout-s 10] [--body-timeout-s 10] [--min-rate-kb 8]\n"
    "       [--write-timeout-s 30] [--header-max-kb 64] [--header-max-fields 100] [--payload-max-mb 8] [--drain-seconds 3] [--stop-grace-seconds 30]\n"
    "     cadastre-gateway --print-demo-config URL_DO_CADASTRE_SERVER [--platform-url URL]\n";
}

int main(int argc, char** argv) {
  const sigset_t stop_signals = cli::block_stop_signals();

  gateway::AppOptions o;
  try {
    std::set<std::string> known = {"config",       "platform-dsn",      "host",        "port", "pool-size",
                                   "pool-wait-ms", "cors-origins", "print-demo-config", "platform-url"};
    known.merge(cli::engine_flag_names());
    cli::Flags f(argc, argv, 1, known, {"no-access-log", "help"});
    if (f.has("help")) {
      std::cout << kUsage;
      return 0;
    }
    if (auto cadastre_url = f.get("print-demo-config")) {
      std::cout << gateway::demo_config_json(*cadastre_url, f.get("platform-url", "")) << "\n";
      return 0;
    }
    std::string path = f.get("config", "", "CADASTRE_GATEWAY_CONFIG");
    if (path.empty()) throw std::invalid_argument("informe --config (ou CADASTRE_GATEWAY_CONFIG)");
    o.config = gateway::load_config(path);
    o.config.platform_dsn = f.get("platform-dsn", o.config.platform_dsn, "CADASTRE_PLATFORM_DSN");
    if (o.config.platform_dsn.empty())
      throw std::invalid_argument("informe --platform-dsn, CADASTRE_PLATFORM_DSN ou platform_dsn no arquivo de configuração");
    o.http.host = f.get("host", "127.0.0.1", "CADASTRE_GATEWAY_HOST");
    o.http.port = static_cast<int>(f.get_int("port", 8090, "CADASTRE_GATEWAY_PORT"));
    // Threads wait on destinations while they forward: more of them than cadastre-server's,
    // whose threads wait on its own database pool.
    o.http.threads = 256;
    o.http.payload_max = std::size_t{8} << 20;
    cli::read_engine_flags(f, o.http, "CADASTRE_GATEWAY_");
    o.http.access_log = !f.has("no-access-log");
    o.pool.size = static_cast<std::size_t>(f.get_int("pool-size", 8, "CADASTRE_POOL_SIZE"));
    o.pool.wait = std::chrono::milliseconds(f.get_int("pool-wait-ms", 2000, "CADASTRE_POOL_WAIT_MS"));
    o.http.cors_origins = f.get_list("cors-origins", "*", "CADASTRE_CORS_ORIGINS");
  } catch (const std::exception& e) {
    std::cerr << "cadastre-gateway: " << e.what() << "\n" << kUsage;
    return 2;
  }

  const std::chrono::seconds drain = o.http.drain, grace = o.http.stop_grace;
  gateway::App app(std::move(o));
  if (!app.server().bind()) {
    std::cerr << "cadastre-gateway: não foi possível escutar na porta pedida\n";
    return 1;
  }
  cli::serve_until_signal(app.server(), stop_signals, "cadastre-gateway",
                          [&app](const std::string& line) { app.log(line); }, drain, grace);
  return 0;
}
