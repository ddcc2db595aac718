// Process lifecycle shared by the services' main(): SIGTERM/SIGINT drain (readiness 503,
// still serving, for `--drain-seconds`, so a load balancer's health checks take the
// instance out), then stop accepting, let in-flight requests finish, close WebSockets with
// 1001, and return so main() exits 0 (the App's destructor then hands running jobs back to
// the queue).
#pragma once

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <csignal>
#include <functional>
#include <string>
#include <thread>

#include "http/server.hpp"

namespace cadastre::cli {

/// Blocks SIGTERM and SIGINT (and ignores SIGPIPE). Call first in main(), before any
/// thread starts, so every thread inherits the mask and only serve_until_signal's waiter
/// receives them.
inline sigset_t block_stop_signals() {
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);
  std::signal(SIGPIPE, SIG_IGN);
  return stop;
}

/// Serves a bound `server` until a stop signal arrives, then drains for `drain`
/// (ServerOptions::drain) before stopping; requests in flight then have `grace`
/// (ServerOptions::stop_grace) to finish, after which the process exits at once (its jobs'
/// leases expire and another instance takes them). `log` receives one JSON line when
/// listening, one when draining begins, one when stopping and one if the grace runs out.
inline void serve_until_signal(http::Server& server, const sigset_t& stop, const std::string& name,
                               const std::function<void(const std::string&)>& log,
                               std::chrono::seconds drain = std::chrono::seconds(0),
                               std::chrono::seconds grace = std::chrono::seconds(30)) {
  std::atomic<bool> signalled{false};
  std::mutex mutex;
  std::condition_variable served_cv;
  bool served = false;
  std::thread waiter([&, stop, drain, grace] {
    int sig = 0;
    sigwait(&stop, &sig);
    signalled = true;
    server.drain();
    log("{\"level\":\"info\",\"msg\":\"drenando\",\"signal\":" + std::to_string(sig) +
        ",\"segundos\":" + std::to_string(drain.count()) + "}");
    std::this_thread::sleep_for(drain);
    log("{\"level\":\"info\",\"msg\":\"encerrando\"}");
    server.stop();
    std::unique_lock lock(mutex);
    if (!served_cv.wait_for(lock, grace, [&served] { return served; })) {
      log("{\"level\":\"warn\",\"msg\":\"pedidos em curso passaram do prazo de encerramento\",\"segundos\":" +
          std::to_string(grace.count()) + "}");
      std::_Exit(1);
    }
  });
  log("{\"level\":\"info\",\"msg\":\"" + name + " escutando\",\"url\":\"" + server.base_url() + "\"}");
  server.serve();
  // serve() returned: a signal arrived, or the listener failed and the waiter still waits.
  {
    std::lock_guard lock(mutex);
    served = true;
  }
  served_cv.notify_all();
  if (!signalled) kill(getpid(), SIGTERM);
  waiter.join();
}

}  // namespace cadastre::cli
