// Destination templates, URL parsing and percent-encoding.
#include <doctest/doctest.h>

#include "gateway/url.hpp"

using namespace cadastre::gateway;

TEST_CASE("a template's {municipio} is replaced and other text kept") {
  CHECK(expand_template("http://127.0.0.1:8080/{municipio}", {{"municipio", "campinas"}}) == "http://127.0.0.1:8080/campinas");
  CHECK(expand_template("https://{municipio}.tiles.example/{municipio}/v1", {{"municipio", "alfa"}}) ==
        "https://alfa.tiles.example/alfa/v1");
  CHECK(expand_template("https://t.example/{z}/{x}/{y}.pbf", {{"z", "14"}, {"x", "6070"}, {"y", "9300"}}) ==
        "https://t.example/14/6070/9300.pbf");
  CHECK(expand_template("http://h/{desconhecido}", {{"municipio", "a"}}) == "http://h/{desconhecido}");
  CHECK(template_variables("https://h/{z}/{x}/{y}?t={tema}") == std::vector<std::string>{"z", "x", "y", "tema"});
}

TEST_CASE("values put into a template cannot add path segments or query fields") {
  CHECK(expand_template("http://h/wms?layer={tema}", {{"tema", "a&service=x/../y"}}) ==
        "http://h/wms?layer=a%26service%3Dx%2F..%2Fy");
}

TEST_CASE("absolute http(s) URLs are parsed into origin, path and query") {
  auto u = parse_url("http://127.0.0.1:8080/alfa/lote/?a=1");
  REQUIRE(u);
  CHECK(u->scheme == "http");
  CHECK(u->host == "127.0.0.1");
  CHECK(u->port == 8080);
  CHECK(u->path == "/alfa/lote/");
  CHECK(u->query == "a=1");
  CHECK(u->origin() == "http://127.0.0.1:8080");
  CHECK(u->target() == "/alfa/lote/?a=1");
  auto s = parse_url("HTTPS://Geo.Example.gov.br/ows");
  REQUIRE(s);
  CHECK(s->origin() == "https://geo.example.gov.br");
  CHECK(s->port == 443);
  CHECK(parse_url("http://h")->target() == "/");
  CHECK(parse_url("http://[::1]:9000/x")->origin() == "http://[::1]:9000");
}

TEST_CASE("other schemes, credentials in URLs, fragments and bad ports are refused") {
  CHECK_FALSE(parse_url("ftp://h/x"));
  CHECK_FALSE(parse_url("http://user:pw@h/x"));
  CHECK_FALSE(parse_url("http://h/x#frag"));
  CHECK_FALSE(parse_url("http://h:99999/"));
  CHECK_FALSE(parse_url("http://h:8a/"));
  CHECK_FALSE(parse_url("h/x"));
  CHECK_FALSE(parse_url("http:///x"));
}

TEST_CASE("paths and query components are percent-encoded from their decoded form") {
  CHECK(encode_path("/lote/São José/1") == "/lote/S%C3%A3o%20Jos%C3%A9/1");
  CHECK(encode_path("/a?b#c%d") == "/a%3Fb%23c%25d");
  CHECK(encode_path("/a:b@c!$&'()*+,;=") == "/a:b@c!$&'()*+,;=");
  CHECK(encode_segment("a/b") == "a%2Fb");
  CHECK(encode_query_component("a&b=c+d e") == "a%26b%3Dc%2Bd%20e");
  CHECK(encode_query_component("image/png") == "image/png");
  CHECK(encode_query({{"BBOX", "-47.1,-22.9"}, {"q", "x y"}}) == "BBOX=-47.1,-22.9&q=x%20y");
  CHECK(decode_component("S%C3%A3o+Jos%C3%A9%zz", true) == "São José%zz");
  CHECK(decode_component("a+b", false) == "a+b");
}

TEST_CASE("a destination is the template plus the path after the prefix and the query") {
  auto u = compose_url("http://127.0.0.1:8080/{municipio}", {{"municipio", "alfa"}}, "/lote/", "pagina=2");
  REQUIRE(u);
  CHECK(u->str() == "http://127.0.0.1:8080/alfa/lote/?pagina=2");
  CHECK(compose_url("http://h/base/", {}, "/x", "")->str() == "http://h/base/x");
  CHECK(compose_url("http://h/wms?service=WMS", {}, "", "tema=imoveis")->str() == "http://h/wms?service=WMS&tema=imoveis");
  CHECK(compose_url("http://h/{municipio}", {}, "/x", "")  == std::nullopt);  // tenant unknown
  CHECK(join_path("/a", "") == "/a");
  CHECK(join_query("", "b=1") == "b=1");
  CHECK(join_query("a=1&", "b=1") == "a=1&b=1");
}
