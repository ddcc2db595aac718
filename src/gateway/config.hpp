// The gateway's configuration file (JSON, read with simdjson). docs/gateway.md is the
// reference and apps/cadastre-gateway/gateway.example.json a commented example; keys that
// start with '_' are comments, any other unknown key is an error (typos must not pass).
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gateway/breakers.hpp"
#include "gateway/jwt.hpp"

namespace cadastre::gateway {


/// The twelve provider labels of the spec, in the spec's order.
const std::vector<std::string>& provider_labels();

inline constexpr std::string_view kLandRegistry = "land-registry";
inline constexpr std::string_view kMapExportCityA = "map-export-city-a";
inline constexpr std::string_view kCityDVectorTiles = "city-d-vector-tiles";

struct Timeouts {
  /// Between Linux's SYN retransmissions at 1 s and 3 s: 1 s would give up just as a
  /// dropped SYN is sent again (docs/gateway.md, Forwarding).
  std::chrono::milliseconds connect{2000};
  std::chrono::milliseconds read{15000};
  std::chrono::milliseconds write{10000};
};

struct UpstreamLimits {
  std::size_t max_idle_per_host = 64;        ///< kept-alive connections per destination host
  std::chrono::milliseconds idle{20000};     ///< idle connections older than this are closed
  /// Largest body read whole into memory; larger ones stream through (forwarded calls).
  std::size_t inline_body_bytes = 256u << 10;
  /// Largest body accepted: a larger announced length → 502 before anything is sent on;
  /// a streamed body that grows past it is cut off (the caller's connection is closed).
  std::size_t max_response_bytes = 1024u << 20;
  /// Extra trusted CA certificates (PEM file) for https destinations, besides the
  /// system's (e.g. a municipality's private CA); "" for the system store only.
  std::string ca_file;
};

/// How the gateway obtains the token of an authenticated provider (OAuth 2 client
/// credentials: POST token_url with grant_type=client_credentials, client_id,
/// client_secret and scope; the answer's access_token/token and expires_in/expires).
struct ProviderTokenConfig {
  std::string token_url;
  std::string client_id, client_secret, scope;
  std::string query_param = "token";  ///< query field that carries the token ("" = none)
  std::string header;                 ///< header that carries "Bearer <token>" ("" = none)
  std::chrono::milliseconds max_ttl{3600000};        ///< never kept longer than this
  std::chrono::milliseconds refresh_margin{30000};   ///< renewed this long before expiry
};

struct ProviderConfig {
  std::string label;
  std::string url;  ///< template: {tema} (land-registry), {z} {x} {y} (city-d-vector-tiles)
  std::optional<ProviderTokenConfig> token;
};

/// Destination templates of one tenant ({municipio} is its slug).
struct TenantDestinations {
  std::string rest, tiles;
};

struct Config {
  std::string platform_dsn;  ///< identity store; --platform-dsn overrides it
  TenantDestinations tenant_default;
  std::map<std::string, TenantDestinations, std::less<>> tenant_overrides;  ///< by slug
  std::string platform_rest, platform_tiles;
  std::string readiness_url;  ///< probed by /health-check/readiness (default: platform_rest)
  std::map<std::string, ProviderConfig, std::less<>> providers;  ///< by label
  JwtOptions intranet;
  std::map<std::string, BreakerPolicy, std::less<>> breakers;  ///< rest, tiles, auth
  Timeouts timeouts;
  UpstreamLimits upstream;
  std::chrono::milliseconds token_cache_ttl{5000};  ///< validated credentials kept in process

  /// The templates for tenant `slug` (its override, else the default ones).
  const TenantDestinations& destinations_for(std::string_view slug) const;
};

/// Parses and validates a configuration; throws std::invalid_argument naming the key.
/// `base_dir` resolves relative file names (rs256_public_key_file).
Config parse_config(std::string_view json, const std::string& base_dir = ".");
/// Reads `path` and parses it.
Config load_config(const std::string& path);

/// Default breaker policies (used for names the file does not mention).
std::map<std::string, BreakerPolicy, std::less<>> default_breakers();

}  // namespace cadastre::gateway
