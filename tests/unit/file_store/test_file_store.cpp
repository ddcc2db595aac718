// The one file store: atomic writes, no link followed, safe with two writers at once.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cadastre/error.hpp"
#include "file_store/file_store.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using cadastre::file_store::Store;
using cadastre::file_store::valid_relative;

namespace {

// Names in `dir` (recursively) that start with ".tmp-": what a write must never leave.
int temporaries(const fs::path& dir) {
  int n = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.path().filename().string().rfind(".tmp-", 0) == 0) ++n;
  return n;
}

void put(const fs::path& p, const std::string& bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << bytes;
}

}  // namespace

TEST_CASE("a written file reads back whole and a second write replaces it") {
  cadastre::test::TempDir dir("cadastre-store");
  Store store((dir.path() / "raiz" / "arquivos").string());  // the root and its parents are created
  store.write("campinas/camadas/7/raster.tif", "primeiro");
  CHECK(store.read("campinas/camadas/7/raster.tif") == "primeiro");
  store.write("campinas/camadas/7/raster.tif", "segundo, mais longo");
  CHECK(store.read("campinas/camadas/7/raster.tif") == "segundo, mais longo");
  CHECK(store.size("campinas/camadas/7/raster.tif") == 19u);
  CHECK(store.exists("campinas/camadas/7/raster.tif"));
  CHECK_FALSE(store.exists("campinas/camadas/7/outro.tif"));
  CHECK(store.read("campinas/camadas/8/raster.tif") == std::nullopt);
  CHECK(temporaries(dir.path()) == 0);
  store.remove("campinas/camadas/7/raster.tif");
  CHECK_FALSE(store.exists("campinas/camadas/7/raster.tif"));
  store.remove("campinas/camadas/7/raster.tif");  // absent: nothing happens
}

TEST_CASE("paths that climb out or name the store's temporaries are refused") {
  for (const char* bad : {"", "/etc/passwd", "../fora", "a/../../fora", "a//b", "a/./b", "a/", ".tmp-123",
                          "a/.tmp-x", "a/b c", "a\\b", "..", "a/%2e%2e/b"})
    CHECK_MESSAGE(!valid_relative(bad), bad);
  for (const char* good : {"campinas/ab/campinas.ff.png", "a", "a/b.c/d-e_f", ".lixeira/x"})
    CHECK_MESSAGE(valid_relative(good), good);

  cadastre::test::TempDir dir("cadastre-store");
  Store store(dir.path().string());
  CHECK_THROWS_AS(store.write("../fora.txt", "x"), cadastre::Error);
  CHECK_FALSE(fs::exists(dir.path().parent_path() / "fora.txt"));
  CHECK(store.read("../fora.txt") == std::nullopt);
  CHECK_THROWS_AS(store.path("a/../../etc/passwd"), cadastre::Error);
}

TEST_CASE("no symbolic link below the root is followed, for reads or writes") {
  cadastre::test::TempDir dir("cadastre-store");
  cadastre::test::TempDir outside("cadastre-fora");
  put(outside.path() / "segredo.txt", "não leia");
  Store store((dir.path() / "raiz").string());
  store.write("campinas/ok.txt", "ok");
  fs::create_directory_symlink(outside.path(), dir.path() / "raiz" / "campinas" / "link");
  fs::create_symlink(outside.path() / "segredo.txt", dir.path() / "raiz" / "campinas" / "arquivo.txt");
  CHECK(store.read("campinas/link/segredo.txt") == std::nullopt);
  CHECK(store.read("campinas/arquivo.txt") == std::nullopt);
  CHECK_THROWS(store.write("campinas/link/novo.txt", "x"));
  CHECK_FALSE(fs::exists(outside.path() / "novo.txt"));
  CHECK_FALSE(store.write_at("campinas/arquivo.txt", 0, "x"));
  CHECK(std::ifstream(outside.path() / "segredo.txt").get() == 'n');  // untouched
}

TEST_CASE("a FIFO in the store reads as absent instead of blocking") {
  cadastre::test::TempDir dir("cadastre-store");
  Store store(dir.path().string());
  fs::create_directories(dir.path() / "campinas");
  REQUIRE(::mkfifo((dir.path() / "campinas" / "fila").c_str(), 0600) == 0);
  CHECK(store.read("campinas/fila") == std::nullopt);
  CHECK_FALSE(store.exists("campinas/fila"));
}

