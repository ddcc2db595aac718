// The circuit breaker state machine, driven by a fake clock.
#include <doctest/doctest.h>

#include "gateway/breaker.hpp"
#include "gateway/breakers.hpp"

using namespace cadastre::gateway;
using namespace std::chrono_literals;

namespace {
struct FakeClock {
  std::chrono::steady_clock::time_point now{std::chrono::seconds(1000)};
  CircuitBreaker::Clock fn() {
    return [this] { return now; };
  }
};

BreakerSettings small() {
  BreakerSettings s;
  s.failure_rate_threshold = 50;
  s.sliding_window = 10s;
  s.minimum_calls = 4;
  s.wait_in_open = 100ms;
  s.half_open_calls = 2;
  s.max_wait_in_half_open = 500ms;
  return s;
}

void call(CircuitBreaker& b, bool success) {
  auto p = b.acquire();
  REQUIRE(p.allowed);
  b.record(p, success);
}

void calls(CircuitBreaker& b, int n, bool success) {
  for (int i = 0; i < n; ++i) call(b, success);
}
}  // namespace

TEST_CASE("a closed breaker stays closed until the minimum number of calls is reached") {
  FakeClock clock;
  CircuitBreaker b(small(), clock.fn());
  call(b, false);
  call(b, false);
  call(b, false);
  CHECK(b.state() == BreakerState::closed);  // 3 failures of 3 calls, but fewer than minimum_calls
  call(b, true);                              // 4 calls, 75% failed ≥ 50%
  CHECK(b.state() == BreakerState::open);
  CHECK(b.snapshot().opened == 1);
}

TEST_CASE("a failure rate below the threshold keeps the breaker closed, and the window slides") {
  FakeClock clock;
  CircuitBreaker b(small(), clock.fn());
  calls(b, 3, true);  // second 0
  clock.now += 5s;
  call(b, false);  // second 5: 1 of 4 failed, 25%
  CHECK(b.state() == BreakerState::closed);
  auto s = b.snapshot();
  CHECK(s.window_calls == 4);
  CHECK(s.window_failures == 1);
  CHECK(s.failure_rate == doctest::Approx(25.0));
  clock.now += 5s;  // second 10: the three successes of second 0 leave the 10 s window
  CHECK(b.snapshot().window_calls == 1);
  call(b, true);
  call(b, true);
  CHECK(b.state() == BreakerState::closed);  // 1 of 3 failed, and fewer than minimum_calls
  call(b, false);                            // 2 of 4 failed: 50%
  CHECK(b.state() == BreakerState::open);
}

TEST_CASE("the default breaker is a 10 s window, at least 20 calls, 50 %") {
  BreakerSettings d;
  CHECK(d.sliding_window == 10s);
  CHECK(d.minimum_calls == 20);
  CHECK(d.failure_rate_threshold == doctest::Approx(50.0));
}

TEST_CASE("25 failures among 5,000 successes in the window keep the breaker closed") {
  // A cold burst: the calls whose SYN was dropped fail together at the connect time-out,
  // after the other connections have had two seconds of successes.
  FakeClock clock;
  CircuitBreaker b(BreakerSettings{}, clock.fn());
  calls(b, 2500, true);
  clock.now += 1s;
  calls(b, 2500, true);
  clock.now += 1s;
  calls(b, 25, false);
  CHECK(b.state() == BreakerState::closed);
  auto s = b.snapshot();
  CHECK(s.window_calls == 5025);
  CHECK(s.window_failures == 25);
  CHECK(s.failure_rate == doctest::Approx(100.0 * 25 / 5025));  // ≈ 0.5%
  CHECK(s.opened == 0);
}

TEST_CASE("failures below minimum_calls never open the breaker, even when every call failed") {
  FakeClock clock;
  CircuitBreaker b(BreakerSettings{}, clock.fn());
  calls(b, 19, false);
  CHECK(b.state() == BreakerState::closed);
  CHECK(b.snapshot().failure_rate == doctest::Approx(100.0));
  clock.now += 10s;  // those 19 have left the window: 19 more are again too few
  calls(b, 19, false);
  CHECK(b.state() == BreakerState::closed);
  CHECK(b.snapshot().window_calls == 19);
  CHECK(b.snapshot().failures == 38);
}

TEST_CASE("50 % failures over the window with enough calls opens the breaker") {
  FakeClock clock;
  CircuitBreaker b(BreakerSettings{}, clock.fn());
  for (int second = 0; second < 5; ++second, clock.now += 1s) calls(b, 2, true);   // seconds 0-4
  for (int second = 5; second < 9; ++second, clock.now += 1s) calls(b, 2, false);  // seconds 5-8
  clock.now += 500ms;                                                              // 9.5 s
  call(b, false);  // 19 calls, 9 failed: below the minimum
  CHECK(b.state() == BreakerState::closed);
  CHECK(b.snapshot().window_calls == 19);
  call(b, false);  // 20 calls over ten buckets, 10 failed: 50%
  CHECK(b.state() == BreakerState::open);
  CHECK(b.snapshot().opened == 1);
}

TEST_CASE("a failure rate just below the threshold with enough calls keeps the breaker closed") {
  FakeClock clock;
  CircuitBreaker b(BreakerSettings{}, clock.fn());
  calls(b, 11, true);
  calls(b, 10, false);  // 10 of 21: 47.6%
  CHECK(b.state() == BreakerState::closed);
  call(b, false);  // 11 of 22: 50%
  CHECK(b.state() == BreakerState::open);
}

