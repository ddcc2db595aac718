// The one base of the integration suites' fixtures: a cadastre-server stack (the binary's,
// shared by every test, or one of the fixture's own), the tenant the tests speak for by
// default, and the helpers every suite needs: requests as that tenant's user and queries
// on its database.
//
// A suite derives its fixture from it, named `Fixture` in the suite's fixture.hpp, and
// writes its tests as TEST_CASE_FIXTURE(Fixture, "..."), or constructs one per test when
// each test needs a fresh stack:
//
//   struct Fixture : ServerFixture {
//     Fixture() : ServerFixture(demo_city(300)) {}
//   };
//   TEST_CASE_FIXTURE(Fixture, "a lot's detail") { CHECK(get("/alfa/lote/1/")->status == 200); }
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <utility>

#include "support/city.hpp"
#include "support/harness.hpp"

namespace cadastre::test {

/// The ids of a comma-separated list (as string_agg gives them).
inline std::set<std::int64_t> id_set(const std::string& csv) {
  std::set<std::int64_t> out;
  std::size_t i = 0;
  while (i < csv.size()) {
    std::size_t j = csv.find(',', i);
    if (j == std::string::npos) j = csv.size();
    if (j > i) out.insert(std::stoll(csv.substr(i, j - i)));
    i = j + 1;
  }
  return out;
}

class ServerFixture {
 public:
  /// Over a stack that outlives the fixture (the binary's shared one).
  explicit ServerFixture(Stack& stack, std::string slug = "alfa")
      : stack_(&stack), slug_(std::move(slug)) {}
  /// Owning a stack of its own, which goes away with the fixture.
  explicit ServerFixture(std::unique_ptr<Stack> stack, std::string slug = "alfa")
      : owned_(std::move(stack)), stack_(owned_.get()), slug_(std::move(slug)) {}

  Stack& stack() const { return *stack_; }
  /// The tenant the helpers speak for unless told otherwise ("alfa").
  const std::string& slug() const { return slug_; }
  /// The token of `slug`'s user (with "*:rw"), by default the default tenant's.
  const std::string& token(const std::string& slug) const { return stack_->user(slug).token; }
  const std::string& token() const { return token(slug_); }

  /// One request with `headers`; the body is sent for POST, PUT and PATCH.
  std::unique_ptr<Answer> request(const std::string& method, const std::string& path,
                                  const httplib::Headers& headers,
                                  const std::string& body = "") const {
    return test::call(*stack_, method, path, headers, body);
  }
  /// One request as the bearer of `token` (no Authorization header when it is empty).
  std::unique_ptr<Answer> call(const std::string& method, const std::string& path,
                               const std::string& body, const std::string& token) const {
    return request(method, path, token.empty() ? httplib::Headers{} : Stack::bearer(token), body);
  }
  /// One request as the default tenant's user.
  std::unique_ptr<Answer> call(const std::string& method, const std::string& path,
                               const std::string& body = "") const {
    return call(method, path, body, token());
  }

  std::unique_ptr<Answer> get(const std::string& path) const {
    return call("GET", path, "", token());
  }
  std::unique_ptr<Answer> get(const std::string& path, const std::string& token) const {
    return call("GET", path, "", token);
  }
  std::unique_ptr<Answer> post(const std::string& path, const std::string& body) const {
    return call("POST", path, body, token());
  }
  std::unique_ptr<Answer> post(const std::string& path, const std::string& body,
                               const std::string& token) const {
    return call("POST", path, body, token);
  }
  std::unique_ptr<Answer> put(const std::string& path, const std::string& body) const {
    return call("PUT", path, body, token());
  }
  std::unique_ptr<Answer> put(const std::string& path, const std::string& body,
                              const std::string& token) const {
    return call("PUT", path, body, token);
  }
  std::unique_ptr<Answer> del(const std::string& path) const {
    return call("DELETE", path, "", token());
  }
  std::unique_ptr<Answer> del(const std::string& path, const std::string& token) const {
    return call("DELETE", path, "", token);
  }

  /// The first column of the first row of `sql` on the default tenant's database ("" if none).
  std::string db(const std::string& sql) const { return db(sql, slug_); }
  /// The same on the database of tenant `slug`.
  std::string db(const std::string& sql, const std::string& slug) const {
    return query_value(stack_->tenant_dsn(slug), sql);
  }
  std::int64_t db_int(const std::string& sql) const { return std::stoll(db(sql)); }
  double db_number(const std::string& sql) const { return std::stod(db(sql)); }
  /// The same on the platform database.
  std::string platform_db(const std::string& sql) const {
    return query_value(stack_->platform_dsn(), sql);
  }

 private:
  std::unique_ptr<Stack> owned_;
  Stack* stack_;
  std::string slug_;
};

}  // namespace cadastre::test
