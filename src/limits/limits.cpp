// Decode budgets: see include/cadastre/limits.hpp.
#include "cadastre/limits.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include <cstring>
#include <limits>

#include "cadastre/error.hpp"

namespace cadastre::limits {
namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

Error not_a_zip(const char* why) {
  return Error(errc::invalid_argument, std::string("o arquivo enviado não é um zip legível: ") + why, "file");
}
Error too_large(std::string message, std::string_view field = "file") {
  return Error(errc::payload_too_large, std::move(message), std::string(field));
}

// Little-endian integers at `at` of `b`; the caller has checked the bounds.
std::uint64_t le(std::string_view b, std::size_t at, int width) {
  std::uint64_t v = 0;
  for (int i = width - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[at + static_cast<std::size_t>(i)]);
  return v;
}
bool has(std::string_view b, std::size_t at, std::size_t n) { return at <= b.size() && n <= b.size() - at; }

std::uint64_t mul(std::uint64_t a, std::uint64_t b) noexcept { return a != 0 && b > kMax / a ? kMax : a * b; }

constexpr std::uint32_t kEocd = 0x06054b50, kZip64Locator = 0x07064b50, kZip64Eocd = 0x06064b50,
                        kCentral = 0x02014b50;

// Where the central directory starts and how many entries it holds.
struct Directory {
  std::uint64_t offset = 0, entries = 0;
};

Directory find_directory(std::string_view b) {
  if (b.size() < 22) throw not_a_zip("curto demais");
  // The end record is the last 22 bytes plus a comment of up to 65,535 bytes.
  std::size_t lowest = b.size() > 22 + 65535 ? b.size() - 22 - 65535 : 0;
  for (std::size_t at = b.size() - 22 + 1; at-- > lowest;) {
    if (le(b, at, 4) != kEocd) continue;
    Directory d{le(b, at + 16, 4), le(b, at + 10, 2)};
    if ((d.offset == 0xffffffffu || d.entries == 0xffffu) && at >= 20 && le(b, at - 20, 4) == kZip64Locator) {
      std::uint64_t z = le(b, at - 20 + 8, 8);
      if (!has(b, z, 56) || le(b, z, 4) != kZip64Eocd) throw not_a_zip("diretório ZIP64 ilegível");
      d.entries = le(b, z + 32, 8);
      d.offset = le(b, z + 48, 8);
    }
    return d;
  }
  throw not_a_zip("sem diretório central (corrompido ou incompleto)");
}

// Sizes of a ZIP64 entry from its extra field (id 1): the 64-bit values follow in the
// order uncompressed, compressed, only for those whose 32-bit value is 0xffffffff.
void zip64_sizes(std::string_view extra, ZipEntry& e, bool big_u, bool big_c) {
  std::size_t at = 0;
  while (has(extra, at, 4)) {
    std::uint64_t id = le(extra, at, 2), size = le(extra, at + 2, 2);
    if (!has(extra, at + 4, size)) break;
    if (id == 1) {
      std::size_t p = at + 4;
      if (big_u && p + 8 <= at + 4 + size) e.uncompressed = le(extra, p, 8), p += 8;
      if (big_c && p + 8 <= at + 4 + size) e.compressed = le(extra, p, 8);
      return;
    }
    at += 4 + size;
  }
  throw not_a_zip("tamanho ZIP64 ausente");
}

}  // namespace

std::vector<ZipEntry> zip_entries(std::string_view b) {
  Directory d = find_directory(b);
  // Each entry takes at least 46 bytes: a count the file cannot hold is a lie.
  if (d.entries > b.size() / 46) throw not_a_zip("diretório central inconsistente");
  std::vector<ZipEntry> out;
  out.reserve(static_cast<std::size_t>(d.entries));
  std::uint64_t at = d.offset;
  for (std::uint64_t i = 0; i < d.entries; ++i) {
    if (!has(b, at, 46) || le(b, at, 4) != kCentral) throw not_a_zip("diretório central inconsistente");
    std::size_t p = static_cast<std::size_t>(at);
    std::size_t name_len = le(b, p + 28, 2), extra_len = le(b, p + 30, 2), comment_len = le(b, p + 32, 2);
    if (!has(b, p + 46, name_len + extra_len + comment_len)) throw not_a_zip("diretório central inconsistente");
    ZipEntry e{std::string(b.substr(p + 46, name_len)), le(b, p + 20, 4), le(b, p + 24, 4), le(b, p + 42, 4),
               static_cast<int>(le(b, p + 10, 2))};
    bool big_c = e.compressed == 0xffffffffu, big_u = e.uncompressed == 0xffffffffu, big_o = e.offset == 0xffffffffu;
    if (big_c || big_u) zip64_sizes(b.substr(p + 46 + name_len, extra_len), e, big_u, big_c);
    if (big_o) throw not_a_zip("deslocamento ZIP64 não suportado");
    out.push_back(std::move(e));
    at = p + 46 + name_len + extra_len + comment_len;
  }
  return out;
}

