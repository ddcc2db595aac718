// Work a route does after it has answered: the e-mails of password recovery and of a
// sign-up for an address that already has an account. Done inline, their lookups and
// the SMTP exchange made the answer 3–5 times slower for an address with an account than
// for one without, which told an anonymous caller which addresses exist (the probe's V9).
// One thread, a bounded queue (a flood drops work, logged, instead of piling it up); what
// is still queued when the App stops is dropped.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <ostream>
#include <thread>

namespace cadastre::platform::accounts {

class Outbox {
 public:
  explicit Outbox(std::ostream* log, std::size_t max_queued = 1000);
  ~Outbox();
  Outbox(const Outbox&) = delete;
  Outbox& operator=(const Outbox&) = delete;

  /// Queues `work` (its exceptions are logged, never thrown); dropped when the queue is full.
  void post(std::function<void()> work);

 private:
  void run();

  std::ostream* log_;
  std::size_t max_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::thread worker_;
};

}  // namespace cadastre::platform::accounts
