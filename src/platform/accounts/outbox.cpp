#include "platform/accounts/outbox.hpp"

#include <exception>
#include <iostream>

namespace cadastre::platform::accounts {

Outbox::Outbox(std::ostream* log, std::size_t max_queued)
    : log_(log ? log : &std::cerr), max_(max_queued), worker_([this] { run(); }) {}

Outbox::~Outbox() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  worker_.join();
}

void Outbox::post(std::function<void()> work) {
  {
    std::lock_guard lock(mutex_);
    if (queue_.size() >= max_) {
      *log_ << "{\"level\":\"warn\",\"message\":\"fila de e-mails cheia: mensagem descartada\"}\n";
      return;
    }
    queue_.push_back(std::move(work));
  }
  wake_.notify_one();
}

void Outbox::run() {
  for (;;) {
    std::function<void()> work;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      work = std::move(queue_.front());
      queue_.pop_front();
    }
    try {
      work();
    } catch (const std::exception& e) {
      *log_ << "{\"level\":\"error\",\"message\":\"e-mail não enviado\",\"error\":\"" << e.what() << "\"}\n";
    }
  }
}

}  // namespace cadastre::platform::accounts