void check_archive(const std::vector<ZipEntry>& entries, const ArchiveLimits& l) {
  if (entries.size() > l.max_entries)
    throw too_large(fmt::format("o zip tem {} arquivos; o limite é {}", entries.size(), l.max_entries));
  std::uint64_t total = 0;
  for (const ZipEntry& e : entries) {
    total = e.uncompressed > kMax - total ? kMax : total + e.uncompressed;
    if (e.uncompressed > l.ratio_floor &&
        static_cast<double>(e.uncompressed) > l.max_ratio * static_cast<double>(std::max<std::uint64_t>(e.compressed, 1)))
      throw too_large(fmt::format("'{}' no zip se expande {:.0f} vezes ({} → {}); o limite é {:.0f} vezes", e.name,
                                  static_cast<double>(e.uncompressed) / static_cast<double>(std::max<std::uint64_t>(e.compressed, 1)),
                                  human_bytes(e.compressed), human_bytes(e.uncompressed), l.max_ratio));
  }
  if (total > l.max_total)
    throw too_large(fmt::format("o zip se expande para {}; o limite é {}", human_bytes(total), human_bytes(l.max_total)));
}

void check_inflated(std::string_view zip, const std::vector<ZipEntry>& entries) {
  constexpr std::uint32_t kLocal = 0x04034b50;
  for (const ZipEntry& e : entries) {
    if (!e.name.empty() && e.name.back() == '/') continue;  // a folder
    if (e.method != 0 && e.method != 8)
      throw Error(errc::invalid_argument,
                  fmt::format("'{}' no zip usa um método de compressão não suportado ({}): use deflate", e.name, e.method),
                  "file");
    if (!has(zip, e.offset, 30) || le(zip, e.offset, 4) != kLocal) throw not_a_zip("cabeçalho local ausente");
    std::uint64_t start = e.offset + 30 + le(zip, e.offset + 26, 2) + le(zip, e.offset + 28, 2);
    if (start > zip.size()) throw not_a_zip("cabeçalho local inconsistente");
    std::string_view data = zip.substr(static_cast<std::size_t>(start));
    if (e.method == 0) {
      if (e.compressed != e.uncompressed || data.size() < e.uncompressed) throw not_a_zip("entrada armazenada inconsistente");
      continue;
    }
    z_stream z{};
    if (inflateInit2(&z, -MAX_WBITS) != Z_OK) throw std::bad_alloc();
    unsigned char out[1 << 16];
    std::uint64_t produced = 0;
    int rc = Z_OK;
    std::size_t fed = 0;
    while (rc != Z_STREAM_END) {
      if (z.avail_in == 0) {
        std::size_t piece = std::min<std::size_t>(data.size() - fed, 1u << 20);
        if (piece == 0) break;
        z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + fed));
        z.avail_in = static_cast<uInt>(piece);
        fed += piece;
      }
      z.next_out = out;
      z.avail_out = sizeof out;
      rc = inflate(&z, Z_NO_FLUSH);
      produced += sizeof out - z.avail_out;
      if (produced > e.uncompressed) {
        inflateEnd(&z);
        throw too_large(fmt::format("'{}' no zip declara {} mas se expande além disso: o zip foi adulterado", e.name,
                                    human_bytes(e.uncompressed)));
      }
      if (rc != Z_OK && rc != Z_STREAM_END && !(rc == Z_BUF_ERROR && z.avail_in == 0)) break;
    }
    inflateEnd(&z);
    if (rc != Z_STREAM_END) throw not_a_zip(("'" + e.name + "' não se descompacta (dados corrompidos)").c_str());
  }
}

