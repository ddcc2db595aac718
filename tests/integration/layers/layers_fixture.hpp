// Shared by the layer tests: one stack per test binary with a 300-lot demo city in
// tenant "alfa" (read-only tests share it), helpers to call and parse.
#pragma once

#include <doctest/doctest.h>
#include <simdjson.h>

#include "support/harness.hpp"

namespace cadastre::test {

inline Stack& city() {
  static std::unique_ptr<Stack> stack = [] {
    auto s = std::make_unique<Stack>(std::vector<std::string>{"alfa", "beta"});
    s->load_demo("alfa", 300);
    return s;
  }();
  return *stack;
}

struct Answer {
  int status = 0;
  std::string body, content_type;
  simdjson::dom::parser parser;
  simdjson::dom::element json() {
    simdjson::dom::element e;
    REQUIRE_MESSAGE(parser.parse(body).get(e) == simdjson::SUCCESS, body);
    return e;
  }
  std::string codigo() { return std::string(std::string_view(json()["codigo"])); }
};

inline std::unique_ptr<Answer> get(const std::string& path, const std::string& token) {
  auto cli = city().client();
  auto r = cli.Get(path, Stack::bearer(token));
  REQUIRE_MESSAGE(r, path);
  auto a = std::make_unique<Answer>();
  a->status = r->status;
  a->body = r->body;
  a->content_type = r->get_header_value("Content-Type");
  return a;
}

inline std::unique_ptr<Answer> get(const std::string& path) { return get(path, city().user("alfa").token); }

inline std::string db(const std::string& sql) { return query_value(city().tenant_dsn("alfa"), sql); }

}  // namespace cadastre::test
