#include "gateway/upstream.hpp"

#include <httplib.h>

#include "gateway/url.hpp"

namespace cadastre::gateway {
namespace {

using Clock = std::chrono::steady_clock;

void set_timeouts(httplib::Client& c, const Timeouts& t) {
  auto split = [](std::chrono::milliseconds ms, auto setter) {
    setter(static_cast<time_t>(ms.count() / 1000), static_cast<time_t>((ms.count() % 1000) * 1000));
  };
  split(t.connect, [&](time_t s, time_t us) { c.set_connection_timeout(s, us); });
  split(t.read, [&](time_t s, time_t us) { c.set_read_timeout(s, us); });
  split(t.write, [&](time_t s, time_t us) { c.set_write_timeout(s, us); });
}

bool idempotent(const std::string& method) { return method == "GET" || method == "HEAD"; }

}  // namespace

UpstreamPool::UpstreamPool(Timeouts timeouts, UpstreamLimits limits) : timeouts_(timeouts), limits_(limits) {}

UpstreamPool::~UpstreamPool() = default;

std::unique_ptr<httplib::Client> UpstreamPool::make_client(const std::string& origin) const {
  auto c = std::make_unique<httplib::Client>(origin);
  c->set_keep_alive(true);
  c->set_tcp_nodelay(true);
  c->set_follow_location(false);  // redirects go back to the caller as they are
  c->set_url_encode(false);       // targets are encoded by the gateway already
  // The gateway asks for identity bodies (it drops Accept-Encoding); should a destination
  // compress anyway, the body is decoded here and Content-Encoding is not passed on.
  c->set_decompress(true);
  set_timeouts(*c, timeouts_);
  return c;
}

std::unique_ptr<httplib::Client> UpstreamPool::lease(const std::string& origin, bool& reused) {
  auto now = Clock::now();
  std::vector<std::unique_ptr<httplib::Client>> expired;  // closed outside the lock
  std::unique_ptr<httplib::Client> out;
  {
    std::lock_guard lock(mutex_);
    Host& h = hosts_[origin];
    while (!h.idle.empty()) {
      Idle item = std::move(h.idle.back());
      h.idle.pop_back();
      if (now - item.since > limits_.idle) {
        expired.push_back(std::move(item.client));
        continue;
      }
      out = std::move(item.client);
      break;
    }
    reused = out && out->is_socket_open();
    if (reused) ++h.reused;
    else ++h.opened;
  }
  if (!out) out = make_client(origin);
  return out;
}

void UpstreamPool::give_back(const std::string& origin, std::unique_ptr<httplib::Client> client) {
  std::lock_guard lock(mutex_);
  Host& h = hosts_[origin];
  if (h.idle.size() >= limits_.max_idle_per_host) return;  // `client` closes as it goes out of scope
  h.idle.push_back({std::move(client), Clock::now()});
}

UpstreamResult UpstreamPool::send_once(httplib::Client& client, const UpstreamRequest& req, bool& got_bytes) {
  UpstreamResult out;
  httplib::Request hreq;
  hreq.method = req.method;
  hreq.path = req.target;
  for (const auto& [k, v] : req.headers) hreq.headers.emplace(k, v);
  if (!req.body.empty()) {
    hreq.body = req.body;
    hreq.set_header("Content-Type", req.content_type);
  }
  bool too_large = false;
  const std::size_t max = limits_.max_response_bytes;
  hreq.response_handler = [&](const httplib::Response& r) {
    got_bytes = true;
    if (!r.has_header("Content-Length")) return true;
    std::uint64_t declared = 0;
    try {
      declared = std::stoull(r.get_header_value("Content-Length"));
    } catch (const std::exception&) {
      return true;  // cpp-httplib itself rejects a malformed length while reading
    }
    if (declared > max) {
      too_large = true;
      return false;
    }
    out.body.reserve(static_cast<std::size_t>(declared));
    return true;
  };
  hreq.content_receiver = [&](const char* data, std::size_t len, std::uint64_t, std::uint64_t) {
    got_bytes = true;
    if (out.body.size() + len > max) {
      too_large = true;
      return false;
    }
    out.body.append(data, len);
    return true;
  };

  httplib::Response hres;
  httplib::Error err = httplib::Error::Success;
  auto started = Clock::now();
  bool ok = client.send(hreq, hres, err);
  out.elapsed = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - started);
  if (ok) {
    out.outcome = UpstreamResult::Outcome::ok;
    out.status = hres.status;
    out.headers.reserve(hres.headers.size());
    for (const auto& [k, v] : hres.headers) out.headers.emplace_back(k, v);
    return out;
  }
  out.body.clear();
  out.detail = httplib::to_string(err);
  switch (err) {
    case httplib::Error::Canceled:
      out.outcome = too_large ? UpstreamResult::Outcome::too_large : UpstreamResult::Outcome::failed;
      break;
    case httplib::Error::ConnectionTimeout:
      out.outcome = UpstreamResult::Outcome::timeout;
      break;
    case httplib::Error::Connection:
    case httplib::Error::BindIPAddress:
    case httplib::Error::SSLConnection:
    case httplib::Error::SSLLoadingCerts:
    case httplib::Error::SSLServerVerification:
      out.outcome = UpstreamResult::Outcome::connect_failed;
      break;
    case httplib::Error::Read:
    case httplib::Error::Write: {
      // cpp-httplib reports a read time-out as a read error; the elapsed time tells them apart.
      auto limit = err == httplib::Error::Read ? timeouts_.read : timeouts_.write;
      bool timed_out = out.elapsed >= std::chrono::duration_cast<std::chrono::microseconds>(limit) * 95 / 100;
      out.outcome = timed_out ? UpstreamResult::Outcome::timeout : UpstreamResult::Outcome::failed;
      break;
    }
    default:
      out.outcome = UpstreamResult::Outcome::failed;
  }
  return out;
}

UpstreamResult UpstreamPool::send(const UpstreamRequest& req) {
  bool reused = false;
  auto client = lease(req.origin, reused);
  bool got_bytes = false;
  UpstreamResult r = send_once(*client, req, got_bytes);
  if (r.outcome == UpstreamResult::Outcome::failed && reused && !got_bytes && idempotent(req.method)) {
    // The destination closed the idle connection just as it was reused: try a new one.
    {
      std::lock_guard lock(mutex_);
      ++hosts_[req.origin].opened;
    }
    client = make_client(req.origin);
    got_bytes = false;
    auto elapsed = r.elapsed;
    r = send_once(*client, req, got_bytes);
    r.elapsed += elapsed;
  }
  if (r.outcome == UpstreamResult::Outcome::ok) give_back(req.origin, std::move(client));
  return r;
}

UpstreamResult UpstreamPool::probe(const std::string& url, std::chrono::milliseconds timeout) {
  UpstreamResult r;
  auto u = parse_url(url);
  if (!u) {
    r.outcome = UpstreamResult::Outcome::connect_failed;
    r.detail = "endereço inválido";
    return r;
  }
  auto client = make_client(u->origin());
  Timeouts t{timeout, timeout, timeout};
  set_timeouts(*client, t);
  client->set_keep_alive(false);
  UpstreamRequest req;
  req.origin = u->origin();
  req.target = u->target();
  bool got_bytes = false;
  return send_once(*client, req, got_bytes);
}

std::map<std::string, UpstreamPool::HostStats> UpstreamPool::stats() const {
  std::lock_guard lock(mutex_);
  std::map<std::string, HostStats> out;
  for (const auto& [origin, h] : hosts_) out[origin] = {h.idle.size(), h.opened, h.reused};
  return out;
}

}  // namespace cadastre::gateway
