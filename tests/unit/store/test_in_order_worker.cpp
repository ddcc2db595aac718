// The worker that store::fetch_text_batches hands each batch to (store/in_order_worker.hpp).
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "store/in_order_worker.hpp"

using cadastre::store::InOrderWorker;

TEST_CASE("the worker takes every batch in the order given, on a thread other than the giver's") {
  std::vector<int> seen;
  std::atomic<bool> other_thread{true};
  const auto giver = std::this_thread::get_id();
  InOrderWorker<int> worker([&](int& n) {
    if (std::this_thread::get_id() == giver) other_thread = false;
    if (n % 7 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));  // a slow batch now and then
    seen.push_back(n);
  });
  for (int i = 0; i < 200; ++i) worker.give(i);
  worker.finish();  // every batch given is done when it returns
  REQUIRE(seen.size() == 200);
  for (int i = 0; i < 200; ++i) CHECK(seen[i] == i);
  CHECK(other_thread);
}

TEST_CASE("the worker holds at most one batch waiting while it works on another") {
  std::atomic<int> started{0};
  std::atomic<bool> release{false};
  InOrderWorker<int> worker([&](int&) {
    ++started;
    while (!release) std::this_thread::yield();
  });
  worker.give(1);  // taken at once
  while (started == 0) std::this_thread::yield();
  worker.give(2);  // waits in the worker's one place
  std::atomic<bool> third_given{false};
  std::thread giver([&] {
    worker.give(3);  // no place until the worker takes 2
    third_given = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK_FALSE(third_given);
  release = true;
  giver.join();
  worker.finish();
  CHECK(started == 3);
}

TEST_CASE("what the work throws reaches the giver, and later batches are not worked on") {
  std::vector<int> seen;
  InOrderWorker<int> worker([&](int& n) {
    if (n == 3) throw std::runtime_error("lote 3 falhou");
    seen.push_back(n);
  });
  bool thrown = false;
  try {
    for (int i = 0; i < 10; ++i) worker.give(i);
    worker.finish();
  } catch (const std::runtime_error& e) {
    thrown = std::string(e.what()) == "lote 3 falhou";
  }
  CHECK(thrown);
  CHECK(seen == std::vector<int>{0, 1, 2});
  CHECK_THROWS_AS(worker.finish(), std::runtime_error);  // and again, for whoever asks next
}

TEST_CASE("a worker destroyed before finish stops after the batch in hand") {
  std::atomic<int> done{0};
  {
    InOrderWorker<int> worker([&](int&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      ++done;
    });
    worker.give(1);
    worker.give(2);
  }  // joins: no work runs after this
  const int at_exit = done;
  CHECK(at_exit >= 1);
  CHECK(at_exit <= 2);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(done == at_exit);
}
