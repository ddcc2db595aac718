#include "http/server.hpp"

#include <algorithm>
#include <iostream>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <thread>

#include "cadastre/json.hpp"
#include "http/docs_page.hpp"
#include "http/listener.hpp"
#include "http/params.hpp"

namespace cadastre::http {
namespace {

std::string new_request_id() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  static constexpr char hex[] = "0123456789abcdef";
  std::uint64_t v = rng();
  std::string id(16, '0');
  for (int i = 0; i < 16; ++i) id[i] = hex[(v >> (i * 4)) & 0xF];
  return id;
}

// Accept a caller's request id only if it is short and plain, so it is safe in logs.
bool acceptable_request_id(const std::string& id) {
  return !id.empty() && id.size() <= 128 && std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  });
}

std::string utc_now_iso() {
  auto now = std::chrono::system_clock::now();
  auto t = std::chrono::system_clock::to_time_t(now);
  auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
  return buf;
}

const char* kAllowHeaders =
    "Authorization, Content-Type, X-Auth-Token, X-Tn-Token, X-Request-Id, X-Origin, If-None-Match";
const char* kExposeHeaders =
    "ETag, X-Request-Id, X-Target-URL, Retry-After, Location, Content-Disposition";

}  // namespace

struct Server::Impl {
  std::optional<Listener> listener;  ///< made by bind()
  std::mutex log_mutex;
  std::thread background;  ///< serve() when started by start()
};

Server::Server(ServiceInfo info, ServerOptions options)
    : impl_(std::make_unique<Impl>()),
      info_(std::move(info)),
      options_(std::move(options)),
      metrics_(info_.metrics_prefix) {
  add_auth_scheme({"none", "", [](Request&, const Route&) {}});
  add({.method = "GET",
       .pattern = info_.openapi_path,
       .auth = "none",
       .tag = "Documentação",
       .summary = "Contrato OpenAPI 3 deste serviço",
       .handler = [this](Request&) { return Response::json(openapi()); }});
  add({.method = "GET",
       .pattern = "/docs",
       .auth = "none",
       .tag = "Documentação",
       .summary = "Página interativa do contrato (funciona sem internet)",
       .answers = "text/html",
       .handler = [this](Request&) {
         return Response::text(docs_page(info_.title, info_.openapi_path),
                               "text/html; charset=utf-8");
       }});
  add({.method = "GET",
       .pattern = "/metrics",
       .auth = "none",
       .tag = "Operação",
       .summary = "Métricas no formato de texto do Prometheus",
       .answers = "text/plain",
       .handler = [this](Request&) {
         return Response::text(metrics_.render(), "text/plain; version=0.0.4");
       }});
}

Server::~Server() { stop(); }

void Server::add_auth_scheme(AuthScheme scheme) { schemes_.push_back(std::move(scheme)); }

AuthHook Server::auth_hook(std::string_view name) const {
  for (const AuthScheme& s : schemes_)
    if (s.name == name) return s.hook;
  throw std::invalid_argument("unknown auth scheme '" + std::string(name) + "'");
}

