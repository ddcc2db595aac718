// Response::websocket: whether a request may become a WebSocket. The handle's members are in
// listener.cpp, next to the engine's end of the connection.
#include "http/websocket.hpp"

#include <algorithm>

#include "http/http.hpp"

namespace cadastre::http {
namespace {

// Whether the comma-separated list `value` holds `token` (case-insensitive, as Connection
// and Upgrade are compared).
bool lists_token(const std::string* value, std::string_view token) {
  if (!value) return false;
  std::string_view rest = *value;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    if (equal_ignoring_case(item, token)) return true;
  }
  return false;
}

// Base64 of 16 bytes (RFC 6455 §4.2.1): 22 digits and "==".
bool valid_key(const std::string* key) {
  if (!key || key->size() != 24 || key->compare(22, 2, "==") != 0) return false;
  return std::all_of(key->begin(), key->begin() + 22, [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
           c == '/';
  });
}

Response refused(int status, std::string_view message) {
  Response res = Response::error(errc::invalid_argument, message);
  res.status = status;
  return res;
}

}  // namespace

Response Response::websocket(const Request& req,
                             std::function<void(std::shared_ptr<WebSocket>)> on_open) {
  if (!lists_token(req.header("Upgrade"), "websocket")) {
    Response res = refused(426, "esta rota atende apenas conexões WebSocket (Upgrade: websocket)");
    res.headers.set("Upgrade", "websocket");
    return res;
  }
  const std::string* version = req.header("Sec-WebSocket-Version");
  if (!version || *version != "13") {
    Response res = refused(426, "versão do WebSocket não suportada (use 13)");
    res.headers.set("Upgrade", "websocket");
    res.headers.set("Sec-WebSocket-Version", "13");
    return res;
  }
  if (req.method != "GET" || !lists_token(req.header("Connection"), "upgrade") ||
      !valid_key(req.header("Sec-WebSocket-Key")))
    return refused(400,
                   "pedido de WebSocket inválido: requer GET, Connection: upgrade e "
                   "Sec-WebSocket-Key");
  Response res;
  res.status = 101;
  res.content_type.clear();
  res.upgrade = std::move(on_open);
  return res;
}

}  // namespace cadastre::http
