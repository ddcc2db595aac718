#include "platform/proxy/input.hpp"

#include "cadastre/error.hpp"
#include "http/request_head.hpp"

namespace cadastre::platform::proxy {

std::string forwarded_target(const http::Request& req) {
  std::string raw = req.target.empty() ? req.path : req.target;
  auto second = raw.find('/', 1);
  std::string rest = second == std::string::npos ? "/" : raw.substr(second);
  std::string path = rest.substr(0, rest.find('?'));
  std::string decoded = http::wire::percent_decode(path, false);
  for (std::size_t start = 0; start <= decoded.size();) {
    std::size_t end = decoded.find('/', start);
    if (end == std::string::npos) end = decoded.size();
    std::string_view segment(decoded.data() + start, end - start);
    if (segment == "." || segment == "..") throw Error(errc::invalid_argument, "segmento . ou .. no caminho", "endpoint");
    start = end + 1;
  }
  return rest;
}

std::string target_url(const http::Request& req) {
  auto url = req.query_value("url");
  if (!url || url->empty()) throw Error(errc::missing_field, "informe url", "url");
  return *url;
}

}  // namespace cadastre::platform::proxy
