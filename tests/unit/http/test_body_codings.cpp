// Multipart request bodies and gzip answers (src/http/body_codings.hpp).
#include <doctest/doctest.h>

#include "http/body_codings.hpp"
#include "support/gunzip.hpp"

using namespace cadastre::http;
using cadastre::test::gunzip;

namespace {

const char* kType = "multipart/form-data; boundary=----limite";

}  // namespace

TEST_CASE("a multipart body gives every part with its name, file name, type and exact bytes") {
  const std::string body =
      "preâmbulo ignorado\r\n"
      "------limite\r\n"
      "Content-Disposition: form-data; name=\"descricao\"\r\n\r\n"
      "Fachada norte\r\n"
      "------limite\r\n"
      "Content-Disposition: form-data; name=\"arquivo\"; filename=\"foto \\\"1\\\".png\"\r\n"
      "Content-Type: image/png\r\n\r\n"
      "\x89PNG\r\n\r\n--"  // a boundary-like start inside a file is content
      "\r\n------limite--\r\n";
  std::vector<FilePart> parts;
  std::string reason;
  REQUIRE(parse_multipart(kType, body, parts, reason));
  REQUIRE(parts.size() == 2);
  CHECK(parts[0].name == "descricao");
  CHECK(parts[0].filename.empty());
  CHECK(parts[0].content == "Fachada norte");
  CHECK(parts[1].name == "arquivo");
  CHECK(parts[1].filename == "foto \"1\".png");
  CHECK(parts[1].content_type == "image/png");
  CHECK(parts[1].content == std::string("\x89PNG\r\n\r\n--"));
}

TEST_CASE(
    "a body that is not multipart gives no parts; a broken multipart body is refused with a "
    "reason") {
  std::vector<FilePart> parts;
  std::string reason;
  CHECK(parse_multipart("application/json", "{}", parts, reason));
  CHECK(parts.empty());
  for (const std::string& bad : {
           std::string("sem delimitador"),
           std::string("------limite\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nsem fim"),
           std::string("------limite\r\nContent-Disposition: "
                       "form-data\r\n\r\nx\r\n------limite--"),  // no name
           std::string("------limite\r\nsem cabeçalho\r\n------limite--"),
       }) {
    CAPTURE(bad);
    parts.clear();
    CHECK_FALSE(parse_multipart(kType, bad, parts, reason));
    CHECK_FALSE(reason.empty());
  }
  CHECK_FALSE(parse_multipart("multipart/form-data", "x", parts, reason));  // no boundary
}

TEST_CASE("gzip is accepted unless refused with q=0; * counts") {
  const std::string yes[] = {"gzip", "deflate, gzip;q=0.5", "br, *", "GZIP"};
  const std::string no[] = {"", "br", "gzip;q=0", "identity", "deflate, gzip; q=0.000"};
  for (const auto& v : yes) CHECK(accepts_gzip(&v));
  for (const auto& v : no) CHECK_FALSE(accepts_gzip(&v));
  CHECK_FALSE(accepts_gzip(nullptr));
}

TEST_CASE("JSON, GeoJSON, text and XML are compressible; images and protobuf tiles are not") {
  CHECK(compressible_type("application/json; charset=utf-8"));
  CHECK(compressible_type("application/geo+json"));
  CHECK(compressible_type("text/html"));
  CHECK(compressible_type("application/xml"));
  CHECK_FALSE(compressible_type("image/png"));
  CHECK_FALSE(compressible_type("application/vnd.mapbox-vector-tile"));
  CHECK_FALSE(compressible_type("application/x-protobuf"));
}

TEST_CASE("gzip and the streaming writer give what gunzip turns back into the input") {
  std::string text;
  for (int i = 0; i < 5000; ++i)
    text += "{\"id\":" + std::to_string(i) + ",\"inscricao\":\"01.02.003\"},";
  const std::string whole = gzip(text);
  CHECK(whole.size() < text.size() / 4);
  CHECK(gunzip(whole) == text);

  std::string streamed;
  int pieces = 0;
  GzipWriter w([&](const char* p, std::size_t n) {
    streamed.append(p, n);
    ++pieces;
    return true;
  });
  for (std::size_t at = 0; at < text.size(); at += 1000)
    REQUIRE(w.write(text.data() + at, std::min<std::size_t>(1000, text.size() - at)));
  REQUIRE(w.finish());
  CHECK(gunzip(streamed) == text);
  CHECK(gunzip(gzip("")).empty());
}

TEST_CASE("the streaming writer reports a refused write") {
  GzipWriter w([](const char*, std::size_t) { return false; });
  std::string big(200000, 'x');
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>('a' + (i * 7919) % 26);
  const bool wrote = w.write(big.data(), big.size());
  CHECK_FALSE((wrote && w.finish()));
}
