// Just enough of the protobuf wire format to check a Mapbox Vector Tile (spec 2.1):
// Tile { repeated Layer layers = 3; }
// Layer { uint32 version = 15; string name = 1; repeated Feature features = 2;
//         repeated string keys = 3; repeated Value values = 4; uint32 extent = 5; }
// Written here on purpose: the test must not trust the encoder it is testing.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cadastre::test {

struct MvtLayer {
  std::string name;
  std::uint64_t version = 0, extent = 0;
  std::size_t features = 0;
  std::vector<std::string> keys;
};

class ProtoReader {
 public:
  explicit ProtoReader(std::string_view bytes) : rest_(bytes) {}
  bool done() const { return rest_.empty(); }

  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (rest_.empty()) throw std::runtime_error("varint truncado");
      auto b = static_cast<unsigned char>(rest_.front());
      rest_.remove_prefix(1);
      v |= std::uint64_t{b & 0x7Fu} << shift;
      if (!(b & 0x80)) return v;
    }
    throw std::runtime_error("varint longo demais");
  }
  /// Reads a key; returns the field number and stores the wire type.
  std::uint32_t key(int& wire) {
    auto k = varint();
    wire = static_cast<int>(k & 7);
    return static_cast<std::uint32_t>(k >> 3);
  }
  std::string_view bytes() {
    auto n = varint();
    if (n > rest_.size()) throw std::runtime_error("campo de tamanho inválido");
    auto out = rest_.substr(0, n);
    rest_.remove_prefix(n);
    return out;
  }
  void skip(int wire) {
    switch (wire) {
      case 0: varint(); break;
      case 1: take(8); break;
      case 2: bytes(); break;
      case 5: take(4); break;
      default: throw std::runtime_error("wire type desconhecido " + std::to_string(wire));
    }
  }

 private:
  void take(std::size_t n) {
    if (n > rest_.size()) throw std::runtime_error("campo truncado");
    rest_.remove_prefix(n);
  }
  std::string_view rest_;
};

inline MvtLayer read_layer(std::string_view bytes) {
  MvtLayer l;
  ProtoReader r(bytes);
  while (!r.done()) {
    int wire = 0;
    auto field = r.key(wire);
    if (field == 1 && wire == 2) l.name = std::string(r.bytes());
    else if (field == 2 && wire == 2) r.bytes(), ++l.features;
    else if (field == 3 && wire == 2) l.keys.emplace_back(r.bytes());
    else if (field == 5 && wire == 0) l.extent = r.varint();
    else if (field == 15 && wire == 0) l.version = r.varint();
    else r.skip(wire);
  }
  return l;
}

/// The layers of a tile; throws std::runtime_error when the bytes are not a valid message.
inline std::vector<MvtLayer> read_tile(std::string_view bytes) {
  std::vector<MvtLayer> layers;
  ProtoReader r(bytes);
  while (!r.done()) {
    int wire = 0;
    auto field = r.key(wire);
    if (field == 3 && wire == 2) layers.push_back(read_layer(r.bytes()));
    else r.skip(wire);
  }
  return layers;
}

}  // namespace cadastre::test
