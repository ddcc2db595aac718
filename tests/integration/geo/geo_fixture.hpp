// Shared by the /geo tests: one stack per test binary with a 300-lot demo city in tenant
// "alfa" (every test only reads it), helpers to call the server and to ask the database.
#pragma once

#include <doctest/doctest.h>
#include <simdjson.h>

#include <cmath>
#include <map>
#include <set>

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
  std::string mensagem() { return std::string(std::string_view(json()["mensagem"])); }
};

inline std::unique_ptr<Answer> answer(const httplib::Result& r, const std::string& what) {
  REQUIRE_MESSAGE(r, what);
  auto a = std::make_unique<Answer>();
  a->status = r->status;
  a->body = r->body;
  a->content_type = r->get_header_value("Content-Type");
  return a;
}

inline std::unique_ptr<Answer> get(const std::string& path, const std::string& token) {
  auto cli = city().client();
  return answer(cli.Get(path, Stack::bearer(token)), path);
}
inline std::unique_ptr<Answer> get(const std::string& path) { return get(path, city().user("alfa").token); }

inline std::unique_ptr<Answer> post(const std::string& path, const std::string& body, const std::string& token) {
  auto cli = city().client();
  return answer(cli.Post(path, Stack::bearer(token), body, "application/json"), path);
}
inline std::unique_ptr<Answer> post(const std::string& path, const std::string& body) {
  return post(path, body, city().user("alfa").token);
}

inline std::string db(const std::string& sql) { return query_value(city().tenant_dsn("alfa"), sql); }

/// Percent-encoding of a query-string value.
inline std::string url(std::string_view s) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

/// Feature id → properties of a FeatureCollection's features.
inline std::map<std::int64_t, simdjson::dom::element> by_id(simdjson::dom::element collection) {
  std::map<std::int64_t, simdjson::dom::element> out;
  for (auto f : collection["features"].get_array()) out[int64_t(f["id"])] = f["properties"];
  return out;
}

/// The ids a SQL query returns (one id per row, joined by the query with ',').
inline std::set<std::int64_t> id_set(const std::string& csv) {
  std::set<std::int64_t> out;
  std::size_t i = 0;
  while (i < csv.size()) {
    std::size_t j = csv.find(',', i);
    if (j == std::string::npos) j = csv.size();
    if (j > i) out.insert(std::stoll(csv.substr(i, j - i)));
    i = j + 1;
  }
  return out;
}

}  // namespace cadastre::test
