// cadastre_http: the server support shared by cadastre-server, cadastre-gateway and
// cadastre-platform. Handlers see these plain types; the engine (Boost.Beast) stays inside
// listener.cpp.
#pragma once

#include <any>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cadastre/error.hpp"

namespace cadastre {
class JsonWriter;
}

namespace cadastre::http {

class WebSocket;  // http/websocket.hpp

/// ASCII case-insensitive equality, as for header field names and tokens (RFC 9110 §5.1).
bool equal_ignoring_case(std::string_view a, std::string_view b) noexcept;
/// `s` with ASCII letters lowered (header names, schemes, hosts, extensions).
std::string lower_ascii(std::string_view s);
/// Percent-encodes every byte of `s` except ASCII letters, digits and those in `keep`
/// (RFC 3986 unreserved by default), with uppercase hex digits.
std::string percent_encode(std::string_view s, std::string_view keep = "-._~");

/// Case-insensitive header lookup over a list of (name, value).
struct Headers {
  std::vector<std::pair<std::string, std::string>> items;
  const std::string* find(std::string_view name) const;
  void set(std::string name, std::string value);
  void add(std::string name, std::string value) {
    items.emplace_back(std::move(name), std::move(value));
  }
};

/// One part of a multipart/form-data body.
struct FilePart {
  std::string name, filename, content_type, content;
};

struct Request {
  std::string method;  ///< "GET", "POST", ... ("HEAD" is served by GET routes)
  std::string path;    ///< decoded path, e.g. "/geo/campinas/lote/"
  std::string target;  ///< raw request-target as sent (path and query, undecoded), for proxies
  std::vector<std::pair<std::string, std::string>> query;  ///< decoded query fields
  Headers headers;
  std::string body;
  std::vector<FilePart> files;                ///< multipart parts, when any
  std::map<std::string, std::string> params;  ///< path parameters of the matched route
  std::string remote_addr;
  std::string request_id;
  std::string route;   ///< pattern of the matched route (for logs and metrics)
  std::string tenant;  ///< tenant slug once resolved (for the access log)
  std::any auth;       ///< whatever the route's auth scheme established (service-defined)

  const std::string* header(std::string_view name) const { return headers.find(name); }
  /// First value of query field `name`.
  std::optional<std::string> query_value(std::string_view name) const;
  /// Path parameter `name` (empty when absent).
  const std::string& param(std::string_view name) const;
  /// The bearer token of the Authorization header, when present.
  std::optional<std::string> bearer_token() const;
};

struct Response {
  int status = 200;
  std::string body;
  std::string content_type = "application/json; charset=utf-8";
  Headers headers;
  /// Writes one piece of a streamed body; false once the caller has gone.
  using BodyWriter = std::function<bool(const char* data, std::size_t size)>;
  /// When set, the body is `body` followed by what `stream` writes, sent as it is produced
  /// (with Content-Length when `stream_length` gives the whole body's length, else chunked).
  /// `stream` returns false when it could not complete the body: the connection is closed.
  std::function<bool(const BodyWriter& write)> stream;
  std::optional<std::uint64_t> stream_length;
  /// When set, the answer is the WebSocket handshake (made by websocket(), status 101): the
  /// engine accepts the upgrade on the connection of the request it just read, with
  /// `headers` on the 101, and hands the open socket to `upgrade`: once, on the connection's
  /// loop thread, which it must not hold (set the socket's callbacks, subscribe, return).
  /// The socket then holds no thread. Never called when the handshake fails.
  std::function<void(std::shared_ptr<WebSocket>)> upgrade;

