// Parsing the URLs an outbound call is given, and resolving redirects (outbound/url.hpp).
#include <doctest/doctest.h>

#include "outbound/url.hpp"
#include "support/expect_error.hpp"

using namespace cadastre;
using namespace cadastre::outbound;

namespace {

void refused(std::string_view url) {
  try {
    parse_target(url);
    FAIL("aceitou " << url);
  } catch (const Error& e) {
    CHECK_MESSAGE(e.code() == errc::forbidden, url << ": " << e.what());
    CHECK(std::string_view(e.what()).starts_with("destino não permitido: "));
  }
}

void malformed(std::string_view url) {
  CAPTURE(url);
  expect_error([&] { parse_target(url); }, errc::invalid_argument, "url");
}

std::string resolved(std::string_view base, std::string_view location) {
  return resolve_reference(parse_target(base), location);
}

}  // namespace

TEST_CASE("an http(s) URL splits into scheme, lowercase host, port and request-target") {
  Target t =
      parse_target("HTTPS://Mapas.Example.GOV.br./wms?SERVICE=WMS&request=GetCapabilities#parte");
  CHECK(t.scheme == "https");
  CHECK(t.host == "mapas.example.gov.br");
  CHECK(t.port == 443);
  CHECK(t.target == "/wms?SERVICE=WMS&request=GetCapabilities");
  CHECK_FALSE(t.literal);
  CHECK(t.authority() == "mapas.example.gov.br");
  CHECK(t.str() == "https://mapas.example.gov.br/wms?SERVICE=WMS&request=GetCapabilities");

  Target p = parse_target("http://127.0.0.1:8080");
  CHECK(p.literal);
  CHECK(p.port == 8080);
  CHECK(p.target == "/");
  CHECK(p.authority() == "127.0.0.1:8080");

  Target q = parse_target("http://h?x=1");
  CHECK(q.target == "/?x=1");

  Target v6 = parse_target("http://[::1]:81/a");
  CHECK(v6.host == "::1");
  CHECK(v6.literal);
  CHECK(v6.authority() == "[::1]:81");
  CHECK(v6.str() == "http://[::1]:81/a");

  CHECK(parse_target("http://h:/").port == 80);  // an empty port is the default (RFC 3986 §3.2.3)
  CHECK(parse_target("http://h:443/").authority() == "h:443");
  CHECK(parse_target("https://h:443/").authority() == "h");
  CHECK(parse_target("http://srv_interno.example/").host == "srv_interno.example");
}

TEST_CASE("bytes not allowed in a request-target are percent-encoded, escapes stay") {
  CHECK(parse_target("http://h/a b/ç?q=x y&r=%20|").target == "/a%20b/%C3%A7?q=x%20y&r=%20%7C");
  CHECK(parse_target("http://h/a\\b").target == "/a%5Cb");
  CHECK(parse_target("http://h/a\r\nX: y").target == "/a%0D%0AX:%20y");
}

TEST_CASE("other schemes, user info and odd numeric hosts are refused as not allowed") {
  for (const char* url : {"ftp://example.gov.br/",
                          "file:///etc/passwd",
                          "gopher://h/",
                          "javascript:alert(1)",
                          "http://user:senha@example.gov.br/",
                          "http://example.gov.br@127.0.0.1/",
                          "http://@h/",
                          "http://0x7f000001/",
                          "http://2130706433/",
                          "http://0177.0.0.1/",
                          "http://127.1/",
                          "http://127.0.1/",
                          "http://0x7f.0.0.1/",
                          "http://0/",
                          "http://0x/",
                          "http://1.2.3.4.5/",
                          "http://exemplo.123/",
                          "http://127.0.0.01/",
                          "http://%31%32%37.0.0.1/",
                          "http://a.gov.br\\@127.0.0.1/"})
    refused(url);
}

TEST_CASE("malformed URLs are invalid arguments") {
  for (const char* url : {"",
                          "example.gov.br/wms",
                          "//example.gov.br/",
                          "http:/example.gov.br/",
                          "http:example.gov.br",
                          "http://",
                          "http:///path",
                          "http://:80/",
                          "http://h:0/",
                          "http://h:65536/",
                          "http://h:8x/",
                          "http://h:-1/",
                          "http://h:+80/",
                          "http://[::1/",
                          "http://[::1]x/",
                          "http://[127.0.0.1]/",
                          "http://[fe80::1%25eth0]/",
                          "http://::1/",
                          "http://a b/",
                          "http://exa\xc3\xa7o.br/",
                          "http://a..b/",
                          "http://.a/",
                          "http://a\\b/",
                          "3http://h/"})
    malformed(url);
  malformed("http://" + std::string(64, 'a') + ".br/");
}

TEST_CASE("redirects resolve against the URL that answered (RFC 3986 §5.4 examples)") {
  const char* base = "http://a/b/c/d;p?q";
  CHECK(resolved(base, "g") == "http://a/b/c/g");
  CHECK(resolved(base, "./g") == "http://a/b/c/g");
  CHECK(resolved(base, "g/") == "http://a/b/c/g/");
  CHECK(resolved(base, "/g") == "http://a/g");
  CHECK(resolved(base, "//g") == "http://g");
  CHECK(resolved(base, "?y") == "http://a/b/c/d;p?y");
  CHECK(resolved(base, "g?y") == "http://a/b/c/g?y");
  CHECK(resolved(base, "#s") == "http://a/b/c/d;p?q");
  CHECK(resolved(base, "g#s") == "http://a/b/c/g");
  CHECK(resolved(base, "") == "http://a/b/c/d;p?q");
  CHECK(resolved(base, ".") == "http://a/b/c/");
  CHECK(resolved(base, "./") == "http://a/b/c/");
  CHECK(resolved(base, "..") == "http://a/b/");
  CHECK(resolved(base, "../g") == "http://a/b/g");
  CHECK(resolved(base, "../..") == "http://a/");
  CHECK(resolved(base, "../../g") == "http://a/g");
  CHECK(resolved(base, "../../../g") == "http://a/g");
  CHECK(resolved(base, "/./g") == "http://a/g");
  CHECK(resolved(base, "/../g") == "http://a/g");
  CHECK(resolved(base, "g.") == "http://a/b/c/g.");
  CHECK(resolved(base, "..g") == "http://a/b/c/..g");
  CHECK(resolved(base, "./../g") == "http://a/b/g");
  CHECK(resolved(base, "g/./h") == "http://a/b/c/g/h");
  CHECK(resolved(base, "g/../h") == "http://a/b/c/h");
  CHECK(resolved(base, "g;x=1/../y") == "http://a/b/c/y");
  CHECK(resolved(base, "g?y/./x") == "http://a/b/c/g?y/./x");
}

TEST_CASE(
    "absolute and scheme-relative redirects keep their own host; the port and scheme of the base "
    "carry over") {
  CHECK(resolved("https://h:8443/x/y", "http://outro/z") == "http://outro/z");
  CHECK(resolved("https://h:8443/x/y", "//outro/z") == "https://outro/z");
  CHECK(resolved("https://h:8443/x/y", "/z?a=1") == "https://h:8443/z?a=1");
  CHECK(resolved("http://[::1]:81/x/y", "z") == "http://[::1]:81/x/z");
  CHECK(resolved("http://h/", "ftp://h/arquivo") ==
        "ftp://h/arquivo");  // parse_target refuses it next
  CHECK(resolved("http://h/a", "a:b/c") == "a:b/c");
  CHECK(resolved("http://h/a", "./a:b") == "http://h/a:b");
}
