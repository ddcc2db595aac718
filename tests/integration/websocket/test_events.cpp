// The per-tenant event bus (src/service/events.*), without sockets: who receives what, and
// what a subscription's end guarantees while other threads publish.
#include <doctest/doctest.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "service/events.hpp"

using cadastre::service::Event;
using cadastre::service::EventBus;
using namespace std::chrono_literals;

namespace {

// What one subscriber received, from any thread.
struct Inbox {
  std::mutex mutex;
  std::vector<std::string> got;
  std::function<void(const Event&)> deliver() {
    return [this](const Event& e) {
      std::lock_guard lock(mutex);
      got.push_back(e.json);
    };
  }
  std::vector<std::string> all() {
    std::lock_guard lock(mutex);
    return got;
  }
};

Event event(std::string json, std::int64_t session = 0) {
  return {"geometria_alterada", std::move(json), session};
}

}  // namespace

TEST_CASE("a tenant's events reach its subscribers only") {
  EventBus bus;
  Inbox a1, a2, b;
  auto s1 = bus.subscribe(1, a1.deliver());
  auto s2 = bus.subscribe(1, a2.deliver());
  auto s3 = bus.subscribe(2, b.deliver());
  bus.publish(1, event("um"));
  bus.publish(2, event("dois"));
  bus.publish(3, event("ninguém"));
  CHECK(a1.all() == std::vector<std::string>{"um"});
  CHECK(a2.all() == std::vector<std::string>{"um"});
  CHECK(b.all() == std::vector<std::string>{"dois"});
  CHECK(bus.subscribers(1) == 2);
  CHECK(bus.subscribers(3) == 0);
}

TEST_CASE("an event for one session reaches that session and the tenant-wide subscribers") {
  EventBus bus;
  Inbox s10, s11, all;
  auto a = bus.subscribe(1, s10.deliver(), 10);
  auto b = bus.subscribe(1, s11.deliver(), 11);
  auto c = bus.subscribe(1, all.deliver());
  bus.publish(1, event("revogada 10", 10));
  bus.publish(1, event("para todos"));
  CHECK(s10.all() == std::vector<std::string>{"revogada 10", "para todos"});
  CHECK(s11.all() == std::vector<std::string>{"para todos"});
  CHECK(all.all() == std::vector<std::string>{"revogada 10", "para todos"});
}

TEST_CASE("a subscription ends when destroyed, cancelled or moved over, and may outlive the bus") {
  auto bus = std::make_unique<EventBus>();
  Inbox in;
  { auto gone = bus->subscribe(1, in.deliver()); }
  auto cancelled = bus->subscribe(1, in.deliver());
  cancelled.cancel();
  CHECK_FALSE(cancelled.active());
  auto replaced = bus->subscribe(1, in.deliver());
  replaced = bus->subscribe(2, in.deliver());  // the first one ends here
  CHECK(bus->subscribers(1) == 0);
  CHECK(bus->subscribers(2) == 1);
  bus->publish(1, event("perdido"));
  CHECK(in.all().empty());

  EventBus::Subscription moved = std::move(replaced);
  CHECK(moved.active());
  CHECK_FALSE(replaced.active());
  bus.reset();
  moved.cancel();  // the bus is gone: nothing to do, nothing to crash
  CHECK_FALSE(moved.active());
}

TEST_CASE("a deliver may end its own subscription; a throwing one does not deprive the others") {
  EventBus bus;
  Inbox after;
  auto own = std::make_shared<EventBus::Subscription>();
  int calls = 0;
  *own = bus.subscribe(1, [&](const Event&) {
    ++calls;
    own->cancel();
  });
  auto thrower = bus.subscribe(1, [](const Event&) { throw std::runtime_error("quebrado"); });
  auto s = bus.subscribe(1, after.deliver());
  bus.publish(1, event("a"));
  bus.publish(1, event("b"));
  CHECK(calls == 1);
  CHECK(after.all() == std::vector<std::string>{"a", "b"});
  CHECK(bus.subscribers(1) == 2);
}

TEST_CASE("cancel() waits for a delivery under way on another thread, then none follows") {
  EventBus bus;
  std::atomic<bool> delivering{false}, finished{false};
  std::atomic<int> calls{0};
  auto sub = bus.subscribe(1, [&](const Event&) {
    ++calls;
    delivering = true;
    std::this_thread::sleep_for(200ms);
    finished = true;
  });
  std::thread publisher([&bus] { bus.publish(1, event("lento")); });
  while (!delivering) std::this_thread::yield();
  sub.cancel();
  CHECK(finished);  // cancel() returned only once the delivery had
  publisher.join();
  bus.publish(1, event("depois"));
  CHECK(calls == 1);
}

TEST_CASE("publishing while subscriptions come and go on other threads") {
  EventBus bus;
  std::atomic<bool> stop{false};
  std::atomic<long> delivered{0};
  std::vector<std::thread> churn;
  for (int t = 0; t < 3; ++t)
    churn.emplace_back([&] {
      while (!stop) {
        auto s = bus.subscribe(1, [&](const Event&) { ++delivered; });
        std::this_thread::yield();
      }
    });
  Inbox steady;
  auto kept = bus.subscribe(1, steady.deliver());
  for (int i = 0; i < 20000; ++i) bus.publish(1, event(std::to_string(i)));
  stop = true;
  for (auto& t : churn) t.join();
  CHECK(steady.all().size() == 20000);
  CHECK(bus.subscribers(1) == 1);
}
