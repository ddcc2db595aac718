// Calls to external WMS services, only through the outbound client (outbound/fetch.hpp:
// the allow-list of hosts, special-purpose addresses refused after DNS and at connect
// time, no redirect off the list, size and time limits). A URL the allow-list refuses is
// the caller's bad input here (400 naming "url"), not a permission problem: the platform
// simply does not call that place.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "outbound/policy.hpp"
#include "platform/wms/capabilities.hpp"

namespace cadastre::platform::wms {

/// Largest map image asked for, per side; and the largest image accepted, in bytes.
constexpr int kMaxSide = 4096;
constexpr std::size_t kMaxImageBytes = 16u << 20;

/// `url` checked as an outbound URL (400 "url" when malformed or not http(s)).
void check_url(const std::string& url);

/// The service's capabilities: `url` with SERVICE=WMS&REQUEST=GetCapabilities (unless its
/// query already asks for a request). 400 (url) for a destination the allow-list refuses;
/// 502 for an answer that is not a 200 WMS capabilities document; 504 on time-out.
Capabilities read_capabilities(const outbound::Policy& policy, const std::string& url);

/// `url` without the WMS request parameters in its query (service, request, version and
/// those of GetMap), the base to which a GetMap request adds its own.
std::string service_base(const std::string& url);

struct MapRequest {
  std::string base;    ///< service_base() of the GetMap URL
  std::string versao;  ///< 1.1.1 or 1.3.0
  std::vector<std::string> camadas;
  std::string estilos;  ///< STYLES (empty: the defaults)
  std::string crs;      ///< "EPSG:4674"
  std::array<double, 4> bbox{};  ///< minx, miny, maxx, maxy in the CRS's x/y (lon/lat) order
  int width = 256, height = 256;
  std::string formato = "image/png";
  bool transparente = true;
};

struct Image {
  std::string bytes, content_type;
};

/// The GetMap URL for `r`: 1.3.0 swaps the bbox for CRSs whose axis order is lat/lon (EPSG:4674,
/// EPSG:4326...), as the standard wants.
std::string map_url(const MapRequest& r);

/// The image, at most kMaxImageBytes (and the policy's own limit) within the policy's time
/// limit. 502 when the service answers anything but a 200 image of the format asked for
/// (a WMS ServiceException is quoted); 504 on time-out.
Image get_map(const outbound::Policy& policy, const MapRequest& r);

}  // namespace cadastre::platform::wms
