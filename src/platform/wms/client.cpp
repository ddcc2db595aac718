#include "platform/wms/client.hpp"

#include <ogr_srs_api.h>

#include <algorithm>
#include <cstdio>

#include "cadastre/error.hpp"
#include "http/http.hpp"
#include "outbound/fetch.hpp"
#include "outbound/url.hpp"

namespace cadastre::platform::wms {
namespace {

// The WMS parameters a base URL must not carry: the request we send sets its own.
constexpr const char* kOwnParams[] = {"service", "request", "version", "layers", "styles", "crs", "srs", "bbox",
                                      "width",   "height",  "format",  "transparent"};

std::string lower(std::string_view s) { return http::lower_ascii(s); }

// The outbound call, with the allow-list's refusals as the caller's bad URL.
outbound::Response call(const outbound::Policy& policy, const std::string& url) {
  try {
    outbound::Request request;
    request.method = "GET";
    request.url = url;
    return outbound::fetch(policy, request);
  } catch (const Error& e) {
    if (e.code() == errc::forbidden || e.code() == errc::invalid_argument)
      throw Error(errc::invalid_argument, std::string("url não permitida: ") + e.what(), "url");
    throw;
  }
}

std::string media_type(const outbound::Response& r) {
  const std::string* t = r.header("Content-Type");
  if (!t) return "";
  std::string v = lower(t->substr(0, t->find(';')));
  v.erase(std::remove(v.begin(), v.end(), ' '), v.end());
  return v;
}

std::string with_query(const std::string& base, const std::string& query) {
  if (base.find('?') == std::string::npos) return base + "?" + query;
  char last = base.back();
  return base + (last == '?' || last == '&' ? "" : "&") + query;
}

std::string short_number(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.12g", d);
  return buf;
}

// Whether WMS 1.3.0 wants the bbox of `crs` as lat/lon (northing first): EPSG geographic
// CRSs, whose official axis order is latitude first. CRS:84 is lon/lat by definition.
bool northing_first(const std::string& crs) {
  std::string l = lower(crs);
  if (l.rfind("epsg:", 0) != 0) return false;
  int code = std::atoi(l.c_str() + 5);
  if (code <= 0) return false;
  OGRSpatialReferenceH srs = OSRNewSpatialReference(nullptr);
  bool swap = OSRImportFromEPSG(srs, code) == OGRERR_NONE &&
              (OSREPSGTreatsAsLatLong(srs) || OSREPSGTreatsAsNorthingEasting(srs));
  OSRDestroySpatialReference(srs);
  return swap;
}

bool magic_matches(const std::string& type, const std::string& bytes) {
  if (type == "image/png") return bytes.rfind("\x89PNG\r\n\x1a\n", 0) == 0;
  if (type == "image/jpeg") return bytes.rfind("\xff\xd8\xff", 0) == 0;
  if (type == "image/gif") return bytes.rfind("GIF8", 0) == 0;
  return true;  // other image formats: the content type alone
}

}  // namespace

void check_url(const std::string& url) {
  if (url.empty()) throw Error(errc::missing_field, "informe url", "url");
  if (url.size() > 2000) throw Error(errc::invalid_argument, "url longa demais (máximo 2000)", "url");
  try {
    outbound::parse_target(url);
  } catch (const Error& e) {
    throw Error(errc::invalid_argument, std::string("url inválida: ") + e.what(), "url");
  }
}

std::string service_base(const std::string& url) {
  auto q = url.find('?');
  if (q == std::string::npos) return url;
  std::string out = url.substr(0, q), kept;
  std::string query = url.substr(q + 1);
  for (std::size_t i = 0; i <= query.size();) {
    std::size_t j = std::min(query.find('&', i), query.size());
    std::string pair = query.substr(i, j - i);
    std::string key = lower(pair.substr(0, pair.find('=')));
    bool own = std::any_of(std::begin(kOwnParams), std::end(kOwnParams), [&](const char* p) { return key == p; });
    if (!pair.empty() && !own) kept += (kept.empty() ? "" : "&") + pair;
    i = j + 1;
  }
  return kept.empty() ? out : out + "?" + kept;
}

Capabilities read_capabilities(const outbound::Policy& policy, const std::string& url) {
  check_url(url);
  std::string l = lower(url);
  bool asks = l.find("?request=") != std::string::npos || l.find("&request=") != std::string::npos;
  std::string target = asks ? url : with_query(service_base(url), "SERVICE=WMS&REQUEST=GetCapabilities");
  outbound::Response r = call(policy, target);
  if (r.status != 200)
    throw Error(errc::upstream_failed, "o serviço WMS respondeu " + std::to_string(r.status) + " às capacidades");
  return parse(r.body);
}

std::string map_url(const MapRequest& r) {
  const bool v13 = r.versao == "1.3.0";
  std::array<double, 4> b = r.bbox;
  if (v13 && northing_first(r.crs)) b = {r.bbox[1], r.bbox[0], r.bbox[3], r.bbox[2]};
  std::string layers;
  for (const std::string& c : r.camadas) layers += (layers.empty() ? "" : ",") + c;
  std::string q = "SERVICE=WMS&REQUEST=GetMap&VERSION=" + r.versao;
  q += "&LAYERS=" + http::percent_encode(layers, "-._~,:");
  q += "&STYLES=" + http::percent_encode(r.estilos, "-._~,:");
  q += std::string(v13 ? "&CRS=" : "&SRS=") + http::percent_encode(r.crs, "-._~:");
  q += "&BBOX=" + short_number(b[0]) + "," + short_number(b[1]) + "," + short_number(b[2]) + "," + short_number(b[3]);
  q += "&WIDTH=" + std::to_string(r.width) + "&HEIGHT=" + std::to_string(r.height);
  q += "&FORMAT=" + http::percent_encode(r.formato) + "&TRANSPARENT=" + (r.transparente ? "TRUE" : "FALSE");
  return with_query(r.base, q);
}

Image get_map(const outbound::Policy& configured, const MapRequest& r) {
  outbound::Policy policy = configured;
  policy.max_bytes = std::min(policy.max_bytes, kMaxImageBytes);
  outbound::Response res = call(policy, map_url(r));
  if (res.status != 200)
    throw Error(errc::upstream_failed, "o serviço WMS respondeu " + std::to_string(res.status) + " ao GetMap");
  std::string type = media_type(res);
  if (type != lower(r.formato)) {
    std::string said = res.body.substr(0, 300);
    std::replace_if(said.begin(), said.end(), [](char c) { return c == '\r' || c == '\n'; }, ' ');
    throw Error(errc::upstream_failed, "o serviço WMS respondeu " + (type.empty() ? "sem tipo" : type) + " em vez de " +
                                           r.formato + (type.find("xml") != std::string::npos ? ": " + said : ""));
  }
  if (!magic_matches(type, res.body))
    throw Error(errc::upstream_failed, "o serviço WMS respondeu " + type + " com conteúdo de outro tipo");
  return {std::move(res.body), type};
}

}  // namespace cadastre::platform::wms
