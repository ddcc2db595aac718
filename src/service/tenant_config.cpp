#include "service/tenant_config.hpp"

#include <simdjson.h>

#include <array>
#include <map>
#include <optional>

#include "cadastre/json.hpp"

namespace cadastre::service::tenant_config {
namespace {

// The members that hold credentials, as (object, member).
constexpr std::array<std::pair<std::string_view, std::string_view>, 3> kSecrets = {{
    {"rastreador", "token"},
    {"integracao_rest", "token_sha256"},
    {"integracao_rest", "token_destino"},
}};

bool secret(std::string_view parent, std::string_view member) {
  for (const auto& [p, m] : kSecrets)
    if (p == parent && m == member) return true;
  return false;
}

std::optional<simdjson::dom::object> object_of(simdjson::dom::parser& parser, std::string_view text) {
  simdjson::dom::object o;
  if (parser.parse(text.data(), text.size()).get(o) != simdjson::SUCCESS) return std::nullopt;
  return o;
}

}  // namespace

std::string public_view(std::string_view config) {
  simdjson::dom::parser parser;
  auto root = object_of(parser, config);
  if (!root) return "{}";
  JsonWriter w;
  w.begin_object();
  for (auto [key, value] : *root) {
    simdjson::dom::object inner;
    if (value.get(inner) != simdjson::SUCCESS) {
      w.key(key).raw(simdjson::minify(value));
      continue;
    }
    w.key(key).begin_object();
    for (auto [k, v] : inner)
      if (!secret(key, k)) w.key(k).raw(simdjson::minify(v));
    w.end_object();
  }
  return std::move(w.end_object()).str();
}

std::string merged(std::string_view config, std::string_view changes) {
  simdjson::dom::parser old_parser, new_parser;
  std::map<std::string, std::string> members;  // member → its JSON text, in key order
  if (auto root = object_of(old_parser, config))
    for (auto [key, value] : *root) members[std::string(key)] = simdjson::minify(value);
  if (auto root = object_of(new_parser, changes))
    for (auto [key, value] : *root) {
      if (value.is_null()) members.erase(std::string(key));
      else members[std::string(key)] = simdjson::minify(value);
    }
  JsonWriter w;
  w.begin_object();
  for (const auto& [key, value] : members) w.key(key).raw(value);
  return std::move(w.end_object()).str();
}

}  // namespace cadastre::service::tenant_config
