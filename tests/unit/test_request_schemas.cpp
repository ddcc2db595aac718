// The platform's request schemas agree with the parsers they sit beside (each area's
// input.cpp, request_schemas(); src/platform/common/request_schema.hpp): for every one, its
// example passes both the schema and the parser, and the example with one unknown member
// more is refused by both. The schemas are what /swagger.json publishes.
#include <doctest/doctest.h>
#include <simdjson.h>

#include <set>
#include <string>

#include "cadastre/error.hpp"
#include "platform/schemas.hpp"
#include "support/json_schema.hpp"

namespace {

using cadastre::platform::schemas::components;
using cadastre::platform::schemas::requests;

// Every component as one JSON object, for the schemas' $ref.
std::string components_json() {
  std::string out = "{";
  for (const auto& [name, schema] : components()) out += (out.size() > 1 ? ",\"" : "\"") + name + "\":" + schema;
  return out + "}";
}

// `body` with the member "membroDesconhecido" added to the object, or to the first object
// of an array.
std::string with_unknown_member(const std::string& body) {
  auto brace = body.find('{');
  REQUIRE(brace != std::string::npos);
  auto next = body.find_first_not_of(" \n\t", brace + 1);
  return body.substr(0, brace + 1) + R"("membroDesconhecido":1)" + (body[next] == '}' ? "" : ",") +
         body.substr(brace + 1);
}

struct Checked {
  std::vector<std::string> schema_problems;
  std::optional<cadastre::Error> parser_refusal;
};

Checked check(const cadastre::platform::common::RequestSchema& r, const std::string& body) {
  static const std::string all = components_json();
  simdjson::dom::parser p1, p2, p3;
  simdjson::dom::object named = p1.parse(all).get_object().value();
  simdjson::dom::element schema = p2.parse(r.schema).value();
  simdjson::dom::element value;
  REQUIRE_MESSAGE(!p3.parse(body).get(value), r.name << ": the body is not JSON: " << body);
  cadastre::test::SchemaCheck sc(named);
  sc.check(schema, value, "");
  Checked out{sc.problems, std::nullopt};
  try {
    r.parse(body);
  } catch (const cadastre::Error& e) {
    out.parser_refusal = e;
  }
  return out;
}

}  // namespace

TEST_CASE("every request schema's example passes both the schema and its parser") {
  REQUIRE(requests().size() >= 58);
  for (const auto& r : requests()) {
    CAPTURE(r.name);
    if (r.example.empty() || !r.parse) {
      FAIL_CHECK(r.name << " has no example or names no parser");
      continue;
    }
    Checked c = check(r, r.example);
    for (const auto& p : c.schema_problems) FAIL_CHECK(r.name << ": the schema refuses the example: " << p);
    if (c.parser_refusal) FAIL_CHECK(r.name << ": the parser refuses the example: " << c.parser_refusal->what());
  }
}

TEST_CASE("an unknown member is refused by the schema and by the parser alike") {
  for (const auto& r : requests()) {
    CAPTURE(r.name);
    if (r.example.empty() || !r.parse) continue;  // reported by the test above
    Checked c = check(r, with_unknown_member(r.example));
    CHECK_MESSAGE(!c.schema_problems.empty(), r.name << ": the schema takes an unknown member");
    CHECK_MESSAGE(c.parser_refusal.has_value(), r.name << ": the parser takes an unknown member");
    if (c.parser_refusal)
      CHECK_MESSAGE(c.parser_refusal->code() == cadastre::errc::unknown_field,
                    r.name << ": the parser refuses it as " << c.parser_refusal->what());
  }
}

TEST_CASE("each request schema has a name of its own") {
  std::set<std::string> names;
  for (const auto& [name, schema] : components()) CHECK_MESSAGE(names.insert(name).second, "two schemas named " << name);
}
