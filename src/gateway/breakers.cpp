#include "gateway/breakers.hpp"

#include <stdexcept>

namespace cadastre::gateway {

Breakers::Breakers(std::map<std::string, BreakerPolicy, std::less<>> policies, CircuitBreaker::Clock clock)
    : policies_(std::move(policies)), clock_(std::move(clock)) {
  for (const auto& [name, p] : policies_) p.settings.validate();
}

const BreakerPolicy& Breakers::policy(std::string_view name) const {
  auto it = policies_.find(name);
  if (it == policies_.end()) throw std::out_of_range("disjuntor não configurado: " + std::string(name));
  return it->second;
}

CircuitBreaker& Breakers::get(std::string_view name, std::string_view host) {
  std::lock_guard lock(mutex_);
  auto by_name = breakers_.find(name);
  if (by_name == breakers_.end()) {
    policy(name);  // throws for an unknown name before anything is inserted
    by_name = breakers_.emplace(std::string(name), std::map<std::string, std::unique_ptr<CircuitBreaker>, std::less<>>{}).first;
  }
  auto& hosts = by_name->second;
  auto it = hosts.find(host);
  if (it != hosts.end()) return *it->second;
  auto made = std::make_unique<CircuitBreaker>(policy(name).settings, clock_);
  return *hosts.emplace(std::string(host), std::move(made)).first->second;
}

bool Breakers::is_failure_status(std::string_view name, int status) const {
  return policy(name).failure_statuses.count(status) > 0;
}

std::vector<std::string> Breakers::names() const {
  std::vector<std::string> out;
  for (const auto& [name, p] : policies_) out.push_back(name);
  return out;
}

std::vector<Breakers::Entry> Breakers::snapshot() const {
  struct Ref {
    std::string name, host;
    CircuitBreaker* breaker;
  };
  std::vector<Ref> all;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [name, hosts] : breakers_)
      for (const auto& [host, b] : hosts) all.push_back({name, host, b.get()});
  }
  // Breakers are never removed, so the pointers stay valid after the lock is released.
  std::vector<Entry> out;
  out.reserve(all.size());
  for (auto& r : all) out.push_back({std::move(r.name), std::move(r.host), r.breaker->snapshot()});
  return out;
}

}  // namespace cadastre::gateway
