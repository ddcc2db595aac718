#include "http/metrics.hpp"

#include <fmt/format.h>

namespace cadastre::http {

std::string prom_label(std::string_view v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == '"') out.push_back('\\');
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out.push_back(c);
  }
  return out;
}

void Metrics::observe(const std::string& method, const std::string& route, int status, double seconds) {
  std::lock_guard lock(mutex_);
  ++counts_[{method, route, status}];
  Histogram& h = latency_[route];
  for (std::size_t i = 0; i < kBuckets.size(); ++i)
    if (seconds <= kBuckets[i]) ++h.buckets[i];
  ++h.count;
  h.sum += seconds;
}

void Metrics::add_provider(std::function<void(std::string&)> provider) {
  std::lock_guard lock(mutex_);
  providers_.push_back(std::move(provider));
}

std::string Metrics::render() const {
  std::string out;
  std::vector<std::function<void(std::string&)>> providers;
  {
    std::lock_guard lock(mutex_);
    out += fmt::format("# HELP {0}_http_requests_total HTTP requests by method, route and status.\n"
                       "# TYPE {0}_http_requests_total counter\n", prefix_);
    for (const auto& [key, n] : counts_) {
      const auto& [method, route, status] = key;
      out += fmt::format("{}_http_requests_total{{method=\"{}\",route=\"{}\",status=\"{}\"}} {}\n", prefix_,
                         prom_label(method), prom_label(route), status, n);
    }
    out += fmt::format("# HELP {0}_http_request_duration_seconds Request latency by route.\n"
                       "# TYPE {0}_http_request_duration_seconds histogram\n", prefix_);
    for (const auto& [route, h] : latency_) {
      std::string r = prom_label(route);
      for (std::size_t i = 0; i < kBuckets.size(); ++i)
        out += fmt::format("{}_http_request_duration_seconds_bucket{{route=\"{}\",le=\"{}\"}} {}\n", prefix_, r,
                           kBuckets[i], h.buckets[i]);
      out += fmt::format("{}_http_request_duration_seconds_bucket{{route=\"{}\",le=\"+Inf\"}} {}\n", prefix_, r, h.count);
      out += fmt::format("{}_http_request_duration_seconds_sum{{route=\"{}\"}} {}\n", prefix_, r, h.sum);
      out += fmt::format("{}_http_request_duration_seconds_count{{route=\"{}\"}} {}\n", prefix_, r, h.count);
    }
    providers = providers_;
  }
  for (const auto& p : providers) p(out);
  return out;
}

}  // namespace cadastre::http
