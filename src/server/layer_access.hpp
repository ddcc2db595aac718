// Layer access for route handlers: resolves {camada} in the caller's tenant catalog and
// enforces the per-layer read/write permission (403 acesso_negado).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "server/app.hpp"
#include "store/catalog.hpp"

namespace cadastre::server {

struct LayerRef {
  std::shared_ptr<const store::Catalog> catalog;  ///< keeps `layer` alive
  const store::Layer* layer = nullptr;
  const store::Layer& operator*() const { return *layer; }
  const store::Layer* operator->() const { return layer; }
};

/// The layer `camada` of the request's tenant, if the caller may read (or write) it.
LayerRef layer_for(App& app, const http::Request& req, std::string_view camada, bool write);

/// The record id from a path segment, checked against the layer's key type (400 when the
/// layer has no single-column key or the text is not a valid value of its type).
std::string record_id(const store::Layer& layer, const std::string& text);

}  // namespace cadastre::server
