// See cache.hpp.
#include "platform/tiles/cache.hpp"

#include <functional>

namespace cadastre::platform::tiles {
namespace {

// What an entry costs besides its bytes (its node, key and index slot), so that empty
// tiles count too.
constexpr std::size_t kOverhead = 128;

}  // namespace

std::size_t TileCache::Hash::operator()(const TileKey& k) const noexcept {
  std::size_t h = std::hash<std::int64_t>{}(k.tenant);
  for (std::int64_t v : {k.layer, std::int64_t{k.z}, std::int64_t{k.x}, std::int64_t{k.y}})
    h ^= std::hash<std::int64_t>{}(v) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

std::optional<TileCache::Entry> TileCache::find(const TileKey& key) {
  std::lock_guard lock(mutex_);
  auto it = index_.find(key);
  if (it == index_.end()) return std::nullopt;
  order_.splice(order_.begin(), order_, it->second);
  return it->second->entry;
}

void TileCache::put(const TileKey& key, std::int64_t generation, std::string mvt) {
  const std::size_t cost = mvt.size() + kOverhead;
  if (cost > max_bytes_ / 8) return;
  std::lock_guard lock(mutex_);
  if (auto it = index_.find(key); it != index_.end()) drop(it->second);
  while (!order_.empty() && bytes_ + cost > max_bytes_) drop(std::prev(order_.end()));
  bytes_ += cost;
  order_.push_front(Node{key, Entry{generation, std::move(mvt)}});
  index_[key] = order_.begin();
}

std::size_t TileCache::bytes() const {
  std::lock_guard lock(mutex_);
  return bytes_;
}

void TileCache::drop(std::list<Node>::iterator it) {
  bytes_ -= it->entry.mvt.size() + kOverhead;
  index_.erase(it->key);
  order_.erase(it);
}

}  // namespace cadastre::platform::tiles
