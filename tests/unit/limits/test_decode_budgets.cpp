// Decode budgets: what a zip, a raster header or a table schema declares is read and
// refused before anything is inflated or decoded.
#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cadastre/error.hpp"
#include "cadastre/limits.hpp"

#include <zlib.h>

using namespace cadastre;
using namespace cadastre::limits;

namespace {

void put(std::string& s, std::uint64_t v, int width) {
  for (int i = 0; i < width; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

struct Declared {
  std::string name;
  std::string data;            // stored as is (method 0)
  std::uint64_t uncompressed;  // what the directory claims
  bool zip64 = false;
};

// A zip whose central directory declares the sizes given, as an attacker writes one.
std::string make_zip(const std::vector<Declared>& files, std::string comment = "") {
  std::string out, dir;
  for (const auto& f : files) {
    std::uint64_t offset = out.size();
    put(out, 0x04034b50, 4);
    put(out, 20, 2), put(out, 0, 2), put(out, 0, 2), put(out, 0, 4), put(out, 0, 4);
    put(out, f.data.size(), 4), put(out, f.uncompressed & 0xffffffffu, 4);
    put(out, f.name.size(), 2), put(out, 0, 2);
    out += f.name + f.data;
    put(dir, 0x02014b50, 4);
    put(dir, 45, 2), put(dir, 45, 2), put(dir, 0, 2), put(dir, 0, 2), put(dir, 0, 4), put(dir, 0, 4);
    put(dir, f.zip64 ? 0xffffffffu : f.data.size(), 4);
    put(dir, f.zip64 ? 0xffffffffu : f.uncompressed, 4);
    put(dir, f.name.size(), 2), put(dir, f.zip64 ? 20 : 0, 2), put(dir, 0, 2);
    put(dir, 0, 2), put(dir, 0, 2), put(dir, 0, 4), put(dir, offset, 4);
    dir += f.name;
    if (f.zip64) put(dir, 1, 2), put(dir, 16, 2), put(dir, f.uncompressed, 8), put(dir, f.data.size(), 8);
  }
  std::uint64_t dir_at = out.size();
  out += dir;
  put(out, 0x06054b50, 4);
  put(out, 0, 2), put(out, 0, 2), put(out, files.size(), 2), put(out, files.size(), 2);
  put(out, dir.size(), 4), put(out, dir_at, 4), put(out, comment.size(), 2);
  return out + comment;
}

Error refusal_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  FAIL("accepted");
  return Error(errc::internal, "");
}

}  // namespace

TEST_CASE("zip_entries reads the declared sizes from the central directory, comment or not") {
  auto zip = make_zip({{"a.shp", "12345", 5}, {"dir/b.dbf", "xy", 2'000'000}}, "um comentário");
  auto e = zip_entries(zip);
  REQUIRE(e.size() == 2);
  CHECK(e[0].name == "a.shp");
  CHECK(e[0].compressed == 5);
  CHECK(e[0].uncompressed == 5);
  CHECK(e[1].name == "dir/b.dbf");
  CHECK(e[1].compressed == 2);
  CHECK(e[1].uncompressed == 2'000'000);
}

TEST_CASE("zip_entries reads ZIP64 sizes from the extra field") {
  auto e = zip_entries(make_zip({{"doc.kml", "abc", std::uint64_t{5} << 32, true}}));
  REQUIRE(e.size() == 1);
  CHECK(e[0].uncompressed == (std::uint64_t{5} << 32));
  CHECK(e[0].compressed == 3);
}

TEST_CASE("zip_entries refuses what is not a zip, a truncated one and a lying entry count") {
  CHECK(refusal_of([] { zip_entries("not a zip at all, just some text that is long"); }).code() == errc::invalid_argument);
  auto zip = make_zip({{"a.shp", "12345", 5}});
  CHECK(refusal_of([&] { zip_entries(zip.substr(0, zip.size() - 10)); }).field() == "file");
  std::string liar = zip;
  liar[liar.size() - 12] = '\xff';  // entries on this disk
  liar[liar.size() - 12 + 2] = '\xff';  // total entries: 0xffff... with no ZIP64 locator
  liar[liar.size() - 12 + 3] = '\x7f';
  CHECK(refusal_of([&] { zip_entries(liar); }).code() == errc::invalid_argument);
}

TEST_CASE("check_archive refuses a bomb by its total and by its ratio, and passes an ordinary shapefile") {
  ArchiveLimits l{.max_total = 100 * kMiB, .max_entries = 10, .max_ratio = 1000, .ratio_floor = kMiB};
  // 815 KB holding 800 MB: ratio ~1005 and total 800 MB.
  std::vector<ZipEntry> bomb{{"doc.kml", 815 * 1024, 800 * kMiB}};
  auto e = refusal_of([&] { check_archive(bomb, l); });
  CHECK(e.code() == errc::payload_too_large);
  CHECK(std::string(e.what()).find("1005 vezes") != std::string::npos);
  // Within the ratio but over the total.
  auto t = refusal_of([&] { check_archive({{"a.dbf", 10 * kMiB, 60 * kMiB}, {"b.dbf", 10 * kMiB, 60 * kMiB}}, l); });
  CHECK(std::string(t.what()) == "o zip se expande para 120 MB; o limite é 100 MB");
  // A small all-blank file compresses a thousandfold and is fine under the floor.
  CHECK_NOTHROW(check_archive({{"a.cpg", 10, 5}, {"a.dbf", 500, 900'000}, {"a.shp", 40 * kMiB, 50 * kMiB}}, l));
  std::vector<ZipEntry> many(11, ZipEntry{"x", 1, 1});
  CHECK(std::string(refusal_of([&] { check_archive(many, l); }).what()) == "o zip tem 11 arquivos; o limite é 10");
}

TEST_CASE("check_raster refuses declared sides, bands, pixels, decoded bytes and sparse files") {
  RasterLimits l;  // defaults: 100,000 px/side, 64 bands, 400 MP, 4 GB decoded, 200× over 256 MB
  // V4 of the probe: a 300 KB sparse 100000 × 100000 GeoTIFF: 10,000 MP.
  auto v4 = refusal_of([&] { check_raster({100000, 100000, 1, 1, 300 * 1024}, l); });
  CHECK(v4.code() == errc::payload_too_large);
  CHECK(std::string(v4.what()) == "a imagem declara 10000 megapixels; o limite é 400");
  CHECK(refusal_of([&] { check_raster({100001, 10, 1, 1, 1}, l); }).code() == errc::payload_too_large);
  CHECK(refusal_of([&] { check_raster({10, 10, 65, 1, 1}, l); }).code() == errc::payload_too_large);
  // 20000 × 20000 × 4 bands × 8 bytes = 12.8 GB decoded.
  CHECK(std::string(refusal_of([&] { check_raster({20000, 20000, 4, 8, 1}, l); }).what()) ==
        "a imagem se decodifica em 11.9 GB; o limite é 4 GB");
  // 300 MB of pixels in 1 MB of file: 300 times, over 256 MB.
  CHECK(refusal_of([&] { check_raster({10000, 10000, 3, 1, kMiB}, l); }).field() == "file");
  // A real orthophoto tile: 10000 × 10000 × 3 in 60 MB of JPEG-in-TIFF.
  CHECK_NOTHROW(check_raster({10000, 10000, 3, 1, 60 * kMiB}, l));
  // Small images are never refused for their ratio (an all-white 4000 × 3000 PNG is tiny).
  CHECK_NOTHROW(check_raster({4000, 3000, 4, 1, 20000}, l));
  CHECK(std::string(refusal_of([&] { check_raster({20000, 20000, 1, 1, 1}, {.max_pixels = 100'000'000}, "foto"); }).field()) ==
        "foto");
}

TEST_CASE("decoded_bytes saturates instead of overflowing") {
  CHECK(decoded_bytes({100000, 100000, 64, 8, 0}) == 5'120'000'000'000u);
  CHECK(decoded_bytes({INT64_MAX, INT64_MAX, 64, 8, 0}) == UINT64_MAX);
  CHECK(decoded_bytes({-1, 5, 1, 1, 0}) == 0);
}

TEST_CASE("check_table refuses the DBF bomb's fields and declared attribute bytes") {
  TableLimits l{.max_features = 500000, .max_fields = 200, .max_attribute_bytes = 64 * kMiB};
  // The probe's V2: 250 fields of 254 characters.
  CHECK(std::string(refusal_of([&] { check_table(200, 250, 250 * 254 + 1, l); }).what()) ==
        "o arquivo tem 250 campos; o limite é 200");
  // 2,000 records of 200 × 254 bytes + the deletion flag = 96.9 MB declared.
  CHECK(std::string(refusal_of([&] { check_table(2000, 200, 200 * 254 + 1, l); }).what()) ==
        "os atributos do arquivo ocupam 96.9 MB (2000 feições de 50801 bytes); o limite é 64 MB");
  CHECK(refusal_of([&] { check_table(500001, 1, 1, l); }).code() == errc::payload_too_large);
  // A cadastre of 100,000 lots with 10 fields of 50: 48 MB.
  CHECK_NOTHROW(check_table(100000, 10, 501, l));
  CHECK_NOTHROW(check_table(-1, 10, 501, l));  // count unknown before reading
}

TEST_CASE("check_vertices and Budget refuse before the caller keeps more") {
  TableLimits l{.max_vertices = 1000};
  CHECK_NOTHROW(check_vertices(1000, l, "feição 1"));
  CHECK(std::string(refusal_of([&] { check_vertices(1001, l, "feição 7"); }).what()) ==
        "feição 7: a geometria tem 1001 vértices; o limite é 1000");
  Budget b(100, "o texto dos atributos");
  b.add(60);
  b.add(40);
  CHECK(b.used() == 100);
  CHECK(std::string(refusal_of([&] { b.add(1); }).what()) == "o texto dos atributos: acima do limite de 100 bytes");
  CHECK(b.used() == 100);
  Budget v(1000, "os vértices do arquivo", false);
  CHECK(std::string(refusal_of([&] { v.add(1001); }).what()) == "os vértices do arquivo: acima do limite de 1000");
}

TEST_CASE("max_total_vertices allows one vertex per decoded byte, with a floor") {
  TableLimits l;  // 1 per byte, floor 1,000,000
  CHECK(max_total_vertices(325'000, l) == 1'000'000);        // the DXF block bomb's 325 KB
  CHECK(max_total_vertices(32u << 20, l) == 33'554'432);       // a 32 MB upload
  CHECK(max_total_vertices(UINT64_MAX, {.max_vertices_per_byte = 2}) == UINT64_MAX);
}

TEST_CASE("human_bytes writes sizes as people read them") {
  CHECK(human_bytes(17) == "17 bytes");
  CHECK(human_bytes(812 * 1024) == "812 KB");
  CHECK(human_bytes(256 * kMiB) == "256 MB");
  CHECK(human_bytes(1536 * kMiB) == "1.5 GB");
}

TEST_CASE("check_inflated refuses an entry that inflates past what it declares") {
  // A stored entry is checked by its sizes; a deflated one by inflating it.
  auto honest = make_zip({{"a.txt", "hello", 5}});
  CHECK_NOTHROW(check_inflated(honest, zip_entries(honest)));
  // A real deflate stream of 100,000 'A's, declared as 1,000 bytes.
  std::string plain(100000, 'A'), packed(compressBound(plain.size()), '\0');
  z_stream z{};
  deflateInit2(&z, 9, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  z.next_in = reinterpret_cast<Bytef*>(plain.data());
  z.avail_in = static_cast<uInt>(plain.size());
  z.next_out = reinterpret_cast<Bytef*>(packed.data());
  z.avail_out = static_cast<uInt>(packed.size());
  REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
  packed.resize(z.total_out);
  deflateEnd(&z);
  auto entries_of = [&](std::uint64_t declared) {
    std::string zip = make_zip({{"a.txt", packed, declared}});
    // make_zip writes method 0: mark the entry deflated in both headers.
    zip[8] = 8;
    zip[zip.find("PK\x01\x02") + 10] = 8;
    return zip;
  };
  std::string truthful = entries_of(100000), liar = entries_of(1000);
  CHECK_NOTHROW(check_inflated(truthful, zip_entries(truthful)));
  auto e = refusal_of([&] { check_inflated(liar, zip_entries(liar)); });
  CHECK(e.code() == errc::payload_too_large);
  CHECK(std::string(e.what()) == "'a.txt' no zip declara 1000 bytes mas se expande além disso: o zip foi adulterado");
  // Garbage where deflate data should be.
  std::string broken = make_zip({{"b.txt", "not deflate data at all", 50}});
  broken[8] = 8;
  broken[broken.find("PK\x01\x02") + 10] = 8;
  CHECK(refusal_of([&] { check_inflated(broken, zip_entries(broken)); }).code() == errc::invalid_argument);
}

TEST_CASE("check_inflated refuses a compression method the readers do not take") {
  std::string zip = make_zip({{"a.txt", "BZh9", 4}});
  zip[8] = 12;  // bzip2, in both headers
  zip[zip.find("PK\x01\x02") + 10] = 12;
  auto e = refusal_of([&] { check_inflated(zip, zip_entries(zip)); });
  CHECK(e.code() == errc::invalid_argument);
  CHECK(std::string(e.what()) == "'a.txt' no zip usa um método de compressão não suportado (12): use deflate");
}