std::uint64_t decoded_bytes(const RasterShape& r) noexcept {
  if (r.width <= 0 || r.height <= 0 || r.bands <= 0 || r.bytes_per_sample <= 0) return 0;
  return mul(mul(mul(static_cast<std::uint64_t>(r.width), static_cast<std::uint64_t>(r.height)),
                 static_cast<std::uint64_t>(r.bands)),
             static_cast<std::uint64_t>(r.bytes_per_sample));
}

void check_raster(const RasterShape& r, const RasterLimits& l, std::string_view field) {
  if (r.width > l.max_side || r.height > l.max_side)
    throw too_large(fmt::format("a imagem declara {} × {} pixels; o limite é {} pixels por lado", r.width, r.height, l.max_side),
                    field);
  if (r.bands > l.max_bands)
    throw too_large(fmt::format("a imagem declara {} bandas; o limite é {}", r.bands, l.max_bands), field);
  std::uint64_t pixels = mul(static_cast<std::uint64_t>(std::max<std::int64_t>(r.width, 0)),
                             static_cast<std::uint64_t>(std::max<std::int64_t>(r.height, 0)));
  if (pixels > l.max_pixels)
    throw too_large(fmt::format("a imagem declara {} megapixels; o limite é {}", pixels / 1'000'000, l.max_pixels / 1'000'000),
                    field);
  std::uint64_t decoded = decoded_bytes(r);
  if (decoded > l.max_decoded)
    throw too_large(fmt::format("a imagem se decodifica em {}; o limite é {}", human_bytes(decoded), human_bytes(l.max_decoded)),
                    field);
  if (decoded > l.ratio_floor &&
      static_cast<double>(decoded) > l.max_ratio * static_cast<double>(std::max<std::uint64_t>(r.encoded_bytes, 1)))
    throw too_large(fmt::format("a imagem declara {} de pixels em {} de arquivo (mais de {:.0f} vezes): envie a imagem real",
                                human_bytes(decoded), human_bytes(r.encoded_bytes), l.max_ratio),
                    field);
}

void check_table(std::int64_t features, std::int64_t fields, std::uint64_t record_bytes, const TableLimits& l) {
  if (fields > l.max_fields)
    throw too_large(fmt::format("o arquivo tem {} campos; o limite é {}", fields, l.max_fields));
  if (features > l.max_features)
    throw too_large(fmt::format("o arquivo tem {} feições; o limite é {}", features, l.max_features));
  if (features > 0) {
    std::uint64_t declared = mul(static_cast<std::uint64_t>(features), record_bytes);
    if (declared > l.max_attribute_bytes)
      throw too_large(fmt::format("os atributos do arquivo ocupam {} ({} feições de {} bytes); o limite é {}",
                                  human_bytes(declared), features, record_bytes, human_bytes(l.max_attribute_bytes)));
  }
}

void check_vertices(std::size_t vertices, const TableLimits& l, std::string_view where) {
  if (vertices > l.max_vertices)
    throw too_large(fmt::format("{}: a geometria tem {} vértices; o limite é {}", where, vertices, l.max_vertices));
}

void Budget::add(std::uint64_t amount) {
  if (amount > ceiling_ - std::min(used_, ceiling_))
    throw too_large(fmt::format("{}: acima do limite de {}", what_, bytes_ ? human_bytes(ceiling_) : std::to_string(ceiling_)));
  used_ += amount;
}

std::uint64_t max_total_vertices(std::uint64_t decoded_bytes, const TableLimits& l) noexcept {
  double by_size = l.max_vertices_per_byte * static_cast<double>(decoded_bytes);
  if (by_size >= 1.8e19) return kMax;
  return std::max(l.vertices_floor, static_cast<std::uint64_t>(by_size));
}

std::string human_bytes(std::uint64_t b) {
  if (b < 1024) return fmt::format("{} bytes", b);
  const char* units[] = {"KB", "MB", "GB", "TB", "PB", "EB"};
  double v = static_cast<double>(b) / 1024;
  int u = 0;
  while (v >= 1024 && u < 5) v /= 1024, ++u;
  if (v >= 100 || v == static_cast<double>(static_cast<std::uint64_t>(v))) return fmt::format("{:.0f} {}", v, units[u]);
  return fmt::format("{:.1f} {}", v, units[u]);
}

}  // namespace cadastre::limits
