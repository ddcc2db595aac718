// Deterministic pseudo-random numbers for the demo city.
//
// The engines of <random> are specified bit for bit, but the distributions
// (uniform_int_distribution, ...) are implementation-defined, so the same seed would give
// another city with another standard library. Every draw therefore goes through the small
// helpers below, which use integer arithmetic and one exact scaling to double only.
//
// Each block, lot, unit and person draws from its own stream, keyed by (seed, stream, index):
// regenerating one lot never depends on how many numbers an earlier lot consumed, which is
// what lets the loader regenerate the city once per table instead of holding it in memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>

namespace cadastre::store::demo {

/// One step of SplitMix64 (Steele, Lea, Flood 2014): advances `state` and returns a mixed value.
constexpr std::uint64_t splitmix64(std::uint64_t& state) noexcept {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Hashes (seed, a, b) into one 64-bit key.
constexpr std::uint64_t mix_key(std::uint64_t seed, std::uint64_t a, std::uint64_t b = 0) noexcept {
  std::uint64_t s = seed;
  std::uint64_t h = splitmix64(s);
  s = h ^ a;
  h = splitmix64(s);
  s = h ^ (b + 0x632BE59BD9B4E019ull);
  return splitmix64(s);
}

/// Independent random streams of the generator.
enum class Stream : std::uint64_t {
  grid = 1, block, lot, parcel, owner, person, street, bairro, field, names,
};

/// xoshiro256** (Blackman, Vigna 2018) seeded through SplitMix64.
class Rng {
 public:
  explicit Rng(std::uint64_t key) noexcept {
    std::uint64_t s = key;
    for (auto& w : s_) w = splitmix64(s);
  }
  Rng(std::uint64_t seed, Stream stream, std::uint64_t index) noexcept
      : Rng(mix_key(seed, static_cast<std::uint64_t>(stream), index)) {}

  std::uint64_t next() noexcept {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  /// Uniform double in [0, 1) with 53 random bits.
  double uniform() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) noexcept { return lo + (hi - lo) * uniform(); }
  /// Uniform integer in [0, n) for n < 2^32 (multiply-shift; the bias below n/2^32 is irrelevant here).
  std::uint32_t below(std::uint32_t n) noexcept {
    return static_cast<std::uint32_t>(((next() >> 32) * static_cast<std::uint64_t>(n)) >> 32);
  }
  /// Uniform integer in [lo, hi].
  int between(int lo, int hi) noexcept { return lo + static_cast<int>(below(static_cast<std::uint32_t>(hi - lo + 1))); }
  bool chance(double p) noexcept { return uniform() < p; }
  /// Index drawn with the given relative weights.
  std::size_t weighted(std::initializer_list<double> weights) noexcept {
    double total = 0;
    for (double w : weights) total += w;
    double x = uniform() * total;
    std::size_t i = 0;
    for (double w : weights) {
      if (x < w) return i;
      x -= w;
      ++i;
    }
    return weights.size() - 1;
  }
  template <class T, std::size_t N>
  const T& pick(const T (&items)[N]) noexcept {
    return items[below(static_cast<std::uint32_t>(N))];
  }

 private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

/// A keyed bijection of [0, n): shuffles identifiers without collisions (unique CPFs, names).
/// A small invertible mixer on the enclosing power of two, applied repeatedly until the value
/// falls inside [0, n) ("cycle walking"); since the mixer is a permutation the walk ends,
/// in fewer than two steps on average.
class Shuffle {
 public:
  Shuffle(std::uint64_t n, std::uint64_t key) noexcept : n_(n == 0 ? 1 : n) {
    while (bits_ < 63 && (std::uint64_t{1} << bits_) < n_) ++bits_;
    mask_ = (std::uint64_t{1} << bits_) - 1;
    shift_ = bits_ / 2 + 1;
    std::uint64_t s = key;
    for (int r = 0; r < kRounds; ++r) {
      add_[r] = splitmix64(s) & mask_;
      mul_[r] = (splitmix64(s) | 1) & mask_;  // odd: invertible modulo 2^bits
      if (mul_[r] == 0) mul_[r] = 1;
    }
  }
  std::uint64_t size() const noexcept { return n_; }
  std::uint64_t operator()(std::uint64_t i) const noexcept {
    std::uint64_t x = i % n_;
    do x = round(x);
    while (x >= n_);
    return x;
  }

 private:
  static constexpr int kRounds = 3;
  std::uint64_t round(std::uint64_t x) const noexcept {
    for (int r = 0; r < kRounds; ++r) {
      x = (x + add_[r]) & mask_;
      x ^= x >> shift_;
      x = (x * mul_[r]) & mask_;
      x ^= x >> shift_;
    }
    return x;
  }
  std::uint64_t n_;
  int bits_ = 1;
  int shift_ = 1;
  std::uint64_t mask_ = 1;
  std::uint64_t add_[kRounds]{}, mul_[kRounds]{};
};

}  // namespace cadastre::store::demo
