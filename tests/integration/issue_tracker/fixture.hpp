// Shared by the /aplicativo/criar-issue-externo tests: one stack (alfa with a small demo
// city and a tracker configured, beta without a tracker) and a tracker on loopback that
// behaves like a real one: it creates one issue per Idempotency-Key and answers its id
// and link (a repeated key gets the same issue back).
#pragma once

#include <doctest/doctest.h>

#include <map>
#include <string>

#include "integration/integracao/loopback_service.hpp"
#include "support/server_fixture.hpp"

namespace tracker_test {

using cadastre::test::Stack;
using outbound_test::LoopbackService;

constexpr const char* kTrackerToken = "token-do-rastreador";

class Tracker {
 public:
  Tracker() { behave(); }
  /// Back to the normal behaviour: one issue per key, 201 {"id", "html_url"}.
  void behave() {
    service.on([this](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard lock(mutex_);
      std::string key = req.get_header_value("Idempotency-Key");
      auto [it, added] = issues_.emplace(key, static_cast<int>(issues_.size()) + 100);
      res.status = added ? 201 : 200;
      res.set_content(R"({"id": )" + std::to_string(it->second) + R"(, "html_url": "https://rastreador.test/issues/)" +
                          std::to_string(it->second) + R"("})",
                      "application/json");
    });
  }
  /// Issues created (distinct keys).
  std::size_t issues() {
    std::lock_guard lock(mutex_);
    return issues_.size();
  }
  LoopbackService service;

 private:
  std::mutex mutex_;
  std::map<std::string, int> issues_;
};

/// The binary's environment: its own stack and the tracker; the request and database
/// helpers are ServerFixture's (tenant alfa).
struct Env : cadastre::test::ServerFixture {
  Tracker tracker;
  Env() : ServerFixture(std::make_unique<Stack>(std::vector<std::string>{"alfa", "beta"})) {
    stack().load_demo("alfa", 30);
    REQUIRE(platform_db(
                R"(update plataforma.tenants set config = config || '{"rastreador": {"url": ")" +
                tracker.service.url() + R"(/api/issues", "token": ")" + kTrackerToken +
                R"(", "timeout_ms": 800}}'::jsonb where slug = 'alfa' returning 1)") == "1");
    stack().app().identity().reload();
  }
  /// Pending issues are retried by every call: tests start with none.
  void settle() {
    db("update atendimento.issue_externo set status = 'falhou' where status = 'pendente' returning 1");
    tracker.behave();
    tracker.service.clear();
  }
};

inline Env& env() {
  static Env e;
  e.settle();
  return e;
}

inline std::unique_ptr<cadastre::test::Answer> create(Env& e, const std::string& body, const std::string& token = "",
                                                      const std::string& slug = "alfa") {
  return e.post("/aplicativo/criar-issue-externo", body, token.empty() ? e.token(slug) : token);
}

}  // namespace tracker_test