void Server::add(Route route) {
  bool known = std::any_of(schemes_.begin(), schemes_.end(),
                           [&](const AuthScheme& s) { return s.name == route.auth; });
  if (!known)
    throw std::invalid_argument("unknown auth scheme '" + route.auth + "' for " + route.pattern);
  if (route.auth == "none" && route.access.kind != Access::Kind::anyone)
    throw std::invalid_argument("a public route cannot require a permission: " + route.pattern);
  if (route.access.kind == Access::Kind::layer &&
      (route.access.layers.empty() ||
       std::any_of(route.access.layers.begin(), route.access.layers.end(),
                   [](const std::string& l) { return l.empty(); })))
    throw std::invalid_argument("a layer permission names no layer: " + route.pattern);
  if (auto p = route.access.layer_param();
      !p.empty() && route.pattern.find("{" + std::string(p) + "}") == std::string::npos)
    throw std::invalid_argument("the permission names {" + std::string(p) + "}, absent from " +
                                route.pattern);
  if (route.access.kind == Access::Kind::record) {
    const Access& a = route.access;
    if (a.record.empty() || a.role.empty() || a.param.empty())
      throw std::invalid_argument("a record permission needs a record, a parameter and a role: " + route.pattern);
    bool in_path = a.param.front() == '{';
    bool in_body = a.param.rfind("corpo.", 0) == 0;
    bool declared = in_path   ? route.pattern.find(a.param) != std::string::npos
                    : in_body ? !route.body.description.empty() && route.body.content_type == "application/json"
                              : std::any_of(route.params.begin(), route.params.end(), [&](const Param& p) {
                                return p.name == a.param && p.in == "query" && p.required;
                              });
    if (!declared)
      throw std::invalid_argument("the permission names " + a.param + ", which " + route.pattern +
                                  (in_path   ? " lacks"
                                   : in_body ? " does not declare as its JSON body"
                                             : " does not declare as a required query parameter"));
  }
  if (!route.access.raise_flag.empty() &&
      (route.access.raised_role.empty() ||
       std::none_of(route.params.begin(), route.params.end(),
                    [&](const Param& p) { return p.name == route.access.raise_flag && p.in == "query"; })))
    throw std::invalid_argument("the permission is raised by " + route.access.raise_flag +
                                ", which " + route.pattern + " does not declare as a query parameter (or no role)");
  if ((route.access.kind == Access::Kind::member || route.access.kind == Access::Kind::credential) &&
      route.access.role.empty())
    throw std::invalid_argument("the permission must say what the route shows or which credential: " + route.pattern);
  router_.add(std::move(route));
}

