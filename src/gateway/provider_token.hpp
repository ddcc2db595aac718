// The token of an authenticated provider (map-export-city-a), obtained by the gateway with
// its own client credentials and shared by all callers.
//
// The token is fetched on first use, kept until `max_ttl` or the provider's stated expiry
// minus `refresh_margin`, and fetched again when it expires or when the provider refuses it
// (invalidate(rejected)). Concurrent callers wait for one fetch instead of each fetching.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include "gateway/config.hpp"
#include "gateway/upstream.hpp"

namespace cadastre::gateway {

struct FetchedToken {
  std::string token;
  std::optional<std::chrono::milliseconds> lifetime;  ///< as stated by the issuer
};

/// Reads an issuer's JSON answer: access_token (OAuth 2) or token (ArcGIS); expires_in
/// (seconds) or expires (epoch milliseconds, ArcGIS). Throws std::runtime_error.
FetchedToken parse_token_answer(std::string_view json, std::int64_t now_epoch_ms);

/// How long to keep a token: the stated lifetime minus the margin, capped by max_ttl
/// (never negative).
std::chrono::milliseconds token_keep_time(const ProviderTokenConfig& cfg, std::optional<std::chrono::milliseconds> stated);

class ProviderToken {
 public:
  using Fetch = std::function<FetchedToken()>;
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  /// `fetch` performs the issuer call (throws std::runtime_error on failure).
  ProviderToken(ProviderTokenConfig cfg, Fetch fetch, Clock clock = &std::chrono::steady_clock::now);

  /// The current token, fetched if there is none or it expired.
  std::string get();
  /// The provider refused `rejected`: forget it (unless another caller already replaced it).
  void invalidate(const std::string& rejected);

  std::uint64_t fetches() const noexcept { return fetches_.load(); }
  const ProviderTokenConfig& config() const noexcept { return cfg_; }

 private:
  ProviderTokenConfig cfg_;
  Fetch fetch_;
  Clock clock_;
  std::mutex mutex_;  // held across a fetch: concurrent callers wait for its result
  std::string token_;
  std::chrono::steady_clock::time_point expires_{};
  std::atomic<std::uint64_t> fetches_{0};
};

/// The issuer call of ProviderTokenConfig: an OAuth 2 client-credentials POST over `pool`.
ProviderToken::Fetch client_credentials_fetch(const ProviderTokenConfig& cfg, UpstreamPool& pool);

}  // namespace cadastre::gateway
