// Shared by the /midia tests: one stack per test binary (tenant "alfa" with a small demo
// city so records can name lots, "beta" empty), a media root of its own in a temporary
// directory with small limits, and a secret file planted next to (outside) that root; the
// request and database helpers are ServerFixture's.
// The temporary directory goes away with the process.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "store/crypto.hpp"
#include "support/server_fixture.hpp"
#include "support/temp_dir.hpp"

namespace media_test {

using cadastre::test::Answer;
using cadastre::test::ServerFixture;
using cadastre::test::Stack;

inline constexpr std::size_t kMaxBytes = 64 * 1024;     ///< limit of the credentialed uploads
inline constexpr std::size_t kPublicMaxBytes = 16 * 1024;  ///< limit of POST /midia/storage
/// The server's request-body limit: above the base64 form of kMaxBytes, as main() sets it.
inline constexpr std::size_t kPayloadMax = kMaxBytes / 3 * 4 + 64 * 1024;

struct Env {
  cadastre::test::TempDir dir{"cadastre-midia"};  // first member: removed last
  std::filesystem::path base = dir.path(), root = base / "raiz", secret_file = base / "segredo.txt";
  std::string secret = "SEGREDO-FORA-DO-ARMAZENAMENTO-" + cadastre::store::random_token();
  std::unique_ptr<Stack> stack;

  Env() {
    std::ofstream(secret_file) << secret;
    cadastre::server::AppOptions o;
    o.media.root = root.string();
    o.media.max_bytes = kMaxBytes;
    o.media.public_max_bytes = kPublicMaxBytes;
    o.http.payload_max = kPayloadMax;
    stack = std::make_unique<Stack>(std::vector<std::string>{"alfa", "beta"}, o);
    stack->load_demo("alfa", 12);
  }
};

inline Env& env() {
  static Env e;
  return e;
}
struct Fixture : ServerFixture {
  Fixture() : ServerFixture(*env().stack) {}
};
/// The binary's fixture, for the helpers outside a test.
inline Fixture& fixture() {
  static Fixture f;
  return f;
}

/// Bytes of a small file of each kind (the content matches the extension).
inline std::string png_bytes(std::size_t size = 200) {
  std::string b("\x89PNG\r\n\x1a\n", 8);
  while (b.size() < size) b += static_cast<char>('A' + b.size() % 26);
  return b;
}
inline std::string pdf_bytes() { return "%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n"; }

/// The base64 upload body.
inline std::string upload_body(const std::string& bytes, const std::string& nome, const std::string& extensao,
                                const std::string& extra = "") {
  return R"({"arquivo": ")" + cadastre::store::base64_encode(bytes) + R"(", "nome": ")" + nome +
         R"(", "extensao": ")" + extensao + "\"" + extra + "}";
}

/// Every regular file under the media root, as paths relative to it (sorted).
inline std::vector<std::string> stored_files() {
  std::vector<std::string> out;
  std::error_code ec;
  if (!std::filesystem::exists(env().root)) return out;
  for (auto it = std::filesystem::recursive_directory_iterator(env().root, ec);
       it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file() || it->is_symlink()) out.push_back(std::filesystem::relative(it->path(), env().root).string());
  std::sort(out.begin(), out.end());
  return out;
}

/// The file of a key in the layout <root>/<area>/<2 hex>/<key>.
/// Member `key` of an answer's JSON body: a string as it is, anything else as minified JSON.
inline std::string member(Answer& a, const char* key) {
  auto e = a.json()[key];
  if (e.is_string()) return std::string(std::string_view(e));
  return simdjson::minify(e.value());
}

inline std::filesystem::path file_of(const std::string& key) {
  auto dot = key.find('.', 1);
  return env().root / key.substr(0, dot) / key.substr(dot + 1, 2) / key;
}

}  // namespace media_test
