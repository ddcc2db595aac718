#include "upstream.hpp"

#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace cadastre::test {

std::string Received::header(const std::string& name) const {
  auto it = headers.find(name);
  return it == headers.end() ? std::string() : it->second;
}

Upstream::Upstream() {
  handler_ = [](const httplib::Request&, httplib::Response& res) { res.set_content(R"({"ok":true})", "application/json"); };
  auto dispatch = [this](const httplib::Request& req, httplib::Response& res) {
    record(req);
    Handler h;
    {
      std::lock_guard lock(mutex_);
      h = handler_;
    }
    h(req, res);
  };
  server_.set_tcp_nodelay(true);
  server_.set_keep_alive_max_count(100000);
  server_.Get(".*", dispatch);
  server_.Post(".*", dispatch);
  port_ = server_.bind_to_any_port("127.0.0.1");
  REQUIRE(port_ > 0);
  thread_ = std::thread([this] { server_.listen_after_bind(); });
  for (int i = 0; i < 500 && !server_.is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  REQUIRE(server_.is_running());
}

Upstream::~Upstream() {
  server_.stop();
  if (thread_.joinable()) thread_.join();
}

void Upstream::on(Handler h) {
  std::lock_guard lock(mutex_);
  handler_ = std::move(h);
}

void Upstream::record(const httplib::Request& req) {
  Received r{req.method, req.path, req.target, req.body, req.headers, req.params};
  std::lock_guard lock(mutex_);
  received_.push_back(std::move(r));
}

std::vector<Received> Upstream::received() const {
  std::lock_guard lock(mutex_);
  return received_;
}

std::size_t Upstream::count() const {
  std::lock_guard lock(mutex_);
  return received_.size();
}

Received Upstream::last() const {
  std::lock_guard lock(mutex_);
  REQUIRE(!received_.empty());
  return received_.back();
}

void Upstream::clear() {
  std::lock_guard lock(mutex_);
  received_.clear();
}

int dead_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

}  // namespace cadastre::test
