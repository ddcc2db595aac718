#include "gateway/response_rules.hpp"

#include <strings.h>

#include <algorithm>
#include <cctype>

namespace cadastre::gateway {
namespace {

bool ends_with_ignore_case(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         strncasecmp(s.data() + s.size() - suffix.size(), suffix.data(), suffix.size()) == 0;
}

bool starts_with_ignore_case(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && strncasecmp(s.data(), prefix.data(), prefix.size()) == 0;
}

// A type that says nothing about the content: the requested FORMAT is more precise.
bool generic_type(std::string_view type) {
  return type.empty() || starts_with_ignore_case(type, "application/octet-stream") ||
         starts_with_ignore_case(type, "binary/octet-stream");
}

void remove(http::Headers& h, std::string_view name) {
  h.items.erase(std::remove_if(h.items.begin(), h.items.end(),
                               [&](const auto& kv) {
                                 return kv.first.size() == name.size() &&
                                        strncasecmp(kv.first.data(), name.data(), name.size()) == 0;
                               }),
                h.items.end());
}

}  // namespace

bool is_pbf_path(std::string_view path) noexcept { return ends_with_ignore_case(path, ".pbf"); }

void apply_tile_rules(http::Response& r, bool pbf) {
  remove(r.headers, "Cache-Control");
  remove(r.headers, "Pragma");
  remove(r.headers, "Expires");
  r.headers.add("Cache-Control", "no-cache, no-store, must-revalidate");
  r.headers.add("Pragma", "no-cache");
  r.headers.add("Expires", "0");
  if (pbf && r.status >= 200 && r.status < 300) r.content_type = kMvtContentType;
}

std::optional<std::string> image_format(const http::Request& req) {
  for (const auto& [k, v] : req.query) {
    if (k.size() != 6 || strncasecmp(k.data(), "format", 6) != 0) continue;
    if (starts_with_ignore_case(v, "image/") || starts_with_ignore_case(v, kMvtContentType) ||
        starts_with_ignore_case(v, "application/x-protobuf"))
      return v;
  }
  return std::nullopt;
}

void apply_provider_rules(http::Response& r, const http::Request& req) {
  r.headers.set("Access-Control-Allow-Origin", "*");
  if (r.status >= 200 && r.status < 300 && generic_type(r.content_type))
    if (auto format = image_format(req)) r.content_type = *format;
}

}  // namespace cadastre::gateway
