// The platform's rendered tiles kept in memory, each with the layer generation it was
// rendered at (projeto.camadas.geracao, bumped by every write of the layer's geometries).
// A request still reads the layer's generation from the database, in the tile's own
// statement, which renders nothing when the cached generation is current (store.hpp): so
// a write on any instance makes every instance's copy stale at its next request, and the
// permission checks run as before. Bounded by bytes; the least recently used tiles go
// first. Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace cadastre::platform::tiles {

/// A tile of a tenant's layer.
struct TileKey {
  std::int64_t tenant = 0, layer = 0;
  int z = 0, x = 0, y = 0;
  bool operator==(const TileKey&) const = default;
};

class TileCache {
 public:
  /// Holds at most `max_bytes` of tiles, each counted with its bookkeeping (0: holds none).
  /// A tile over an eighth of it is not kept.
  explicit TileCache(std::size_t max_bytes) : max_bytes_(max_bytes) {}

  struct Entry {
    std::int64_t generation = 0;
    std::string mvt;  ///< empty: the tile has no feature
  };
  /// The tile as last kept, and the generation it was rendered at.
  std::optional<Entry> find(const TileKey& key);
  /// Keeps `mvt`, rendered at `generation`, in place of what `key` held.
  void put(const TileKey& key, std::int64_t generation, std::string mvt);
  /// The bytes held now (the tiles' sizes and their bookkeeping).
  std::size_t bytes() const;

 private:
  struct Hash {
    std::size_t operator()(const TileKey& k) const noexcept;
  };
  struct Node {
    TileKey key;
    Entry entry;
  };
  void drop(std::list<Node>::iterator it);

  const std::size_t max_bytes_;
  mutable std::mutex mutex_;
  std::list<Node> order_;  // most recently used first
  std::unordered_map<TileKey, std::list<Node>::iterator, Hash> index_;
  std::size_t bytes_ = 0;
};

}  // namespace cadastre::platform::tiles
