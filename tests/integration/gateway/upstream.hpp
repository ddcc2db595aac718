// Real HTTP destinations for the gateway tests: cpp-httplib servers on free loopback ports
// that record every request they receive and answer with a replaceable handler.
#pragma once

#include <httplib.h>

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace cadastre::test {

struct Received {
  std::string method, path, target, body;
  httplib::Headers headers;
  httplib::Params params;
  /// First value of header `name` ("" when absent).
  std::string header(const std::string& name) const;
  bool has_header(const std::string& name) const { return headers.find(name) != headers.end(); }
};

class Upstream {
 public:
  using Handler = std::function<void(const httplib::Request&, httplib::Response&)>;

  /// Starts listening; the default handler answers 200 {"ok":true}.
  Upstream();
  ~Upstream();
  Upstream(const Upstream&) = delete;
  Upstream& operator=(const Upstream&) = delete;

  void on(Handler h);
  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

  std::vector<Received> received() const;
  std::size_t count() const;
  Received last() const;
  void clear();

 private:
  void record(const httplib::Request& req);
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  mutable std::mutex mutex_;
  Handler handler_;
  std::vector<Received> received_;
};

/// A loopback port nothing listens on (bound, then released).
int dead_port();

}  // namespace cadastre::test
