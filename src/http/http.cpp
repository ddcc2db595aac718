#include "http/http.hpp"

#include <strings.h>

#include "cadastre/json.hpp"

namespace cadastre::http {

bool equal_ignoring_case(std::string_view a, std::string_view b) noexcept {
  return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

const std::string* Headers::find(std::string_view name) const {
  for (const auto& [k, v] : items)
    if (equal_ignoring_case(k, name)) return &v;
  return nullptr;
}

void Headers::set(std::string name, std::string value) {
  for (auto& [k, v] : items) {
    if (equal_ignoring_case(k, name)) {
      v = std::move(value);
      return;
    }
  }
  items.emplace_back(std::move(name), std::move(value));
}

std::optional<std::string> Request::query_value(std::string_view name) const {
  for (const auto& [k, v] : query)
    if (k == name) return v;
  return std::nullopt;
}

const std::string& Request::param(std::string_view name) const {
  static const std::string empty;
  auto it = params.find(std::string(name));
  return it == params.end() ? empty : it->second;
}

std::optional<std::string> Request::bearer_token() const {
  const std::string* h = header("Authorization");
  if (!h || h->size() < 7 || strncasecmp(h->data(), "Bearer ", 7) != 0) return std::nullopt;
  std::string token = h->substr(7);
  while (!token.empty() && token.front() == ' ') token.erase(0, 1);
  while (!token.empty() && token.back() == ' ') token.pop_back();
  if (token.empty()) return std::nullopt;
  return token;
}

std::string error_body(errc code, std::string_view message) { return error_body(code, message, nullptr); }

std::string error_body(errc code, std::string_view message, const std::function<void(JsonWriter&)>& more) {
  JsonWriter w;
  w.begin_object()
      .key("mensagem")
      .value(message)
      .key("tipo")
      .value("erro")
      .key("codigo")
      .value(code_string(code));
  if (more) more(w);
  w.end_object();
  return std::move(w).str();
}

Response Response::json(std::string body, int status) {
  Response r;
  r.status = status;
  r.body = std::move(body);
  return r;
}

Response Response::text(std::string body, std::string content_type, int status) {
  Response r;
  r.status = status;
  r.body = std::move(body);
  r.content_type = std::move(content_type);
  return r;
}

Response Response::no_content() {
  Response r;
  r.status = 204;
  r.content_type.clear();
  return r;
}

Response Response::error(errc code, std::string_view message) {
  return json(error_body(code, message), http_status(code));
}

std::string lower_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

std::string percent_encode(std::string_view s, std::string_view keep) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    auto b = static_cast<unsigned char>(ch);
    bool plain = (b >= '0' && b <= '9') || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') ||
                 keep.find(ch) != std::string_view::npos;
    if (plain) {
      out += ch;
    } else {
      out += '%';
      out += kHex[b >> 4];
      out += kHex[b & 0xF];
    }
  }
  return out;
}

std::string_view Access::layer_param() const noexcept {
  if (layers.empty()) return {};
  std::string_view l = layers.front();
  if (l.size() > 2 && l.front() == '{' && l.back() == '}') return l.substr(1, l.size() - 2);
  return {};
}

std::string Access::describe() const {
  switch (kind) {
    case Kind::anyone:
      return {};
    case Kind::admin:
      return "administrador do município";
    case Kind::platform_admin:
      return "administrador da plataforma";
    case Kind::record:
      return role + " em " + record + " " + param +
             (raise_flag.empty() ? "" : " (" + raised_role + " com " + raise_flag + "=true)");
    case Kind::member:
      return "usuário do município: " + role;
    case Kind::credential:
      return "portador de " + role;
    case Kind::layer: {
      std::string out = std::string(write ? "escrita" : "leitura") +
                        (layers.size() > 1 ? " nas camadas " : " na camada ");
      for (std::size_t i = 0; i < layers.size(); ++i) out += (i ? ", " : "") + layers[i];
      return out;
    }
  }
  return {};
}

}  // namespace cadastre::http
