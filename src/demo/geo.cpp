#include "demo/geo.hpp"

#include <cstdint>
#include <cstring>
#include <numbers>

namespace cadastre::store::demo {

Vec2 intersect(Vec2 p, Vec2 d, Vec2 q, Vec2 e) {
  double a = cross(q - p, e) / cross(d, e);
  return p + d * a;
}

double ring_area(std::span<const Vec2> ring) {
  double twice = 0;
  for (std::size_t i = 0, n = ring.size(); i < n; ++i) twice += cross(ring[i], ring[(i + 1) % n]);
  return std::fabs(twice) / 2;
}

LocalFrame::LocalFrame(double lon0, double lat0) : lon0_(lon0), lat0_(lat0) {
  constexpr double a = 6378137.0;              // GRS80 semi-major axis (m)
  constexpr double f = 1 / 298.257222101;      // GRS80 flattening
  constexpr double e2 = f * (2 - f);
  const double phi = lat0 * std::numbers::pi / 180;
  const double w = 1 - e2 * std::sin(phi) * std::sin(phi);
  const double meridian = a * (1 - e2) / (w * std::sqrt(w));  // M
  const double normal = a / std::sqrt(w);                     // N
  m_per_deg_lat_ = meridian * std::numbers::pi / 180;
  m_per_deg_lon_ = normal * std::cos(phi) * std::numbers::pi / 180;
}

BlockMap::BlockMap(const Quad& q) : q_(q) {
  s_ = (length(q.p[1] - q.p[0]) + length(q.p[2] - q.p[3])) / 2;
  t_ = (length(q.p[3] - q.p[0]) + length(q.p[2] - q.p[1])) / 2;
}

Vec2 BlockMap::at(double sigma, double tau) const {
  const double s = sigma / s_, t = tau / t_;
  Vec2 bottom = q_.p[0] * (1 - s) + q_.p[1] * s;
  Vec2 top = q_.p[3] * (1 - s) + q_.p[2] * s;
  return bottom * (1 - t) + top * t;
}

double BlockMap::rect_area(double s0, double s1, double t0, double t1) const {
  const Vec2 r[4] = {at(s0, t0), at(s1, t0), at(s1, t1), at(s0, t1)};
  return ring_area(r);
}

namespace {
constexpr char kHex[] = "0123456789ABCDEF";
constexpr std::uint32_t kSrid = 4674;
constexpr std::uint32_t kSridFlag = 0x20000000;

// Little-endian bytes as hex, independent of the host byte order.
void put(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) {
    auto b = static_cast<unsigned>((v >> (8 * i)) & 0xFF);
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 0xF]);
  }
}
void put_double(std::string& out, double d) {
  std::uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  put(out, bits, 8);
}
}  // namespace

void Ewkb::header(std::string& out, std::uint32_t type, bool srid) const {
  out += "01";  // little endian
  put(out, srid ? (type | kSridFlag) : type, 4);
  if (srid) put(out, kSrid, 4);
}

void Ewkb::count(std::string& out, std::uint32_t n) const { put(out, n, 4); }

void Ewkb::coords(std::string& out, Vec2 p) const {
  put_double(out, frame_.lon(p.x));
  put_double(out, frame_.lat(p.y));
}

void Ewkb::point(std::string& out, Vec2 p) const {
  header(out, 1, true);
  coords(out, p);
}

void Ewkb::linestring(std::string& out, std::span<const Vec2> pts) const {
  header(out, 2, true);
  count(out, static_cast<std::uint32_t>(pts.size()));
  for (Vec2 p : pts) coords(out, p);
}

void Ewkb::multilinestring(std::string& out, std::span<const Vec2> pts) const {
  header(out, 5, true);
  count(out, 1);
  header(out, 2, false);
  count(out, static_cast<std::uint32_t>(pts.size()));
  for (Vec2 p : pts) coords(out, p);
}

void Ewkb::multipolygon(std::string& out, std::span<const Vec2> ring) const {
  header(out, 6, true);
  count(out, 1);
  header(out, 3, false);
  count(out, 1);
  count(out, static_cast<std::uint32_t>(ring.size() + 1));
  for (Vec2 p : ring) coords(out, p);
  coords(out, ring.front());
}

}  // namespace cadastre::store::demo
