// A temporary directory owned by a test fixture: created under /tmp, removed with
// everything in it when the owner goes away (also when the owner's constructor throws
// after this member was built).
#pragma once

#include <doctest/doctest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>

namespace cadastre::test {

class TempDir {
 public:
  /// `prefix` names the folder, e.g. "cadastre-midia" → /tmp/cadastre-midia-XXXXXX.
  explicit TempDir(const std::string& prefix) {
    std::string tmpl = "/tmp/" + prefix + "-XXXXXX";
    REQUIRE(mkdtemp(tmpl.data()) != nullptr);
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const noexcept { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace cadastre::test