  static Response json(std::string body, int status = 200);
  static Response text(std::string body, std::string content_type, int status = 200);
  static Response no_content();
  /// The shared error shape {"mensagem","tipo":"erro","codigo"} with the catalog status.
  static Response error(errc code, std::string_view message);
  static Response error(const Error& e) { return error(e.code(), e.what()); }
  /// The WebSocket handshake for `req`, with `on_open` as `upgrade`, when `req` is a valid
  /// upgrade request (GET, Connection: upgrade, Upgrade: websocket, Sec-WebSocket-Version 13,
  /// a Sec-WebSocket-Key of 16 bytes). Otherwise an error in the shared shape: 426 Upgrade
  /// Required with `Upgrade: websocket` when `req` does not ask for a WebSocket (or asks for
  /// another version: then with `Sec-WebSocket-Version: 13`), 400 when it asks for one
  /// malformed. The route's auth scheme ran before the handler, so an unauthenticated
  /// upgrade has already been refused (401) before any handshake. (http/websocket.cpp)
  static Response websocket(const Request& req,
                            std::function<void(std::shared_ptr<WebSocket>)> on_open);
};

/// Renders the shared error body.
std::string error_body(errc code, std::string_view message);
/// The shared error body with more members after its three, written by `more` into the
/// open object (a report of what was refused): the one way to add to an error answer.
std::string error_body(errc code, std::string_view message, const std::function<void(JsonWriter&)>& more);

using Handler = std::function<Response(Request&)>;

/// A documented parameter (path parameters are derived from the pattern automatically).
/// The query parameters are also the route's contract: validate_params() (http/params.hpp)
/// holds every request to them before its auth and handler run.
struct Param {
  std::string name;
  std::string in = "query";  ///< "query" or "header"
  /// OpenAPI type: string, integer, number, boolean; or object: free-form fields (OpenAPI
  /// style form, explode), under which the route takes query keys it does not declare
  /// (the lists' campo=valor filters, a query passed on to another service).
  std::string type = "string";
  bool required = false;  ///< documented; the handler says what a missing one means
  std::string description;
  std::vector<std::string> values = {};  ///< the accepted values (OpenAPI enum); empty: any
};

/// The permission a route requires. The dispatcher checks it (through the route's auth
/// scheme) before the handler runs, so no handler re-checks it.
struct Access {
  enum class Kind {
    anyone,  ///< no permission: public routes (auth "none"); a signed-in route declares one (tested)
    layer,   ///< read or write permission on a layer (sections such as "agenda" are layers too)
    admin,   ///< tenant administrators only (platform administrators too)
    platform_admin,  ///< platform administrators only (cadastre-platform's /adm routes)
    record,  ///< a role on one of the service's records (a platform project, layer, form...)
    /// any signed-in user of the tenant: the route concerns the caller's own records (profile,
    /// sessions, drafts) or answers only what the caller may see (lists filtered by the
    /// guard's visibility rules); `role` says which, for the documentation
    member,
    /// the route's credential is itself the permission (a client token with a scope, a signed
    /// link, a tenant's integration token): the auth scheme that accepts it is the whole
    /// check; `role` says which credential
    credential,
  };
  Kind kind = Kind::anyone;
  /// Kind::layer: the layer's name ("mapoteca"), or "{param}" for the layer a path parameter
  /// names; a route that reads several layers lists them all (the caller needs each).
  std::vector<std::string> layers;
  bool write = false;
  /// Kind::record: the kind of record ("projeto", "camada", "formulario", "campo",
  /// "geometria", "valor"...), the parameter naming it ("{id}" in the path, a required
  /// query parameter such as "idCamada", or "corpo.idCamada": that member of the JSON body),
  /// and the role the caller needs on it ("leitura", "edicao", "admin"). The service's own
  /// guard resolves it (cadastre-platform: the project's shares, the layer's rights and
  /// privacy).
  std::string record = {}, param = {}, role = {};
  /// Kind::record: a query flag that, when "true", asks for `raised_role` instead of `role`
  /// (GET /krigar/{id}?salvar=true writes a layer: admin where reading needs leitura).
  std::string raise_flag = {}, raised_role = {};

  /// This permission, asking for `needed` when the query flag `flag` is "true".
  Access raised_by(std::string flag, std::string needed) && {
    raise_flag = std::move(flag);
    raised_role = std::move(needed);
    return std::move(*this);
  }