TEST_CASE("two writers of one path at once leave one complete file and a reader never sees a partial one") {
  cadastre::test::TempDir dir("cadastre-store");
  Store a(dir.path().string()), b(dir.path().string());  // two instances over one directory
  const std::string one(256 * 1024, 'a'), two(300 * 1024, 'b');
  std::atomic<bool> done{false};
  std::atomic<int> partial{0}, seen{0};
  a.write("campinas/arquivo.bin", one);
  std::thread reader([&] {
    while (!done) {
      auto got = b.read("campinas/arquivo.bin");
      if (!got || (*got != one && *got != two)) ++partial;
      ++seen;
    }
  });
  std::thread w1([&] {
    for (int i = 0; i < 40; ++i) a.write("campinas/arquivo.bin", one);
  });
  std::thread w2([&] {
    for (int i = 0; i < 40; ++i) b.write("campinas/arquivo.bin", two);
  });
  w1.join();
  w2.join();
  done = true;
  reader.join();
  CHECK(partial == 0);
  CHECK(seen > 0);
  auto last = a.read("campinas/arquivo.bin");
  REQUIRE(last);
  CHECK((*last == one || *last == two));
  CHECK(temporaries(dir.path()) == 0);
}

TEST_CASE("parts written at their offsets make the whole and a part sent again replaces the tail") {
  cadastre::test::TempDir dir("cadastre-store");
  Store store(dir.path().string());
  CHECK_FALSE(store.write_at("campinas/envio.parte", 3, "abc"));  // no first part yet
  CHECK_FALSE(store.exists("campinas/envio.parte"));
  CHECK(store.write_at("campinas/envio.parte", 0, "abc"));
  CHECK(store.write_at("campinas/envio.parte", 3, "def"));
  CHECK(store.write_at("campinas/envio.parte", 6, "ghi"));
  CHECK(store.read("campinas/envio.parte") == "abcdefghi");
  CHECK(store.write_at("campinas/envio.parte", 3, "DEF"));  // the second part again
  CHECK(store.read("campinas/envio.parte") == "abcDEF");
  CHECK_FALSE(store.write_at("campinas/envio.parte", 10, "x"));  // a part lost in between
  CHECK(store.read("campinas/envio.parte") == "abcDEF");
}

TEST_CASE("a scratch file goes away unless published and publishing moves it into place") {
  cadastre::test::TempDir dir("cadastre-store");
  Store store(dir.path().string());
  fs::path left;
  {
    Store::Scratch s = store.scratch("campinas/importacoes", ".tif");
    s.write("rascunho");
    left = s.path();
    CHECK(fs::exists(left));
    CHECK(left.filename().string().rfind(".tmp-", 0) == 0);
    CHECK(left.extension() == ".tif");
  }
  CHECK_FALSE(fs::exists(left));
  {
    Store::Scratch s = store.scratch("campinas/importacoes", ".tif");
    s.write("pronto");
    s.publish("campinas/camadas/9/raster.tif");
  }
  CHECK(store.read("campinas/camadas/9/raster.tif") == "pronto");
  CHECK(temporaries(dir.path()) == 0);
  store.rename("campinas/camadas/9/raster.tif", "campinas/camadas/10/raster.tif");
  CHECK(store.read("campinas/camadas/10/raster.tif") == "pronto");
  CHECK_FALSE(store.exists("campinas/camadas/9/raster.tif"));
  store.remove("campinas/camadas");  // a directory, with what it holds
  CHECK_FALSE(fs::exists(dir.path() / "campinas" / "camadas"));
}

TEST_CASE("a service without a store answers 503 for every write") {
  Store none("");
  CHECK_FALSE(none.enabled());
  try {
    none.write("campinas/x", "y");
    FAIL("wrote without a store");
  } catch (const cadastre::Error& e) {
    CHECK(e.code() == cadastre::errc::unavailable);
  }
  CHECK_THROWS_AS(none.read("campinas/x"), cadastre::Error);
  CHECK_THROWS_AS(none.scratch("campinas", ".tif"), cadastre::Error);
}
