// Destinations for the outbound client's tests, all on loopback: cpp-httplib servers that
// count what reaches them, a raw server for answers cpp-httplib would not send, and the
// helpers that check which cadastre::Error a call ended in.
#pragma once

#include <doctest/doctest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "cadastre/error.hpp"
#include "outbound/fetch.hpp"

namespace cadastre::test {

/// A cpp-httplib server on a free port of `host` ("127.0.0.1" or "::1"), with the routes
/// `routes` sets up; counts every request that arrives, routed or not.
class Destination {
 public:
  explicit Destination(
      const std::function<void(httplib::Server&)>& routes, std::string host = "127.0.0.1",
      std::unique_ptr<httplib::Server> server = std::make_unique<httplib::Server>())
      : server_(std::move(server)), host_(std::move(host)) {
    REQUIRE(server_->is_valid());
    routes(*server_);
    server_->set_pre_routing_handler([this](const httplib::Request&, httplib::Response&) {
      ++hits_;
      return httplib::Server::HandlerResponse::Unhandled;
    });
    port_ = server_->bind_to_any_port(host_);
    REQUIRE(port_ > 0);
    thread_ = std::thread([this] { server_->listen_after_bind(); });
    while (!server_->is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ~Destination() {
    server_->stop();
    thread_.join();
  }
  Destination(const Destination&) = delete;
  Destination& operator=(const Destination&) = delete;

  int port() const { return port_; }
  int hits() const { return hits_; }
  /// http://host:port + path, the host as given (IPv6 in brackets).
  std::string url(const std::string& path = "/", const std::string& scheme = "http") const {
    const bool v6 = host_.find(':') != std::string::npos;
    return scheme + "://" + (v6 ? "[" + host_ + "]" : host_) + ":" + std::to_string(port_) + path;
  }

 private:
  std::unique_ptr<httplib::Server> server_;
  std::string host_;
  int port_ = 0;
  std::atomic<int> hits_{0};
  std::thread thread_;
};

/// A server on 127.0.0.1 that reads each request head, writes `answer` as it is and closes
/// the connection: malformed heads, bodies delimited by the close.
class RawServer {
 public:
  explicit RawServer(std::string answer) : answer_(std::move(answer)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&a), len) == 0);
    REQUIRE(::listen(fd_, 8) == 0);
    REQUIRE(::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) == 0);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~RawServer() {
    ::shutdown(fd_, SHUT_RDWR);  // wakes accept()
    thread_.join();
    ::close(fd_);
  }
  RawServer(const RawServer&) = delete;
  RawServer& operator=(const RawServer&) = delete;

  std::string url(const std::string& path = "/") const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }

 private:
  void serve() {
    for (;;) {
      int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) return;
      std::string head;
      char buf[4096];
      while (head.find("\r\n\r\n") == std::string::npos) {
        ssize_t n = ::recv(c, buf, sizeof buf, 0);
        if (n <= 0) break;
        head.append(buf, static_cast<std::size_t>(n));
      }
      std::string_view rest = answer_;
      while (!rest.empty()) {  // stops early when the client gives up and closes
        ssize_t n = ::send(c, rest.data(), rest.size(), MSG_NOSIGNAL);
        if (n <= 0) break;
        rest.remove_prefix(static_cast<std::size_t>(n));
      }
      ::close(c);
    }
  }

  std::string answer_;
  int fd_ = -1;
  int port_ = 0;
  std::thread thread_;
};

/// Runs `call` and checks that it throws cadastre::Error with `code` and a message that
/// contains `words`.
template <class Fn>
void expect_refused(Fn&& call, errc code, const std::string& words) {
  try {
    call();
    FAIL("esperava cadastre::Error contendo: " << words);
  } catch (const Error& e) {
    CHECK_MESSAGE(e.code() == code, "mensagem: " << e.what());
    CHECK_MESSAGE(std::string(e.what()).find(words) != std::string::npos, "mensagem: " << e.what());
  }
}

/// A policy for the loopback destinations: 127.0.0.1 and localhost, loopback allowed
/// (::1 too, as localhost resolves to both on many systems).
inline outbound::Policy loopback_policy() {
  outbound::Policy p;
  p.allowed_hosts = {"127.0.0.1", "localhost"};
  p.allowed_networks = {"127.0.0.0/8", "::1/128"};
  p.connect_timeout = std::chrono::milliseconds(2000);
  p.total_timeout = std::chrono::milliseconds(5000);
  return p;
}

inline outbound::Response get(const outbound::Policy& policy, const std::string& url) {
  outbound::Request r;
  r.url = url;
  return outbound::fetch(policy, r);
}

}  // namespace cadastre::test
