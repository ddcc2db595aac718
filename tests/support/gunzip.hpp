// Decompresses one gzip member, for tests of compressed answers.
#pragma once

#include <doctest/doctest.h>
#include <zlib.h>

#include <string>

namespace cadastre::test {

inline std::string gunzip(const std::string& in) {
  z_stream z{};
  REQUIRE(inflateInit2(&z, 15 + 16) == Z_OK);  // 15 + 16: expect the gzip wrapper
  std::string out(4 << 20, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = inflate(&z, Z_FINISH);
  out.resize(z.total_out);
  inflateEnd(&z);
  CHECK(rc == Z_STREAM_END);
  return out;
}

}  // namespace cadastre::test
