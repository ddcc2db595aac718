// The WMS sources of a tenant (projeto.fontes_wms, tenant migration 0025) and the wms
// layers of a project (projeto.camadas with tipo 'wms', url and camadas_wms).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "platform/wms/capabilities.hpp"
#include "platform/wms/input.hpp"
#include "service/caller.hpp"

namespace cadastre::platform::wms {

/// What the capabilities said, as stored with a source.
struct Read {
  std::string url;       ///< the URL the source was registered with
  std::string url_mapa;  ///< GetMap base (service_base)
  Capabilities caps;
};

/// Every source of the tenant, by name.
std::string list(const service::Caller& s);
/// One source (404 when unknown).
std::string one(const service::Caller& s, std::int64_t id);
/// The URL a source holds (404 when unknown).
std::string url_of(const service::Caller& s, std::int64_t id);
/// A new source; 409 when the URL is already a source.
std::int64_t create(const service::Caller& s, const SourceFields& f, const Read& read);
/// Changes a source; `read` when its capabilities were read again.
void update(const service::Caller& s, std::int64_t id, const SourceFields& f, const std::optional<Read>& read);
/// 404 when unknown.
void remove(const service::Caller& s, std::int64_t id);

/// What a GetMap request of a source is checked against.
struct Source {
  std::string versao, url_mapa;
  std::vector<Layer> camadas;
  std::vector<std::string> formatos;
};
Source source(const service::Caller& s, std::int64_t id);

/// A layer of kind wms in a project: the service's GetMap base, the WMS layer's name, its
/// extent (lon/lat) and `propriedades` (JSON object: version, format, CRSs). Returns its id.
std::int64_t create_layer(const service::Caller& s, std::int64_t projeto, const std::string& nome,
                          const std::string& url, const std::string& camada,
                          const std::optional<std::array<double, 4>>& bbox, const std::string& propriedades);

}  // namespace cadastre::platform::wms
