// Large bodies stream through the gateway: the caller gets the first bytes while the
// destination is still writing, with the destination's length or chunked, intact.
#include <doctest/doctest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>

#include "fixture.hpp"

using namespace cadastre;
using test::Gateway;
using test::with;

namespace {


std::string pattern(std::size_t size) {
  std::string s(size, 'x');
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<char>('a' + (i * 7 + i / 1000) % 26);
  return s;
}

// A one-shot gate the destination waits on until the test opens it.
struct Gate {
  std::mutex m;
  std::condition_variable cv;
  bool open = false;
  void release() {
    std::lock_guard lock(m);
    open = true;
    cv.notify_all();
  }
  bool wait(std::chrono::seconds limit) {
    std::unique_lock lock(m);
    return cv.wait_for(lock, limit, [this] { return open; });
  }
};

}  // namespace

TEST_CASE("a large body with a length reaches the caller intact and with the same Content-Length") {
  test::Destinations d;
  const std::string big = pattern(8u << 20);  // 8 MiB, far over the 256 KiB read-whole threshold
  d.rest.on([&big](const httplib::Request&, httplib::Response& res) { res.set_content(big, "application/octet-stream"); });
  Gateway gw(test::config_for(d));
  auto cli = gw.client();
  auto r = cli.Get("/rest/arquivo/", test::alfa_auth());
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->get_header_value("Content-Length") == std::to_string(big.size()));
  CHECK(r->get_header_value("X-Target-URL") == d.rest.url() + "/alfa/arquivo/");
  CHECK(r->body.size() == big.size());
  CHECK(r->body == big);
  // The connection went back to the pool: a second call reuses it and is intact too.
  auto again = cli.Get("/rest/arquivo/", test::alfa_auth());
  REQUIRE(again);
  CHECK(again->body == big);
}

TEST_CASE("the caller receives the first part of a body while the destination is still writing it") {
  test::Destinations d;
  Gate first_part_seen;
  std::atomic<bool> destination_waited_ok{false};
  const std::string part = pattern(512u << 10);
  d.rest.on([&](const httplib::Request&, httplib::Response& res) {
    res.set_chunked_content_provider("application/octet-stream", [&](std::size_t offset, httplib::DataSink& sink) {
      if (offset == 0) {
        sink.write(part.data(), part.size());
        return true;
      }
      // The rest only after the caller has seen the first part through the gateway: a
      // gateway that buffered whole bodies would never let this happen (read time-out).
      destination_waited_ok = first_part_seen.wait(std::chrono::seconds(10));
      sink.write("FIM", 3);
      sink.done();
      return true;
    });
  });
  Gateway gw(test::config_for(d));
  auto cli = gw.client();
  std::string received;
  auto r = cli.Get("/rest/arquivo/", test::alfa_auth(), [&](const char* data, std::size_t n) {
    received.append(data, n);
    if (received.size() >= part.size()) first_part_seen.release();
    return true;
  });
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(destination_waited_ok);
  CHECK(received == part + "FIM");
  CHECK(r->get_header_value("Transfer-Encoding") == "chunked");  // no length was announced
}

TEST_CASE("a destination that breaks off mid-body closes the caller's connection instead of a short answer") {
  test::Destinations d;
  const std::string part = pattern(600u << 10);
  d.rest.on([&](const httplib::Request&, httplib::Response& res) {
    // Announces 2 MiB, sends 600 KiB, then fails: cpp-httplib closes the connection.
    res.set_content_provider(2u << 20, "application/octet-stream", [&](std::size_t offset, std::size_t, httplib::DataSink& sink) {
      if (offset > 0) return false;
      sink.write(part.data(), part.size());
      return true;
    });
  });
  Gateway gw(test::config_for(d));
  auto cli = gw.client();
  auto r = cli.Get("/rest/arquivo/", test::alfa_auth());
  // The status line was already sent, so the caller sees a truncated body as a failed read.
  CHECK_FALSE(r);
  // The gateway is fine afterwards: the next call is answered normally.
  d.rest.on([](const httplib::Request&, httplib::Response& res) { res.set_content("{\"ok\":true}", "application/json"); });
  auto next = cli.Get("/rest/lote/", test::alfa_auth());
  REQUIRE(next);
  CHECK(next->status == 200);
  CHECK(next->body == "{\"ok\":true}");
}

TEST_CASE("an encoded body crosses as it is, with its Content-Encoding, read whole or streamed") {
  test::Destinations d;
  const std::string small = std::string("\x1f\x8b\x08\x00", 4) + pattern(1000);
  const std::string large = pattern(1u << 20);  // over upstream.inline_body_kb: streamed
  d.rest.on([&](const httplib::Request& req, httplib::Response& res) {
    res.set_header("Content-Encoding", req.path.find("grande") != std::string::npos ? "br" : "gzip");
    // A type cpp-httplib does not compress itself, so the bytes are exactly these.
    res.set_content(req.path.find("grande") != std::string::npos ? large : small, "application/octet-stream");
  });
  Gateway gw(test::config_for(d));
  auto cli = gw.client();
  cli.set_decompress(false);  // compare the bytes on the wire
  auto r = cli.Get("/rest/lote/", with(test::alfa_auth(), {{"Accept-Encoding", "gzip"}}));
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(d.rest.last().header("Accept-Encoding") == "gzip");
  CHECK(r->get_header_value("Content-Encoding") == "gzip");
  CHECK(r->get_header_value("Content-Length") == std::to_string(small.size()));
  CHECK(r->body == small);
  auto big = cli.Get("/rest/grande/", with(test::alfa_auth(), {{"Accept-Encoding", "br"}}));
  REQUIRE(big);
  CHECK(big->get_header_value("Content-Encoding") == "br");
  CHECK(big->get_header_value("Content-Length") == std::to_string(large.size()));
  CHECK(big->body == large);
}
