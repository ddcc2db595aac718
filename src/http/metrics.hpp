// Prometheus metrics of one service: request counts and latency histograms by route,
// plus whatever gauges the service adds through providers (pool usage, breakers, ...).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace cadastre::http {

class Metrics {
 public:
  explicit Metrics(std::string prefix) : prefix_(std::move(prefix)) {}

  void observe(const std::string& method, const std::string& route, int status, double seconds);
  /// Adds a callback that appends Prometheus text lines (already formatted) at scrape time.
  void add_provider(std::function<void(std::string&)> provider);
  /// The whole exposition text.
  std::string render() const;

 private:
  static constexpr std::array<double, 12> kBuckets{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                                   0.05,   0.1,   0.25,   0.5,   1.0,  2.5};
  struct Histogram {
    std::array<std::uint64_t, kBuckets.size()> buckets{};
    std::uint64_t count = 0;
    double sum = 0;
  };
  std::string prefix_;
  mutable std::mutex mutex_;
  std::map<std::tuple<std::string, std::string, int>, std::uint64_t> counts_;
  std::map<std::string, Histogram> latency_;
  std::vector<std::function<void(std::string&)>> providers_;
};

/// Escapes a Prometheus label value.
std::string prom_label(std::string_view v);

}  // namespace cadastre::http
