// A small JSON Schema checker for the tests: the keywords of OpenAPI 3.0's schemas that the
// services' documents use — type, nullable, enum, const, required, properties,
// additionalProperties, items, minItems, maxItems, minLength, maxLength, minimum, maximum,
// pattern, oneOf, anyOf, allOf, not, and $ref into "#/components/schemas/" when given the
// components. `format` and `description` are not checked. Returns the problems found, each
// with the JSON path where it was found; empty when the document conforms.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace cadastre::test {

class SchemaCheck {
 public:
  SchemaCheck() = default;
  /// With the document's components ("#/components/schemas"), for schemas that $ref them.
  explicit SchemaCheck(simdjson::dom::object components) : components_(components) {}

  std::vector<std::string> problems;

  void check(simdjson::dom::element schema, simdjson::dom::element v, const std::string& at) {
    simdjson::dom::object s = schema.get_object().value();
    bool nullable = false;
    if (simdjson::dom::element n; !s["nullable"].get(n) && n.is_bool()) nullable = bool(n);
    if (v.is_null() && nullable) return;
    for (auto [keyword, rule] : s) {
      std::string_view k = keyword;
      if (k == "$ref") {
        std::string_view target = rule;
        constexpr std::string_view prefix = "#/components/schemas/";
        simdjson::dom::element named;
        if (!components_ || target.substr(0, prefix.size()) != prefix ||
            (*components_)[target.substr(prefix.size())].get(named))
          fail(at, "refers to an unknown schema " + std::string(target));
        else
          check(named, v, at);
      } else if (k == "type") {
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
      } else if (k == "maxItems" && v.is_array()) {
        if (v.get_array().size() > std::size_t(int64_t(rule))) fail(at, "has more items than " + simdjson::minify(rule));
      } else if (k == "minLength" && v.is_string()) {
        if (characters(v) < std::size_t(int64_t(rule))) fail(at, "is shorter than " + simdjson::minify(rule));
      } else if (k == "maxLength" && v.is_string()) {
        if (characters(v) > std::size_t(int64_t(rule))) fail(at, "is longer than " + simdjson::minify(rule));
      } else if (k == "minimum" && v.is_number()) {
        if (double(v) < double(rule)) fail(at, "is below " + simdjson::minify(rule));
      } else if (k == "maximum" && v.is_number()) {
        if (double(v) > double(rule)) fail(at, "is above " + simdjson::minify(rule));
      } else if (k == "pattern" && v.is_string()) {
        if (!std::regex_search(std::string(std::string_view(v)), std::regex(std::string(std::string_view(rule)))))
          fail(at, "does not match " + std::string(std::string_view(rule)));
      } else if (k == "oneOf") {
        int matches = 0;
        for (auto option : rule.get_array()) matches += conforms(option, v);
        if (matches != 1) fail(at, "matches " + std::to_string(matches) + " of oneOf's schemas, not one");
      } else if (k == "anyOf") {
        int matches = 0;
        for (auto option : rule.get_array()) matches += conforms(option, v);
        if (matches == 0) fail(at, "matches none of anyOf's schemas");
      } else if (k == "allOf") {
        for (auto part : rule.get_array()) check(part, v, at);
      } else if (k == "not") {
        if (conforms(rule, v)) fail(at, "matches a schema it must not: " + simdjson::minify(rule));
      }
    }
  }

  bool conforms(simdjson::dom::element schema, simdjson::dom::element v) {
    SchemaCheck inner;
    inner.components_ = components_;
    inner.check(schema, v, "");
    return inner.problems.empty();
  }

 private:
  std::optional<simdjson::dom::object> components_;

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
  // Characters of a UTF-8 string (what JSON Schema's lengths count).
  static std::size_t characters(simdjson::dom::element v) {
    std::size_t n = 0;
    for (unsigned char c : std::string_view(v)) n += (c & 0xC0) != 0x80;
    return n;
  }
  void fail(const std::string& at, const std::string& what) { problems.push_back((at.empty() ? "$" : at) + " " + what); }
};

}  // namespace cadastre::test
