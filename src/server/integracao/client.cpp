#include "server/integracao/client.hpp"

#include <httplib.h>

namespace cadastre::server::outbound {
namespace {

using Clock = std::chrono::steady_clock;

void set_timeouts(httplib::Client& c, std::chrono::milliseconds t) {
  auto s = static_cast<time_t>(t.count() / 1000), us = static_cast<time_t>((t.count() % 1000) * 1000);
  c.set_connection_timeout(s, us);
  c.set_read_timeout(s, us);
  c.set_write_timeout(s, us);
}

}  // namespace

std::optional<Url> parse_url(std::string_view text) {
  std::string_view rest;
  std::string scheme;
  if (text.substr(0, 7) == "http://") {
    scheme = "http";
    rest = text.substr(7);
  } else if (text.substr(0, 8) == "https://") {
    scheme = "https";
    rest = text.substr(8);
  } else {
    return std::nullopt;
  }
  if (rest.find_first_of("?#@ \t\r\n\\") != std::string_view::npos) return std::nullopt;
  auto slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  std::string_view path = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  auto colon = authority.rfind(':');
  std::string_view host = authority;
  if (colon != std::string_view::npos && authority.find(']', colon) == std::string_view::npos) {
    std::string_view port = authority.substr(colon + 1);
    if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos ||
        std::stoi(std::string(port)) > 65535 || std::stoi(std::string(port)) == 0)
      return std::nullopt;
    host = authority.substr(0, colon);
  }
  if (host.empty()) return std::nullopt;
  return Url{scheme + "://" + std::string(authority), std::string(path)};
}

Result send(const Call& call) {
  Result out;
  httplib::Client client(call.origin);
  client.set_keep_alive(false);
  client.set_follow_location(false);
  client.set_url_encode(false);  // targets arrive encoded
  client.set_decompress(true);
  set_timeouts(client, call.timeout);

  httplib::Request req;
  req.method = call.method;
  req.path = call.target;
  for (const auto& [k, v] : call.headers) req.headers.emplace(k, v);
  if (!call.body.empty() || call.method == "POST" || call.method == "PUT") {
    req.body = call.body;
    req.set_header("Content-Type", call.content_type.empty() ? "application/json" : call.content_type);
  }
  bool too_large = false;
  req.content_receiver = [&](const char* data, std::size_t len, std::uint64_t, std::uint64_t) {
    if (out.body.size() + len > call.max_response_bytes) {
      too_large = true;
      return false;
    }
    out.body.append(data, len);
    return true;
  };

  httplib::Response res;
  httplib::Error err = httplib::Error::Success;
  auto started = Clock::now();
  if (client.send(req, res, err)) {
    out.outcome = Result::Outcome::ok;
    out.status = res.status;
    out.content_type = res.get_header_value("Content-Type");
    return out;
  }
  out.body.clear();
  auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
  out.detail = too_large ? "resposta maior que o limite" : httplib::to_string(err);
  switch (err) {
    case httplib::Error::ConnectionTimeout:
      out.outcome = Result::Outcome::timeout;
      break;
    case httplib::Error::Connection:
    case httplib::Error::BindIPAddress:
    case httplib::Error::SSLConnection:
    case httplib::Error::SSLServerVerification:
      out.outcome = Result::Outcome::connect_failed;
      break;
    case httplib::Error::Read:
    case httplib::Error::Write:
      // cpp-httplib reports a time-out while reading or writing as a read/write error:
      // the elapsed time tells them apart.
      out.outcome = elapsed >= call.timeout * 95 / 100 ? Result::Outcome::timeout : Result::Outcome::failed;
      break;
    default:
      out.outcome = Result::Outcome::failed;
  }
  return out;
}

}  // namespace cadastre::server::outbound
