// A tiny fixed-response HTTP destination for bench/gateway.sh: every GET or HEAD answers
// 200 with the same small JSON body, on cpp-httplib tuned like the project's servers
// (TCP_NODELAY, long keep-alive, sized thread pool), so the bench measures the proxies.
//
//   fixed_upstream PORT [THREADS]
#include <httplib.h>

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "uso: fixed_upstream PORTA [THREADS]\n";
    return 2;
  }
  int port = std::atoi(argv[1]);
  std::size_t threads = argc > 2 ? static_cast<std::size_t>(std::atoi(argv[2])) : 64;
  std::signal(SIGPIPE, SIG_IGN);
  static const std::string body = R"({"id":1,"municipio":"bench","camada":"lote","area_m2":360.5,"inscricao":"01.02.003.0004.001"})";

  httplib::Server svr;
  svr.set_tcp_nodelay(true);
  svr.set_keep_alive_max_count(1000000);
  svr.set_keep_alive_timeout(60);
  svr.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  svr.Get(".*", [](const httplib::Request&, httplib::Response& res) { res.set_content(body, "application/json"); });
  if (!svr.bind_to_port("127.0.0.1", port)) {
    std::cerr << "fixed_upstream: porta " << port << " indisponível\n";
    return 1;
  }
  svr.listen_after_bind();
  return 0;
}