TEST_CASE("outcomes older than the window no longer count") {
  FakeClock clock;
  CircuitBreaker b(BreakerSettings{}, clock.fn());
  calls(b, 15, false);  // second 0
  clock.now += 9999ms;  // still second 9: the window is seconds 0-9
  CHECK(b.snapshot().window_calls == 15);
  clock.now += 1ms;  // second 10: second 0 is out
  auto s = b.snapshot();
  CHECK(s.window_calls == 0);
  CHECK(s.window_failures == 0);
  CHECK(s.failure_rate == doctest::Approx(0.0));
  calls(b, 15, false);  // 15 failed calls in the window, not 30: still too few
  CHECK(b.state() == BreakerState::closed);
  clock.now += 1h;  // a long quiet spell empties the window as well
  CHECK(b.snapshot().window_calls == 0);
}

TEST_CASE("an open breaker refuses calls with the time left, then half-opens after the wait") {
  FakeClock clock;
  CircuitBreaker b(small(), clock.fn());
  for (int i = 0; i < 4; ++i) call(b, false);
  REQUIRE(b.state() == BreakerState::open);
  clock.now += 30ms;
  auto refused = b.acquire();
  CHECK_FALSE(refused.allowed);
  CHECK(refused.retry_after == 70ms);
  CHECK(b.snapshot().rejected == 1);
  clock.now += 70ms;
  CHECK(b.state() == BreakerState::half_open);
}

TEST_CASE("half-open lets only the trial calls through and closes when they all succeed") {
  FakeClock clock;
  CircuitBreaker b(small(), clock.fn());
  for (int i = 0; i < 4; ++i) call(b, false);
  clock.now += 100ms;
  auto t1 = b.acquire();
  auto t2 = b.acquire();
  auto extra = b.acquire();
  CHECK(t1.allowed);
  CHECK(t2.allowed);
  CHECK_FALSE(extra.allowed);
  b.record(t1, true);
  CHECK(b.state() == BreakerState::half_open);
  b.record(t2, true);
  CHECK(b.state() == BreakerState::closed);
  CHECK(b.snapshot().window_calls == 0);  // a new CLOSED period starts with an empty window
}

TEST_CASE("a failed trial reopens the breaker at once") {
  FakeClock clock;
  CircuitBreaker b(small(), clock.fn());
  for (int i = 0; i < 4; ++i) call(b, false);
  clock.now += 100ms;
  auto t1 = b.acquire();
  b.record(t1, false);
  CHECK(b.state() == BreakerState::open);
  CHECK(b.snapshot().opened == 2);
  CHECK_FALSE(b.acquire().allowed);
}

TEST_CASE("a hung trial cannot keep the breaker half-open past the maximum wait") {
  FakeClock clock;
  CircuitBreaker b(small(), clock.fn());
  for (int i = 0; i < 4; ++i) call(b, false);
  clock.now += 100ms;
  auto hung = b.acquire();
  REQUIRE(hung.allowed);
  REQUIRE(b.state() == BreakerState::half_open);
  clock.now += 500ms;
  CHECK(b.state() == BreakerState::open);
  b.record(hung, true);  // reported after the state moved on: ignored by the state machine
  CHECK(b.state() == BreakerState::open);
  CHECK(b.snapshot().successes == 1);
  clock.now += 100ms;  // and the cycle can start again
  CHECK(b.state() == BreakerState::half_open);
}

TEST_CASE("a slow call admitted while closed does not count after the breaker opened") {
  FakeClock clock;
  CircuitBreaker b(small(), clock.fn());
  auto slow = b.acquire();
  for (int i = 0; i < 4; ++i) call(b, false);
  REQUIRE(b.state() == BreakerState::open);
  clock.now += 100ms;
  REQUIRE(b.state() == BreakerState::half_open);
  b.record(slow, true);  // not a trial: must not close the breaker
  CHECK(b.state() == BreakerState::half_open);
}

TEST_CASE("impossible settings are refused") {
  BreakerSettings s = small();
  s.sliding_window = 0s;
  CHECK_THROWS_AS(s.validate(), std::invalid_argument);
  s.sliding_window = BreakerSettings::kMaxSlidingWindow + 1s;  // one bucket per second
  CHECK_THROWS_AS(s.validate(), std::invalid_argument);
  s = small();
  s.minimum_calls = 0;
  CHECK_THROWS_AS(s.validate(), std::invalid_argument);
  s = small();
  s.failure_rate_threshold = 0;
  CHECK_THROWS_AS(s.validate(), std::invalid_argument);
  s = small();
  s.half_open_calls = 0;
  CHECK_THROWS_AS(s.validate(), std::invalid_argument);
}

TEST_CASE("the registry keeps one independent breaker per destination host under each name") {
  FakeClock clock;
  BreakerPolicy p;
  p.settings = small();
  Breakers reg({{"rest", p}, {"tiles", p}}, clock.fn());
  auto& alfa = reg.get("rest", "http://alfa:8080");
  for (int i = 0; i < 4; ++i) call(alfa, false);
  CHECK(reg.get("rest", "http://alfa:8080").state() == BreakerState::open);
  CHECK(reg.get("rest", "http://beta:8080").state() == BreakerState::closed);
  CHECK(reg.get("tiles", "http://alfa:8080").state() == BreakerState::closed);
  CHECK(&reg.get("rest", "http://alfa:8080") == &alfa);
  CHECK_THROWS_AS(reg.get("auth", "x"), std::out_of_range);
  auto snap = reg.snapshot();
  REQUIRE(snap.size() == 3);
  CHECK(snap[0].name == "rest");
  CHECK(snap[0].host == "http://alfa:8080");
  CHECK(snap[0].snapshot.state == BreakerState::open);
  CHECK(reg.is_failure_status("rest", 503));
  CHECK_FALSE(reg.is_failure_status("rest", 404));
  CHECK(state_name(BreakerState::half_open) == "HALF_OPEN");
}
