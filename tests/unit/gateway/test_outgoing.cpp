// What goes on to destinations: path after the prefix, query without legacy credentials,
// normalised credential headers, and the response header rules.
#include <doctest/doctest.h>

#include "gateway/outgoing.hpp"
#include "gateway/response_rules.hpp"

using namespace cadastre;
using namespace cadastre::gateway;

TEST_CASE("the path after the route prefix is kept as it is, trailing slash included") {
  CHECK(path_after_segments("/rest/lote/", 1) == "/lote/");
  CHECK(path_after_segments("/rest", 1) == "");
  CHECK(path_after_segments("/rest/", 1) == "/");
  CHECK(path_after_segments("/plataforma/tiles/lote/14/1/2.pbf", 2) == "/lote/14/1/2.pbf");
  CHECK(path_after_segments("//rest//a", 1) == "//a");
}

TEST_CASE("dot segments are detected in decoded paths") {
  CHECK(has_dot_segment("/../beta/lote"));
  CHECK(has_dot_segment("/a/."));
  CHECK(has_dot_segment(".."));
  CHECK_FALSE(has_dot_segment("/a/..b/c./.d"));
  CHECK_FALSE(has_dot_segment(""));
}

TEST_CASE("the outgoing query drops legacy credentials and keeps the rest encoded") {
  http::Request r;
  r.query = {{"BBOX", "-47,-23,-46,-22"}, {"nome", "São José"}, {"x_auth_token", "t"}, {"x_tn_token", "NQ"}, {"tema", "a"}};
  CHECK(outgoing_query(r) == "BBOX=-47,-23,-46,-22&nome=S%C3%A3o%20Jos%C3%A9&tema=a");
  CHECK(outgoing_query(r, {"tema"}) == "BBOX=-47,-23,-46,-22&nome=S%C3%A3o%20Jos%C3%A9");
}

TEST_CASE("tenant destinations receive the credential normalised, the request id and X-Forwarded-*") {
  http::Request r;
  r.request_id = "req-1";
  r.remote_addr = "10.1.2.3";
  r.headers.add("Host", "gw.example:8090");
  r.headers.add("X-Auth-Token", "tok");
  r.headers.add("X-Tn-Token", "NQ==");
  r.headers.add("Accept", "application/json");
  AuthResult a;
  a.ok = true;
  a.session_token = "tok";
  a.principal = store::Principal{};
  a.principal->tenant_id = 5;
  auto h = tenant_headers(r, a);
  CHECK(*find_header(h, "Authorization") == "Bearer tok");
  CHECK(*find_header(h, "X-Auth-Token") == "tok");
  CHECK(*find_header(h, "X-Tn-Token") == "NQ==");
  CHECK(*find_header(h, "X-Request-Id") == "req-1");
  CHECK(*find_header(h, "X-Forwarded-For") == "10.1.2.3");
  CHECK(*find_header(h, "X-Forwarded-Host") == "gw.example:8090");
  CHECK(*find_header(h, "X-Forwarded-Proto") == "http");
  CHECK(*find_header(h, "Accept") == "application/json");
  CHECK(find_header(h, "Host") == nullptr);
}

TEST_CASE("the intranet JWT travels with X-Origin; providers never get credentials") {
  http::Request r;
  r.headers.add("Authorization", "Bearer jwt.jwt.jwt");
  r.headers.add("X-Origin", "login_intranet");
  r.headers.add("Cookie", "s=1");
  r.headers.add("Accept", "image/png");
  AuthResult a;
  a.ok = true;
  a.jwt = "jwt.jwt.jwt";
  a.principal = store::Principal{};
  a.principal->tenant_id = 12;
  auto h = tenant_headers(r, a);
  CHECK(*find_header(h, "Authorization") == "Bearer jwt.jwt.jwt");
  CHECK(*find_header(h, "X-Origin") == "login_intranet");
  CHECK(*find_header(h, "X-Tn-Token") == "MTI=");
  CHECK(find_header(h, "X-Auth-Token") == nullptr);
  auto p = provider_headers(r);
  CHECK(find_header(p, "Authorization") == nullptr);
  CHECK(find_header(p, "Cookie") == nullptr);
  CHECK(find_header(p, "X-Origin") == nullptr);
  CHECK(*find_header(p, "Accept") == "image/png");
}

TEST_CASE("tile responses are not cacheable and successful .pbf tiles are typed as MVT") {
  http::Response r = http::Response::text("bytes", "application/octet-stream");
  r.headers.add("Cache-Control", "max-age=3600");
  r.headers.add("ETag", "\"g7\"");
  apply_tile_rules(r, is_pbf_path("/lote/14/1/2.PBF"));
  CHECK(r.content_type == "application/vnd.mapbox-vector-tile");
  CHECK(*r.headers.find("Cache-Control") == "no-cache, no-store, must-revalidate");
  CHECK(*r.headers.find("Pragma") == "no-cache");
  CHECK(*r.headers.find("Expires") == "0");
  CHECK(*r.headers.find("ETag") == "\"g7\"");
  http::Response missing = http::Response::json(R"({"codigo":"nao_encontrado"})", 404);
  apply_tile_rules(missing, true);
  CHECK(missing.content_type == "application/json; charset=utf-8");
  CHECK(*missing.headers.find("Cache-Control") == "no-cache, no-store, must-revalidate");
}

TEST_CASE("provider responses allow any origin and an image FORMAT types a generic body") {
  http::Request req;
  req.query = {{"SERVICE", "WMS"}, {"format", "image/png"}};
  CHECK(image_format(req) == "image/png");
  http::Response r = http::Response::text("\x89PNG", "application/octet-stream");
  apply_provider_rules(r, req);
  CHECK(r.content_type == "image/png");
  CHECK(*r.headers.find("Access-Control-Allow-Origin") == "*");
  http::Response typed = http::Response::text("\xff\xd8", "image/jpeg");
  apply_provider_rules(typed, req);
  CHECK(typed.content_type == "image/jpeg");
  http::Request xml;
  xml.query = {{"FORMAT", "text/xml"}};
  CHECK_FALSE(image_format(xml).has_value());
}