Response Server::handle(Request& req) {
  auto started = std::chrono::steady_clock::now();
  const std::string* incoming_id = req.header("X-Request-Id");
  req.request_id =
      incoming_id && acceptable_request_id(*incoming_id) ? *incoming_id : new_request_id();

  Response res;
  Router::Match m;
  bool preflight = req.method == "OPTIONS";
  try {
    m = router_.match(preflight ? "GET" : req.method, req.path);
    if (preflight) {
      if (!m.route && m.allowed.empty()) {
        res = Response::error(errc::route_not_found, "rota não encontrada: " + req.path);
      } else {
        // The methods a browser may use on this path.
        auto probe = [&](const char* method) {
          return router_.match(method, req.path).route != nullptr;
        };
        std::string allow = "OPTIONS";
        for (const char* method : {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"})
          if (probe(method)) allow = allow + ", " + method;
        res = Response::no_content();
        res.headers.set("Allow", allow);
        res.headers.set("Access-Control-Allow-Methods", allow);
        res.headers.set("Access-Control-Allow-Headers", kAllowHeaders);
        res.headers.set("Access-Control-Max-Age", "600");
      }
      req.route = m.route ? m.route->pattern : "unmatched";
    } else if (!m.route) {
      req.route = "unmatched";
      if (m.allowed.empty()) {
        res = Response::error(errc::route_not_found,
                              "rota não encontrada: " + req.method + " " + req.path);
      } else {
        std::string allow;
        for (const auto& a : m.allowed) allow += (allow.empty() ? "" : ", ") + a;
        res = Response::error(errc::method_not_allowed,
                              "método " + req.method + " não permitido; use " + allow);
        res.headers.set("Allow", allow);
      }
    } else {
      req.route = m.route->pattern;
      req.params = std::move(m.params);
      if (auto it = req.params.find("municipio"); it != req.params.end()) req.tenant = it->second;
      validate_params(*m.route, req);
      for (const auto& s : schemes_)
        if (s.name == m.route->auth) s.hook(req, *m.route);
      res = m.route->handler(req);
    }
  } catch (const Error& e) {
    res = Response::error(e);
    if (e.code() == errc::unavailable) res.headers.set("Retry-After", "5");
    if (const auto* later = dynamic_cast<const RetryLater*>(&e))
      res.headers.set("Retry-After", std::to_string(std::max(1LL, later->seconds())));
    if (e.code() == errc::unauthenticated && !res.headers.find("WWW-Authenticate"))
      res.headers.set("WWW-Authenticate", "Bearer");
  } catch (const std::exception& e) {
    res = Response::error(errc::internal, "erro interno; informe o X-Request-Id " + req.request_id);
    write_log("{\"level\":\"error\",\"request_id\":" + json_quote(req.request_id) +
              ",\"route\":" + json_quote(req.route) + ",\"error\":" + json_quote(e.what()) + "}");
  }

  // CORS: tokens travel in headers and no cookies are used, so allowing any origin is safe.
  if (const std::string* origin = req.header("Origin")) {
    const auto& allowed = options_.cors_origins;
    bool any = std::find(allowed.begin(), allowed.end(), "*") != allowed.end();
    if (any || std::find(allowed.begin(), allowed.end(), *origin) != allowed.end()) {
      res.headers.set("Access-Control-Allow-Origin", any ? "*" : *origin);
      res.headers.set("Access-Control-Expose-Headers", kExposeHeaders);
      if (!any) res.headers.set("Vary", "Origin");
    }
  }
  res.headers.set("X-Request-Id", req.request_id);
  if (options_.finalize) options_.finalize(req, res);

  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  metrics_.observe(req.method, req.route, res.status, seconds);
  if (options_.access_log) {
    JsonWriter w;
    w.begin_object()
        .key("ts")
        .value(utc_now_iso())
        .key("method")
        .value(req.method)
        .key("path")
        .value(req.path);
    w.key("route")
        .value(req.route)
        .key("status")
        .value(res.status)
        .key("ms")
        .value(seconds * 1000.0);
    w.key("tenant")
        .value(req.tenant)
        .key("request_id")
        .value(req.request_id)
        .key("remote")
        .value(req.remote_addr);
    w.end_object();
    write_log(w.str());
  }
  return res;
}

void Server::write_log(const std::string& line) {
  std::lock_guard lock(impl_->log_mutex);
  (options_.log ? *options_.log : std::cerr) << line << '\n';
}

bool Server::bind() {
  // What the engine refuses itself gets the headers every answer of the service carries.
  auto refuse = [this](int status, errc code, const std::string& message,
                       const std::string& remote) {
    Response res = Response::error(code, message);
    res.status = status;
    if (code == errc::unavailable) res.headers.set("Retry-After", "1");
    const std::string id = new_request_id();
    res.headers.set("X-Request-Id", id);
    Request none;
    if (options_.finalize) options_.finalize(none, res);
    metrics_.observe("-", "recusada", status, 0.0);
    if (options_.access_log) {
      JsonWriter w;
      w.begin_object()
          .key("ts")
          .value(utc_now_iso())
          .key("route")
          .value("recusada")
          .key("status")
          .value(status);
      w.key("erro")
          .value(message)
          .key("request_id")
          .value(id)
          .key("remote")
          .value(remote)
          .end_object();
      write_log(w.str());
    }
    return res;
  };
  impl_->listener.emplace(
      options_, [this](Request& req) { return handle(req); }, refuse,
      [this](std::string_view method, std::string_view path) -> std::size_t {
        auto m = router_.match(method, path);
        return m.route ? m.route->body.max_bytes : 0;
      });
  if (!impl_->listener->bind()) {
    impl_->listener.reset();
    return false;
  }
  port_ = impl_->listener->port();
  return true;
}

void Server::serve() {
  if (impl_->listener) impl_->listener->serve();
}

bool Server::start() {
  if (!bind()) return false;
  impl_->background = std::thread([this] { serve(); });
  // The listener reports running shortly after the thread starts.
  for (int i = 0; i < 500 && !running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  return running();
}

void Server::drain() noexcept {
  draining_ = true;
  if (impl_ && impl_->listener) impl_->listener->drain();
}

void Server::stop() {
  if (!impl_) return;
  if (impl_->listener) impl_->listener->stop();
  if (impl_->background.joinable() && impl_->background.get_id() != std::this_thread::get_id())
    impl_->background.join();
}

bool Server::running() const noexcept { return impl_->listener && impl_->listener->running(); }

int Server::open_connections() const noexcept {
  return impl_->listener ? impl_->listener->open_connections() : 0;
}

std::string Server::base_url() const {
  return "http://" + options_.host + ":" + std::to_string(port_);
}

}  // namespace cadastre::http
