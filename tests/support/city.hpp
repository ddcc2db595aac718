// Shared by the integration suites that read a demo city: one Stack per test binary with
// tenant "alfa" holding the demo city and "beta" empty, and helpers to call the server and
// to ask the tenant database.
#pragma once

#include <doctest/doctest.h>
#include <simdjson.h>

#include <memory>
#include <string>

#include "support/harness.hpp"

namespace cadastre::test {

/// The binary's stack; the first call decides how many lots the city has.
inline Stack& demo_city(long long lots) {
  static std::unique_ptr<Stack> stack = [lots] {
    auto s = std::make_unique<Stack>(std::vector<std::string>{"alfa", "beta"});
    s->load_demo("alfa", lots);
    return s;
  }();
  return *stack;
}

/// One HTTP answer, with its JSON parsed on demand.
struct Answer {
  int status = 0;
  std::string body, content_type;
  httplib::Headers headers;
  simdjson::dom::parser parser;
  simdjson::dom::element json() {
    simdjson::dom::element e;
    REQUIRE_MESSAGE(parser.parse(body).get(e) == simdjson::SUCCESS, body);
    return e;
  }
  std::string text(const char* key) { return std::string(std::string_view(json()[key])); }
  std::string codigo() { return text("codigo"); }
  std::string mensagem() { return text("mensagem"); }
  std::string header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
  }
};

inline std::unique_ptr<Answer> answer(const httplib::Result& r, const std::string& what) {
  REQUIRE_MESSAGE(r, what);
  auto a = std::make_unique<Answer>();
  a->status = r->status;
  a->body = r->body;
  a->content_type = r->get_header_value("Content-Type");
  a->headers = r->headers;
  return a;
}

/// One request to `stack` with `headers`; the body only for POST and PUT.
inline std::unique_ptr<Answer> call(Stack& stack, const std::string& method, const std::string& path,
                                    const httplib::Headers& headers, const std::string& body = "") {
  auto cli = stack.client();
  httplib::Result r = method == "GET"    ? cli.Get(path, headers)
                      : method == "POST" ? cli.Post(path, headers, body, "application/json")
                      : method == "PUT"  ? cli.Put(path, headers, body, "application/json")
                                         : cli.Delete(path, headers);
  return answer(r, method + " " + path);
}

/// The `key` members of a JSON array's objects, joined by ',' (strings as they are).
inline std::string ids(simdjson::dom::element array, const char* key = "id") {
  std::string out;
  for (auto e : array.get_array()) {
    simdjson::dom::element v = e[key];
    out += (out.empty() ? "" : ",") +
           (v.is_string() ? std::string(std::string_view(v)) : simdjson::minify(v));
  }
  return out;
}

}  // namespace cadastre::test
