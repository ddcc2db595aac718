// Which hosts and addresses a policy lets through (outbound/policy.hpp).
#include <doctest/doctest.h>

#include "outbound/policy.hpp"
#include "support/expect_error.hpp"

using namespace cadastre;
using namespace cadastre::outbound;

namespace {

bool host_ok(const Policy& p, std::string_view url) { return host_allowed(p, parse_target(url)); }

std::optional<std::string> refusal(const Policy& p, std::string_view address) {
  auto a = Address::parse(address);
  REQUIRE(a);
  return address_refusal(p, *a);
}

}  // namespace

TEST_CASE("hosts: exact names, case-insensitive, trailing dots ignored") {
  Policy p;
  p.allowed_hosts = {"WMS.Example.gov.br", "geo.exemplo.sp.gov.br."};
  CHECK(host_ok(p, "http://wms.example.gov.br/"));
  CHECK(host_ok(p, "https://WMS.EXAMPLE.GOV.BR.:8443/x"));
  CHECK(host_ok(p, "http://geo.exemplo.sp.gov.br/"));
  CHECK_FALSE(host_ok(p, "http://example.gov.br/"));
  CHECK_FALSE(host_ok(p, "http://a.wms.example.gov.br/"));
  CHECK_FALSE(host_ok(p, "http://wms.example.gov.br.evil.com/"));
  CHECK_FALSE(host_ok(Policy{}, "http://wms.example.gov.br/"));  // an empty list allows nothing
}

TEST_CASE(
    "hosts: *.suffix covers names below it, not the suffix itself, nor look-alikes, nor "
    "addresses") {
  Policy p;
  p.allowed_hosts = {"*.example.gov.br"};
  CHECK(host_ok(p, "http://wms.example.gov.br/"));
  CHECK(host_ok(p, "http://a.b.example.gov.br/"));
  CHECK_FALSE(host_ok(p, "http://example.gov.br/"));
  CHECK_FALSE(host_ok(p, "http://badexample.gov.br/"));
  CHECK_FALSE(host_ok(p, "http://example.gov.br.evil.com/"));
  Policy numeric;
  numeric.allowed_hosts = {"*.0.0.1"};
  CHECK_FALSE(host_ok(numeric, "http://127.0.0.1/"));
}

TEST_CASE("hosts: IP addresses match by value, and only their canonical spelling gets that far") {
  Policy p;
  p.allowed_hosts = {"127.0.0.1", "[::1]", "fd00::0:2"};
  CHECK(host_ok(p, "http://127.0.0.1:9000/"));
  CHECK(host_ok(p, "http://[::1]/"));
  CHECK(host_ok(p, "http://[0:0::1]/"));
  CHECK(host_ok(p, "http://[fd00::2]/"));
  CHECK_FALSE(host_ok(p, "http://127.0.0.2/"));
  CHECK_FALSE(host_ok(p, "http://[::ffff:127.0.0.1]/"));  // listed hosts are exact
  CHECK_FALSE(host_ok(p, "http://localhost/"));
  // Even listed, an odd spelling never reaches the list: the URL itself is refused.
  Policy odd;
  odd.allowed_hosts = {"0x7f000001", "2130706433"};
  expect_error([&] { host_ok(odd, "http://0x7f000001/"); }, errc::forbidden, "");
  expect_error([&] { host_ok(odd, "http://2130706433/"); }, errc::forbidden, "");
}

TEST_CASE(
    "addresses: special-purpose ones are refused with the reason unless an allowed network holds "
    "them") {
  Policy p;
  CHECK(refusal(p, "127.0.0.1") == "endereço de loopback");
  CHECK(refusal(p, "10.1.2.3") == "endereço privado");
  CHECK_FALSE(refusal(p, "200.160.2.3"));
  p.allowed_networks = {"10.1.0.0/16", "127.0.0.0/8", "not a network"};
  CHECK_FALSE(refusal(p, "10.1.2.3"));
  CHECK(refusal(p, "10.2.0.1") == "endereço privado");
  CHECK_FALSE(refusal(p, "127.0.0.1"));
  CHECK_FALSE(refusal(p, "::ffff:127.0.0.1"));         // the IPv4 network covers its mapped form
  CHECK(refusal(p, "::1") == "endereço de loopback");  // but not IPv6 loopback
  CHECK(refusal(p, "169.254.169.254") == "endereço link-local");
  p.allowed_networks = {"::1/128"};
  CHECK_FALSE(refusal(p, "::1"));
  CHECK(refusal(p, "127.0.0.1") == "endereço de loopback");
}

TEST_CASE("validate() names the field of a configuration mistake") {
  Policy ok;
  ok.allowed_hosts = {"wms.example.gov.br", "*.example.gov.br", "127.0.0.1", "::1",
                      "[fd00::2]",          "localhost"};
  ok.allowed_networks = {"10.1.0.0/16", "fd00::/8", "192.0.2.7"};
  CHECK_NOTHROW(validate(ok));
  for (const char* bad :
       {"", "*", "*.", "*.127.0.0.1", "0x7f000001", "2130706433", "a b", "http://h", "h:80", "h/x",
        "user@h", "exa\xc3\xa7o.br", "*.*.gov.br", "[::1"}) {
    Policy p;
    p.allowed_hosts = {bad};
    CAPTURE(bad);
    expect_error([&] { validate(p); }, errc::invalid_argument, "allowed_hosts");
  }
  for (const char* bad : {"10.1.2.3/16", "10.0.0.0/33", "rede", ""}) {
    Policy p;
    p.allowed_networks = {bad};
    CAPTURE(bad);
    expect_error([&] { validate(p); }, errc::invalid_argument, "allowed_networks");
  }
  Policy zero;
  zero.max_bytes = 0;
  expect_error([&] { validate(zero); }, errc::invalid_argument, "max_bytes");
  Policy negative;
  negative.max_redirects = -1;
  expect_error([&] { validate(negative); }, errc::invalid_argument, "max_redirects");
  Policy no_time;
  no_time.total_timeout = std::chrono::milliseconds(0);
  expect_error([&] { validate(no_time); }, errc::invalid_argument, "total_timeout");
}
