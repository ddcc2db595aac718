#include "http/etag.hpp"

namespace cadastre::http {

std::vector<std::string_view> etag_list(const Request& req) {
  std::vector<std::string_view> out;
  const std::string* header = req.header("If-None-Match");
  if (!header) return out;
  std::string_view rest = *header;
  while (!rest.empty()) {
    auto comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    if (item.starts_with("W/")) item.remove_prefix(2);
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

bool etag_matches(const Request& req, std::string_view etag) {
  for (std::string_view item : etag_list(req))
    if (item == "*" || item == etag) return true;
  return false;
}

}  // namespace cadastre::http
