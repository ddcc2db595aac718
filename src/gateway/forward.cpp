#include "gateway/forward.hpp"

#include <algorithm>

#include "cadastre/json.hpp"

namespace cadastre::gateway {

http::Response gateway_error(errc code, std::string_view message, std::string_view target_url) {
  http::Response r = http::Response::error(code, message);
  r.headers.set("X-Target-URL", std::string(target_url));
  if (code == errc::unauthenticated) r.headers.set("WWW-Authenticate", "Bearer");
  return r;
}

Forwarder::Forwarder(UpstreamPool& pool, Breakers& breakers, Log log)
    : pool_(pool), breakers_(breakers), log_(std::move(log)) {}

http::Response Forwarder::forward(const std::string& method, const Destination& d, HeaderList headers,
                                  const std::string& request_id) {
  const std::string origin = d.url.origin();
  CircuitBreaker& breaker = breakers_.get(d.breaker, origin);
  auto permit = breaker.acquire();
  if (!permit.allowed) {
    auto r = gateway_error(errc::unavailable,
                           "destino temporariamente indisponível: circuito '" + d.breaker + "' aberto para " + origin,
                           d.display);
    auto seconds = std::max<long long>(1, (permit.retry_after.count() + 999) / 1000);
    r.headers.set("Retry-After", std::to_string(seconds));
    return r;
  }

  UpstreamRequest req;
  req.method = method;
  req.origin = origin;
  req.target = d.url.target();
  req.headers = std::move(headers);
  req.stream_large_body = true;
  UpstreamResult res = pool_.send(req);

  using O = UpstreamResult::Outcome;
  if (res.outcome == O::ok) {
    breaker.record(permit, !breakers_.is_failure_status(d.breaker, res.status));
    http::Response r;
    r.status = res.status;
    const std::string* type = find_header(res.headers, "Content-Type");
    r.content_type = type && !type->empty() ? *type : "application/octet-stream";
    r.body = std::move(res.body);
    if (res.rest) {  // a large body: the rest crosses while it arrives
      r.stream = [rest = res.rest](const http::Response::BodyWriter& write) { return rest->pump(write); };
      r.stream_length = res.content_length;
    }
    // A HEAD answer has no body to measure: keep the length the destination announced.
    if (method == "HEAD")
      if (const std::string* length = find_header(res.headers, "Content-Length")) r.headers.set("Content-Length", *length);
    for (auto& [k, v] : response_headers_to_return(res.headers)) r.headers.add(std::move(k), std::move(v));
    r.headers.set("X-Target-URL", d.display);
    return r;
  }

  // A body over the limit says nothing about the destination's health.
  breaker.record(permit, res.outcome == O::too_large);
  if (log_) {
    JsonWriter w;
    w.begin_object().key("level").value("warn").key("msg").value("falha no destino").key("breaker").value(d.breaker);
    w.key("destino").value(d.display).key("erro").value(res.detail).key("request_id").value(request_id);
    w.key("ms").value(static_cast<double>(res.elapsed.count()) / 1000.0).end_object();
    log_(w.str());
  }
  switch (res.outcome) {
    case O::timeout:
      return gateway_error(errc::upstream_timeout, "o destino não respondeu dentro do tempo limite", d.display);
    case O::connect_failed:
      return gateway_error(errc::upstream_failed, "não foi possível conectar ao destino", d.display);
    case O::too_large:
      return gateway_error(errc::upstream_failed, "a resposta do destino excede o tamanho máximo aceito", d.display);
    default:
      return gateway_error(errc::upstream_failed, "o destino interrompeu a resposta", d.display);
  }
}

}  // namespace cadastre::gateway
