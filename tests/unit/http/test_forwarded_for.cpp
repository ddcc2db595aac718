// X-Forwarded-For is believed only from trusted proxies, right to left.
#include <doctest/doctest.h>

#include <stdexcept>

#include "http/forwarded.hpp"

using cadastre::http::TrustedProxies;

TEST_CASE("without trusted proxies the peer is the client, whatever the request says") {
  TrustedProxies none({});
  CHECK(none.client("203.0.113.7", {"198.51.100.1"}) == "203.0.113.7");
}

TEST_CASE("a trusted proxy's X-Forwarded-For names the client; an untrusted peer's is ignored") {
  TrustedProxies p({"10.0.0.0/8", "::1"});
  CHECK(p.client("10.0.0.5", {"198.51.100.1"}) == "198.51.100.1");
  CHECK(p.client("::1", {"198.51.100.1"}) == "198.51.100.1");
  CHECK(p.client("::ffff:10.0.0.5", {"198.51.100.1"}) == "198.51.100.1");  // mapped IPv4
  CHECK(p.client("203.0.113.7", {"198.51.100.1"}) == "203.0.113.7");       // not a proxy of ours
  CHECK(p.client("10.0.0.5", {}) == "10.0.0.5");                            // no header
}

TEST_CASE("the client is the right-most address not trusted: a forged left part changes nothing") {
  TrustedProxies p({"10.0.0.0/8"});
  // The client sent "1.2.3.4" itself; the proxy appended the real peer 198.51.100.1.
  CHECK(p.client("10.0.0.5", {"1.2.3.4, 198.51.100.1"}) == "198.51.100.1");
  // Two proxies of ours in a row.
  CHECK(p.client("10.0.0.5", {"198.51.100.1, 10.0.0.9"}) == "198.51.100.1");
  // One header per proxy (HAProxy's option forwardedfor adds a line).
  CHECK(p.client("10.0.0.5", {"1.2.3.4", "198.51.100.1"}) == "198.51.100.1");
  // Garbage stops the walk at the last address a proxy of ours vouched for.
  CHECK(p.client("10.0.0.5", {"198.51.100.1, ' or 1=1"}) == "10.0.0.5");
  CHECK(p.client("10.0.0.5", {"x, 198.51.100.1"}) == "198.51.100.1");
  // All of them ours: the left-most.
  CHECK(p.client("10.0.0.5", {"10.1.1.1, 10.0.0.9"}) == "10.1.1.1");
}

TEST_CASE("malformed trusted proxies are refused at start") {
  CHECK_THROWS_AS(TrustedProxies({"10.0.0.0/33"}), std::invalid_argument);
  CHECK_THROWS_AS(TrustedProxies({"10.1.2.3/8"}), std::invalid_argument);
  CHECK_THROWS_AS(TrustedProxies({"proxy.local"}), std::invalid_argument);
  CHECK(TrustedProxies({" "}).empty());
}
