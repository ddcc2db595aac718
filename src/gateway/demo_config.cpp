#include "gateway/demo_config.hpp"

#include "cadastre/json.hpp"

namespace cadastre::gateway {

std::string demo_config_json(const std::string& cadastre_url, const std::string& platform_url) {
  auto base = [](std::string u) {
    while (!u.empty() && u.back() == '/') u.pop_back();
    return u;
  };
  std::string c = base(cadastre_url), p = base(platform_url.empty() ? cadastre_url : platform_url);
  JsonWriter w;
  w.begin_object();
  w.key("_doc").value("Gerado por cadastre-gateway --print-demo-config; referência em docs/gateway.md");
  w.key("destinations").begin_object();
  w.key("rest").value(c + "/{municipio}");
  w.key("tiles").value(c + "/tiles/{municipio}");
  w.key("platform_rest").value(p);
  // The platform serves its tiles under its own root (/vt, /vt2, /svt...).
  w.key("platform_tiles").value(p);
  w.key("readiness_url").value(p + "/health-check/liveness/");
  w.end_object();
  w.key("timeouts").begin_object();
  w.key("connect_ms").value(2000);  // clear of the SYN retransmissions at 1 s and 3 s
  w.key("read_ms").value(15000);
  w.end_object();
  w.key("token_cache_ttl_ms").value(5000);
  w.end_object();
  return std::move(w).str();
}

}  // namespace cadastre::gateway
