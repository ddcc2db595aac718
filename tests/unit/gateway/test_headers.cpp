// Hop-by-hop filtering and the headers that cross the gateway each way.
#include <doctest/doctest.h>

#include <algorithm>

#include "gateway/headers.hpp"

using namespace cadastre::gateway;

namespace {
std::vector<std::string> names(const HeaderList& h) {
  std::vector<std::string> out;
  for (const auto& [k, v] : h) out.push_back(k);
  return out;
}
}  // namespace

TEST_CASE("fixed hop-by-hop headers are removed, in any case") {
  HeaderList in = {{"connection", "keep-alive"}, {"Keep-Alive", "timeout=5"}, {"TE", "trailers"},
                   {"Transfer-Encoding", "chunked"}, {"Upgrade", "h2c"}, {"Proxy-Authorization", "Basic x"},
                   {"Trailer", "X"}, {"Accept", "application/json"}};
  CHECK(names(without_hop_by_hop(in)) == std::vector<std::string>{"Accept"});
  CHECK(is_hop_by_hop("KEEP-ALIVE"));
  CHECK_FALSE(is_hop_by_hop("Authorization"));
}

TEST_CASE("headers named by Connection are hop-by-hop too") {
  HeaderList in = {{"Connection", "close, X-Segredo-Do-Salto ,x-outro"}, {"X-Segredo-Do-Salto", "1"}, {"X-Outro", "2"},
                   {"X-Fica", "3"}};
  CHECK(names(without_hop_by_hop(in)) == std::vector<std::string>{"X-Fica"});
}

TEST_CASE("requests go on without Host, length and httplib's pseudo-headers, with the caller's encoding choice") {
  HeaderList in = {{"Host", "gw:8090"},          {"Content-Length", "0"},   {"Accept-Encoding", "gzip"},
                   {"REMOTE_ADDR", "10.0.0.1"},  {"LOCAL_PORT", "8090"},    {"X-Request-Id", "abc"},
                   {"X-Forwarded-For", "1.2.3.4"}, {"User-Agent", "QGIS/3.34"}, {"If-None-Match", "\"v1\""},
                   {"Authorization", "Bearer t"}};
  CHECK(names(request_headers_to_forward(in)) ==
        std::vector<std::string>{"Accept-Encoding", "User-Agent", "If-None-Match", "Authorization"});
}

TEST_CASE("responses come back without hop-by-hop, length, type and the gateway's own headers, with their encoding") {
  HeaderList in = {{"Content-Type", "application/json"},  {"Content-Length", "10"},   {"Content-Encoding", "gzip"},
                   {"Keep-Alive", "timeout=5, max=5"},   {"ETag", "\"abc\""},        {"X-Request-Id", "up"},
                   {"Access-Control-Allow-Origin", "https://x"}, {"X-Target-URL", "http://evil"},
                   {"Cache-Control", "max-age=60"}};
  CHECK(names(response_headers_to_return(in)) == std::vector<std::string>{"Content-Encoding", "ETag", "Cache-Control"});
}

TEST_CASE("credential headers are recognised for provider calls") {
  for (const char* h : {"Authorization", "x-auth-token", "X-Tn-Token", "X-Origin", "Cookie"}) CHECK(is_credential_header(h));
  CHECK_FALSE(is_credential_header("Accept"));
}

TEST_CASE("header list helpers set, find and remove case-insensitively") {
  HeaderList h = {{"a", "1"}, {"B", "2"}, {"A", "3"}};
  CHECK(*find_header(h, "b") == "2");
  set_header(h, "a", "9");
  CHECK(h.size() == 2);
  CHECK(*find_header(h, "A") == "9");
  remove_header(h, "B");
  CHECK(find_header(h, "b") == nullptr);
}
