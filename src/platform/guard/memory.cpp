#include "platform/guard/memory.hpp"

#include <algorithm>

namespace cadastre::platform::guard {

bool may_write(const http::Request& req, const http::Access& a) {
  using Kind = http::Access::Kind;
  if (req.method != "GET" && req.method != "HEAD") return true;
  if (a.kind == Kind::admin || a.kind == Kind::platform_admin) return true;
  return a.kind == Kind::record && (a.role != "leitura" || !a.raise_flag.empty());
}

Memory::Memory(std::chrono::milliseconds ttl) : ttl_(std::clamp(ttl, std::chrono::milliseconds(0), kMaxTtl)) {}

std::optional<Located> Memory::find(const Key& key) {
  if (!enabled()) return std::nullopt;
  std::lock_guard lock(mutex_);
  auto it = entries_.find(key);
  if (it == entries_.end()) return std::nullopt;
  const Tenant& t = tenants_[key.tenant];
  if (t.writing > 0 || it->second.generation != t.generation || Clock::now() >= it->second.until) {
    entries_.erase(it);
    return std::nullopt;
  }
  return it->second.found;
}

std::uint64_t Memory::ticket(std::int64_t tenant) {
  if (!enabled()) return 0;
  std::lock_guard lock(mutex_);
  return tenants_[tenant].generation;
}

void Memory::keep(const Key& key, std::uint64_t ticket, const Located& found) {
  if (!enabled()) return;
  std::lock_guard lock(mutex_);
  const Tenant& t = tenants_[key.tenant];
  if (t.writing > 0 || t.generation != ticket) return;  // a write began since the read asked
  if (entries_.size() >= kMaxEntries && !entries_.count(key)) entries_.clear();
  entries_[key] = Entry{found, ticket, Clock::now() + ttl_};
}

void Memory::write_began(std::int64_t tenant) {
  if (!enabled()) return;
  std::lock_guard lock(mutex_);
  Tenant& t = tenants_[tenant];
  ++t.generation;
  ++t.writing;
}

void Memory::write_ended(std::int64_t tenant) {
  if (!enabled()) return;
  std::lock_guard lock(mutex_);
  Tenant& t = tenants_[tenant];
  ++t.generation;
  if (t.writing > 0) --t.writing;
}

}  // namespace cadastre::platform::guard
