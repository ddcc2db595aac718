// Scanline polygon fill (even-odd over every ring at once, so holes stay empty), lines as
// discs stamped every half pixel (round joins and caps for free), PNG by hand: the
// signature, IHDR, one zlib IDAT (filter 0 on every row) and IEND, each chunk with its CRC.
#include "report/canvas.hpp"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cadastre::report {
namespace {

void put32(std::string& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((v >> shift) & 0xFF);
}

void chunk(std::string& out, const char* type, const std::string& data) {
  put32(out, static_cast<std::uint32_t>(data.size()));
  std::string body = std::string(type, 4) + data;
  out += body;
  put32(out, static_cast<std::uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size()))));
}

}  // namespace

Canvas::Canvas(int width, int height, Rgb background) : width_(width), height_(height) {
  if (width < 1 || height < 1 || width > 4096 || height > 4096) throw std::invalid_argument("tamanho de imagem inválido");
  pixels_.resize(static_cast<std::size_t>(width) * height * 3);
  for (std::size_t i = 0; i < pixels_.size(); i += 3) {
    pixels_[i] = background.r;
    pixels_[i + 1] = background.g;
    pixels_[i + 2] = background.b;
  }
}

void Canvas::blend(int x, int y, Rgb c, double opacity) {
  if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
  auto* p = &pixels_[(static_cast<std::size_t>(y) * width_ + x) * 3];
  auto mix = [&](std::uint8_t& dst, std::uint8_t src) {
    dst = static_cast<std::uint8_t>(std::lround(dst * (1 - opacity) + src * opacity));
  };
  mix(p[0], c.r);
  mix(p[1], c.g);
  mix(p[2], c.b);
}

void Canvas::fill(const std::vector<Ring>& rings, Rgb color, double opacity) {
  opacity = std::clamp(opacity, 0.0, 1.0);
  double top = height_, bottom = 0;
  for (const auto& r : rings)
    for (const auto& p : r) top = std::min(top, p.y), bottom = std::max(bottom, p.y);
  int y0 = std::max(0, static_cast<int>(std::floor(top))), y1 = std::min(height_ - 1, static_cast<int>(std::ceil(bottom)));
  std::vector<double> xs;
  for (int y = y0; y <= y1; ++y) {
    double sy = y + 0.5;  // sample at the pixel's centre
    xs.clear();
    for (const auto& r : rings) {
      for (std::size_t i = 0, n = r.size(); i < n; ++i) {
        const Point& a = r[i];
        const Point& b = r[(i + 1) % n];
        if ((a.y <= sy) != (b.y <= sy)) xs.push_back(a.x + (sy - a.y) * (b.x - a.x) / (b.y - a.y));
      }
    }
    std::sort(xs.begin(), xs.end());
    for (std::size_t i = 0; i + 1 < xs.size(); i += 2) {
      int from = std::max(0, static_cast<int>(std::lround(xs[i])));
      int to = std::min(width_, static_cast<int>(std::lround(xs[i + 1])));
      for (int x = from; x < to; ++x) blend(x, y, color, opacity);
    }
  }
}

void Canvas::dot(Point at, double radius, Rgb color) {
  int x0 = static_cast<int>(std::floor(at.x - radius)), x1 = static_cast<int>(std::ceil(at.x + radius));
  int y0 = static_cast<int>(std::floor(at.y - radius)), y1 = static_cast<int>(std::ceil(at.y + radius));
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x) {
      double dx = x + 0.5 - at.x, dy = y + 0.5 - at.y;
      if (dx * dx + dy * dy <= radius * radius) blend(x, y, color, 1.0);
    }
}

void Canvas::stroke(const Ring& line, Rgb color, double width, bool closed) {
  if (line.empty()) return;
  double radius = std::max(0.5, width / 2);
  std::size_t n = line.size(), segments = closed ? n : n - 1;
  if (segments == 0) dot(line[0], radius, color);
  for (std::size_t i = 0; i < segments; ++i) {
    const Point& a = line[i];
    const Point& b = line[(i + 1) % n];
    double length = std::hypot(b.x - a.x, b.y - a.y);
    auto steps = static_cast<int>(std::min(20000.0, std::ceil(length * 2)));
    for (int s = 0; s <= steps; ++s) {
      double t = steps == 0 ? 0 : static_cast<double>(s) / steps;
      dot({a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)}, radius, color);
    }
  }
}

std::string Canvas::png() const {
  std::string raw;
  raw.reserve(pixels_.size() + height_);
  for (int y = 0; y < height_; ++y) {
    raw += '\0';  // filter: none
    raw.append(reinterpret_cast<const char*>(&pixels_[static_cast<std::size_t>(y) * width_ * 3]),
               static_cast<std::size_t>(width_) * 3);
  }
  uLongf size = compressBound(static_cast<uLong>(raw.size()));
  std::string packed(size, '\0');
  if (compress2(reinterpret_cast<Bytef*>(packed.data()), &size, reinterpret_cast<const Bytef*>(raw.data()),
                static_cast<uLong>(raw.size()), 6) != Z_OK)
    throw std::runtime_error("falha ao comprimir a imagem");
  packed.resize(size);
  std::string header;
  put32(header, static_cast<std::uint32_t>(width_));
  put32(header, static_cast<std::uint32_t>(height_));
  header += std::string("\x08\x02\x00\x00\x00", 5);  // 8 bits, RGB, deflate, no filter, no interlace
  std::string out("\x89PNG\r\n\x1a\n", 8);
  chunk(out, "IHDR", header);
  chunk(out, "IDAT", packed);
  chunk(out, "IEND", {});
  return out;
}

View::View(double minx, double miny, double maxx, double maxy, int width, int height, int margin) {
  double w = std::max(maxx - minx, 1e-9), h = std::max(maxy - miny, 1e-9);
  double room_w = std::max(1, width - 2 * margin), room_h = std::max(1, height - 2 * margin);
  scale_ = std::min(room_w / w, room_h / h);
  ox_ = minx - (width / scale_ - w) / 2;   // centre horizontally
  oy_ = miny - (height / scale_ - h) / 2;  // and vertically
  height_ = height;
}

Point View::operator()(Point p) const noexcept { return {(p.x - ox_) * scale_, height_ - (p.y - oy_) * scale_}; }

Ring View::operator()(const Ring& ring) const {
  Ring out;
  out.reserve(ring.size());
  for (const auto& p : ring) out.push_back((*this)(p));
  return out;
}

}  // namespace cadastre::report
