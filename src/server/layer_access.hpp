// Layer access for route handlers not yet moved to service::Scope (see service/scope.hpp).
#pragma once

#include <string>
#include <string_view>

#include "server/app.hpp"

namespace cadastre::server {

using service::LayerRef;
using service::record_id;

/// The layer `camada` of the request's tenant, if the caller may read (or write) it.
inline LayerRef layer_for(App&, const http::Request& req, std::string_view camada, bool write) {
  return context(req).layer(camada, write);
}

}  // namespace cadastre::server
