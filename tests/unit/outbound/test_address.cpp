// Addresses, networks and which addresses are special-purpose (outbound/address.hpp).
#include <doctest/doctest.h>

#include "outbound/address.hpp"

using namespace cadastre::outbound;

namespace {

Address addr(std::string_view text) {
  auto a = Address::parse(text);
  REQUIRE_MESSAGE(a, text);
  return *a;
}

std::string reason(std::string_view text) {
  return special_purpose(addr(text)).value_or("público");
}

}  // namespace

TEST_CASE("addresses parse only in their canonical forms") {
  CHECK(addr("10.0.0.1").str() == "10.0.0.1");
  CHECK_FALSE(addr("10.0.0.1").v6);
  CHECK(addr("::1").v6);
  CHECK(addr("0:0:0:0:0:0:0:1") == addr("::1"));
  CHECK(addr("::FFFF:127.0.0.1").str() == "::ffff:127.0.0.1");
  // What inet_aton() reads as 127.0.0.1 is not an address here.
  for (const char* odd : {"0x7f000001", "2130706433", "0177.0.0.1", "127.1", "127.0.1",
                          "127.0.0.01", "0x7f.0.0.1", "127.0.0.1.", " 127.0.0.1", "127.0.0.256",
                          "1.2.3.4.5", "", "fe80::1%eth0", "[::1]", "::ffff:0177.0.0.1"})
    CHECK_MESSAGE(!Address::parse(odd), odd);
}

TEST_CASE("an IPv4-mapped IPv6 address unmaps to its IPv4 address, others stay as they are") {
  CHECK(addr("::ffff:10.1.2.3").unmapped() == addr("10.1.2.3"));
  CHECK(addr("::10.1.2.3").unmapped() == addr("::10.1.2.3"));
  CHECK(addr("10.1.2.3").unmapped() == addr("10.1.2.3"));
}

TEST_CASE("networks: CIDR text, bare addresses, host bits, membership by family") {
  auto net = parse_cidr("10.1.0.0/16");
  REQUIRE(net);
  CHECK(net->contains(addr("10.1.255.7")));
  CHECK_FALSE(net->contains(addr("10.2.0.1")));
  CHECK_FALSE(net->contains(addr("::ffff:10.1.0.1")));  // families differ; policies also unmap
  auto odd_prefix = parse_cidr("172.16.0.0/12");
  REQUIRE(odd_prefix);
  CHECK(odd_prefix->contains(addr("172.31.255.255")));
  CHECK_FALSE(odd_prefix->contains(addr("172.32.0.0")));
  auto single = parse_cidr("192.0.2.7");
  REQUIRE(single);
  CHECK(single->prefix == 32);
  CHECK(single->contains(addr("192.0.2.7")));
  CHECK_FALSE(single->contains(addr("192.0.2.8")));
  auto v6 = parse_cidr("fd00:ab::/32");
  REQUIRE(v6);
  CHECK(v6->contains(addr("fd00:ab:1::5")));
  CHECK_FALSE(v6->contains(addr("fd00:ac::5")));
  auto everything = parse_cidr("0.0.0.0/0");
  REQUIRE(everything);
  CHECK(everything->contains(addr("8.8.8.8")));
  CHECK_FALSE(everything->contains(addr("::1")));
  for (const char* bad : {"10.1.2.3/16", "10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/-1",
                          "10.0.0.0/+8", "10.0.0.0/8x", "0x0a000000/8", "10/8", "", "/8"})
    CHECK_MESSAGE(!parse_cidr(bad), bad);
}

TEST_CASE("special-purpose IPv4 ranges are named, public addresses are not") {
  CHECK(reason("127.0.0.1") == "endereço de loopback");
  CHECK(reason("127.255.255.254") == "endereço de loopback");
  CHECK(reason("10.20.30.40") == "endereço privado");
  CHECK(reason("172.16.0.1") == "endereço privado");
  CHECK(reason("172.31.255.255") == "endereço privado");
  CHECK(reason("192.168.1.1") == "endereço privado");
  CHECK(reason("169.254.169.254") == "endereço link-local");
  CHECK(reason("0.0.0.0") == "endereço não especificado");
  CHECK(reason("0.1.2.3") == "endereço reservado (rede 0/8)");
  CHECK(reason("100.64.0.1") == "endereço compartilhado (CGNAT)");
  CHECK(reason("100.127.255.255") == "endereço compartilhado (CGNAT)");
  CHECK(reason("224.0.0.251") == "endereço multicast");
  CHECK(reason("255.255.255.255") == "endereço de broadcast");
  CHECK(reason("240.0.0.1") == "endereço reservado");
  CHECK(reason("192.0.2.10") == "endereço de documentação");
  CHECK(reason("198.18.0.1") == "endereço reservado (testes de desempenho)");
  for (const char* pub :
       {"8.8.8.8", "200.160.2.3", "172.15.255.255", "172.32.0.0", "100.63.255.255", "100.128.0.0",
        "169.253.0.1", "192.169.0.1", "223.255.255.255", "1.1.1.1"})
    CHECK_MESSAGE(!special_purpose(addr(pub)), pub);
}

TEST_CASE("special-purpose IPv6 ranges, and IPv6 forms that carry a special IPv4 address") {
  CHECK(reason("::") == "endereço não especificado");
  CHECK(reason("::1") == "endereço de loopback");
  CHECK(reason("fd00::2") == "endereço privado");
  CHECK(reason("fc12::1") == "endereço privado");
  CHECK(reason("fe80::1") == "endereço link-local");
  CHECK(reason("febf::1") == "endereço link-local");
  CHECK(reason("ff02::1") == "endereço multicast");
  CHECK(reason("2001:db8::1") == "endereço de documentação");
  CHECK(reason("::ffff:127.0.0.1") == "endereço de loopback (IPv4 dentro de IPv6)");
  CHECK(reason("::ffff:169.254.169.254") == "endereço link-local (IPv4 dentro de IPv6)");
  CHECK(reason("::127.0.0.1") == "endereço de loopback (IPv4 dentro de IPv6)");
  CHECK(reason("::8.8.8.8") == "endereço reservado (IPv4-compatível, obsoleto)");
  CHECK(reason("64:ff9b::10.0.0.1") == "endereço privado (IPv4 dentro de IPv6)");
  CHECK(reason("2002:7f00:1::") == "endereço de loopback (IPv4 dentro de IPv6)");
  for (const char* pub : {"2001:4860:4860::8888", "::ffff:8.8.8.8", "64:ff9b::8.8.8.8",
                          "2002:808:808::1", "2800:3f0::1"})
    CHECK_MESSAGE(!special_purpose(addr(pub)), pub);
}
