// The configuration ./scripts/demo gives the gateway: the caller's municipality on a local
// cadastre-server (REST at /{municipio}, tiles at /tiles/{municipio}) and the platform on
// `platform_url` (cadastre-platform; cadastre-server itself when none is given). External
// providers are left out: the demo runs without internet, and an unconfigured provider
// answers 503 "provedor não configurado".
#pragma once

#include <string>

namespace cadastre::gateway {

std::string demo_config_json(const std::string& cadastre_url, const std::string& platform_url);

}  // namespace cadastre::gateway
