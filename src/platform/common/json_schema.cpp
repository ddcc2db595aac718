#include "platform/common/json_schema.hpp"

namespace cadastre::platform::json_schema {

std::string object(const Props& props, const std::vector<std::string>& required, bool closed) {
  std::string out = R"({"type":"object","properties":{)";
  for (std::size_t i = 0; i < props.size(); ++i)
    out += (i ? "," : "") + std::string("\"") + props[i].first + "\":" + props[i].second;
  out += "}";
  if (!required.empty()) {
    out += R"(,"required":[)";
    for (std::size_t i = 0; i < required.size(); ++i) out += (i ? ",\"" : "\"") + required[i] + "\"";
    out += "]";
  }
  if (closed) out += R"(,"additionalProperties":false)";
  return out + "}";
}

std::string enumeration(const std::vector<std::string>& values) {
  std::string out = R"({"type":"string","enum":[)";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ",\"" : "\"") + values[i] + "\"";
  return out + "]}";
}

std::string ref(const std::string& name) { return R"({"$ref":"#/components/schemas/)" + name + "\"}"; }

std::string list_of(const std::string& name) { return R"({"type":"array","items":)" + ref(name) + "}"; }

}  // namespace cadastre::platform::json_schema
