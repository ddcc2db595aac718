// A small JSON Schema checker for the tests (the keywords the Formly schema of
// test_formly.cpp uses): type, enum, const, required, properties, additionalProperties,
// items, minItems, minLength, oneOf, not. Returns the problems found, each with the JSON
// path where it was found; empty when the document conforms.
#pragma once

#include <simdjson.h>

#include <string>
#include <string_view>
#include <vector>

namespace cadastre::test {

class SchemaCheck {
 public:
  std::vector<std::string> problems;

  void check(simdjson::dom::element schema, simdjson::dom::element v, const std::string& at) {
    simdjson::dom::object s = schema.get_object().value();
    for (auto [keyword, rule] : s) {
      std::string_view k = keyword;
      if (k == "type") {
        if (!has_type(v, std::string_view(rule))) fail(at, "is not of type " + std::string(std::string_view(rule)));
      } else if (k == "enum") {
        bool found = false;
        for (auto option : rule.get_array()) found |= simdjson::minify(option) == simdjson::minify(v);
        if (!found) fail(at, simdjson::minify(v) + " is not in " + simdjson::minify(rule));
      } else if (k == "const") {
        if (simdjson::minify(rule) != simdjson::minify(v)) fail(at, simdjson::minify(v) + " is not " + simdjson::minify(rule));
      } else if (k == "required" && v.is_object()) {
        for (auto name : rule.get_array())
          if (v.get_object().at_key(std::string_view(name)).error()) fail(at, "lacks " + std::string(std::string_view(name)));
      } else if (k == "properties" && v.is_object()) {
        for (auto [name, sub] : rule.get_object()) {
          simdjson::dom::element member;
          if (!v.get_object().at_key(name).get(member)) check(sub, member, at + "." + std::string(name));
        }
      } else if (k == "additionalProperties" && v.is_object()) {
        simdjson::dom::object declared;
        bool has_declared = !s["properties"].get(declared);
        for (auto [name, member] : v.get_object()) {
          if (has_declared && !declared.at_key(name).error()) continue;
          if (rule.is_bool()) {
            if (!bool(rule)) fail(at, "has undeclared member " + std::string(name));
          } else {
            check(rule, member, at + "." + std::string(name));
          }
        }
      } else if (k == "items" && v.is_array()) {
        std::size_t i = 0;
        for (auto item : v.get_array()) check(rule, item, at + "[" + std::to_string(i++) + "]");
      } else if (k == "minItems" && v.is_array()) {
        if (v.get_array().size() < std::size_t(int64_t(rule))) fail(at, "has fewer items than " + simdjson::minify(rule));
      } else if (k == "minLength" && v.is_string()) {
        if (std::string_view(v).size() < std::size_t(int64_t(rule))) fail(at, "is shorter than " + simdjson::minify(rule));
      } else if (k == "oneOf") {
        int matches = 0;
        for (auto option : rule.get_array()) matches += conforms(option, v);
        if (matches != 1) fail(at, "matches " + std::to_string(matches) + " of oneOf's schemas, not one");
      } else if (k == "not") {
        if (conforms(rule, v)) fail(at, "matches a schema it must not: " + simdjson::minify(rule));
      }
    }
  }

  bool conforms(simdjson::dom::element schema, simdjson::dom::element v) {
    SchemaCheck inner;
    inner.check(schema, v, "");
    return inner.problems.empty();
  }

 private:
  static bool has_type(simdjson::dom::element v, std::string_view type) {
    if (type == "object") return v.is_object();
    if (type == "array") return v.is_array();
    if (type == "string") return v.is_string();
    if (type == "boolean") return v.is_bool();
    if (type == "number") return v.is_number();
    if (type == "integer") return v.is_int64() || v.is_uint64();
    if (type == "null") return v.is_null();
    return false;
  }
  void fail(const std::string& at, const std::string& what) { problems.push_back((at.empty() ? "$" : at) + " " + what); }
};

}  // namespace cadastre::test