  /// The path parameter naming the first layer ("camada" for "{camada}"); empty for a fixed name.
  std::string_view layer_param() const noexcept;
  /// "leitura na camada {camada}", "escrita na camada agenda", "leitura nas camadas
  /// imobiliario, lote", "administrador do município"; empty for anyone.
  std::string describe() const;
};

/// Read permission on a layer: a fixed name or "{param}".
inline Access reads(std::string layer) { return {Access::Kind::layer, {std::move(layer)}, false}; }
/// Read permission on each of several layers (a route that answers from all of them).
inline Access reads_all(std::vector<std::string> layers) { return {Access::Kind::layer, std::move(layers), false}; }
/// Write permission on a layer: a fixed name or "{param}".
inline Access writes(std::string layer) { return {Access::Kind::layer, {std::move(layer)}, true}; }
/// A role on the record a path parameter ("{id}") or a required query parameter names:
/// on("camada", "{id}", "edicao").
inline Access on(std::string record, std::string param, std::string role) {
  return {Access::Kind::record, {}, role != "leitura", std::move(record), std::move(param), std::move(role)};
}
/// Any signed-in user of the tenant; `what` says what the route then shows or changes
/// ("os próprios dados", "só o que o usuário pode ver").
inline Access members(std::string what) { return {Access::Kind::member, {}, false, {}, {}, std::move(what)}; }
/// Whoever holds the credential the route's auth scheme accepts; `which` names it.
inline Access holders(std::string which) { return {Access::Kind::credential, {}, false, {}, {}, std::move(which)}; }
/// Tenant administrators only.
inline Access admins() { return {Access::Kind::admin, {}, true}; }
/// Platform administrators only.
inline Access platform_admins() { return {Access::Kind::platform_admin, {}, true}; }

/// The request body a route takes.
struct Body {
  std::string description;  ///< empty when the route takes no body
  std::string content_type = "application/json";
  /// The largest body the route takes, when smaller than the service's payload_max (0: that
  /// limit). The engine refuses a larger declared length with 413 before reading the body.
  std::size_t max_bytes = 0;
  /// JSON Schema of the body for the OpenAPI document (JSON text; may $ref the service's
  /// components, "#/components/schemas/..."); empty: a free-form object.
  std::string schema = {};
};

/// One entry of a service's route table: it drives dispatch, auth, permission, parameter
/// checks and the OpenAPI document. Write entries with designated initializers:
///   {.method = "GET", .pattern = "/x/{municipio}/", .auth = "bearer", .access = reads("x"),
///    .tag = "X", .summary = "...", .params = {...}, .handler = ...}
struct Route {
  std::string method;   ///< GET, POST, PUT, DELETE, PATCH
  std::string pattern;  ///< "/geo/{municipio}/{camada}/"; a last segment "{name*}" takes the rest
  std::string auth;     ///< auth scheme name registered with the server ("none" for public)
  Access access = {};   ///< the permission the caller needs (checked by the auth scheme)
  std::string tag;      ///< OpenAPI tag (section of the spec)
  std::string summary;
  std::vector<Param> params = {};
  Body body = {};
  std::string answers = "application/json";  ///< content type of the answer; empty: no body
  int answer_status = 200;                    ///< the success status the OpenAPI document shows
  /// JSON Schema of the answer for the OpenAPI document (JSON text, may $ref components).
  std::string answer_schema = {};
  Handler handler;
};

/// Auth hook: inspects the request for `route`, fills Request::auth, throws Error to refuse.
using AuthHook = std::function<void(Request&, const Route&)>;

/// Description of an auth scheme for the OpenAPI document.
struct AuthScheme {
  std::string name;
  std::string openapi_json;  ///< a securitySchemes entry, e.g. {"type":"http","scheme":"bearer"}
  AuthHook hook;
};

}  // namespace cadastre::http
