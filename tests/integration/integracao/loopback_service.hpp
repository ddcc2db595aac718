// A real HTTP service on loopback for the tests of cadastre-server's outbound calls (the
// external REST service of /integracao-rest, the issue tracker): a cpp-httplib server that
// records every request and answers with a replaceable handler. It can be stopped and
// started again on the same port, as a service that goes down and comes back.
#pragma once

#include <doctest/doctest.h>
#include <httplib.h>

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace outbound_test {

struct Received {
  std::string method, path, target, body;
  httplib::Headers headers;
  std::string header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
  }
};

class LoopbackService {
 public:
  using Handler = std::function<void(const httplib::Request&, httplib::Response&)>;

  LoopbackService() { start(0); }
  ~LoopbackService() { stop(); }
  LoopbackService(const LoopbackService&) = delete;
  LoopbackService& operator=(const LoopbackService&) = delete;

  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

  /// Replaces the handler (default: 200 {"ok":true}).
  void on(Handler h) {
    std::lock_guard lock(mutex_);
    handler_ = std::move(h);
  }
  /// Stops listening: connections to the port are refused until start_again().
  void stop() {
    if (server_) server_->stop();
    if (thread_.joinable()) thread_.join();
    server_.reset();
  }
  /// Listens again on the same port.
  void start_again() { start(port_); }

  std::vector<Received> received() const {
    std::lock_guard lock(mutex_);
    return received_;
  }
  std::size_t count() const {
    std::lock_guard lock(mutex_);
    return received_.size();
  }
  Received last() const {
    std::lock_guard lock(mutex_);
    REQUIRE(!received_.empty());
    return received_.back();
  }
  void clear() {
    std::lock_guard lock(mutex_);
    received_.clear();
  }

 private:
  void start(int port) {
    server_ = std::make_unique<httplib::Server>();
    auto dispatch = [this](const httplib::Request& req, httplib::Response& res) {
      Handler h;
      {
        std::lock_guard lock(mutex_);
        received_.push_back({req.method, req.path, req.target, req.body, req.headers});
        h = handler_;
      }
      if (h) h(req, res);
      else res.set_content(R"({"ok":true})", "application/json");
    };
    server_->Get(".*", dispatch);
    server_->Post(".*", dispatch);
    server_->Put(".*", dispatch);
    if (port == 0) {
      port_ = server_->bind_to_any_port("127.0.0.1");
    } else {
      REQUIRE(server_->bind_to_port("127.0.0.1", port));
    }
    REQUIRE(port_ > 0);
    thread_ = std::thread([this] { server_->listen_after_bind(); });
    for (int i = 0; i < 500 && !server_->is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    REQUIRE(server_->is_running());
  }

  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;
  mutable std::mutex mutex_;
  Handler handler_;
  std::vector<Received> received_;
};

}  // namespace outbound_test
