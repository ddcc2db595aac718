// The provider token cache: issuer answers, lifetimes, single fetch, refresh.
#include <doctest/doctest.h>

#include "gateway/provider_token.hpp"

using namespace cadastre::gateway;
using namespace std::chrono_literals;

TEST_CASE("issuer answers: OAuth 2 access_token/expires_in and ArcGIS token/expires") {
  auto oauth = parse_token_answer(R"({"access_token":"abc","token_type":"bearer","expires_in":3600})", 0);
  CHECK(oauth.token == "abc");
  CHECK(oauth.lifetime == std::chrono::milliseconds(3600000));
  auto arcgis = parse_token_answer(R"({"token":"xyz","expires":1700000060000,"ssl":false})", 1700000000000);
  CHECK(arcgis.token == "xyz");
  CHECK(arcgis.lifetime == std::chrono::milliseconds(60000));
  auto forever = parse_token_answer(R"({"access_token":"t"})", 0);
  CHECK_FALSE(forever.lifetime.has_value());
  CHECK_THROWS_AS(parse_token_answer(R"({"error":"invalid_client"})", 0), std::runtime_error);
  CHECK_THROWS_AS(parse_token_answer("<html>", 0), std::runtime_error);
}

TEST_CASE("a token is kept for its lifetime minus the margin, never beyond max_ttl") {
  ProviderTokenConfig c;
  c.max_ttl = 3600s;
  c.refresh_margin = 30s;
  CHECK(token_keep_time(c, std::chrono::milliseconds(600s)) == 570s);
  CHECK(token_keep_time(c, std::chrono::milliseconds(7200s)) == 3600s);
  CHECK(token_keep_time(c, std::nullopt) == 3600s);
  CHECK(token_keep_time(c, std::chrono::milliseconds(10s)) == 0s);
}

TEST_CASE("the token is fetched once, reused, and fetched again after it expires") {
  auto now = std::chrono::steady_clock::time_point(1000s);
  int fetches = 0;
  ProviderTokenConfig c;
  c.max_ttl = 60s;
  c.refresh_margin = 0s;
  ProviderToken t(
      c, [&] { return FetchedToken{"tok-" + std::to_string(++fetches), std::chrono::milliseconds(120s)}; },
      [&] { return now; });
  CHECK(t.get() == "tok-1");
  now += 59s;
  CHECK(t.get() == "tok-1");
  CHECK(t.fetches() == 1);
  now += 1s;
  CHECK(t.get() == "tok-2");
  CHECK(t.fetches() == 2);
}

TEST_CASE("a refused token is replaced, but only if nobody replaced it already") {
  int fetches = 0;
  ProviderToken t(ProviderTokenConfig{}, [&] { return FetchedToken{"tok-" + std::to_string(++fetches), std::nullopt}; });
  CHECK(t.get() == "tok-1");
  t.invalidate("tok-0");  // stale report: the current token stays
  CHECK(t.get() == "tok-1");
  t.invalidate("tok-1");
  CHECK(t.get() == "tok-2");
}

TEST_CASE("a failed fetch leaves no token behind and is tried again next time") {
  int calls = 0;
  ProviderToken t(ProviderTokenConfig{}, [&]() -> FetchedToken {
    if (++calls == 1) throw std::runtime_error("emissor fora do ar");
    return {"tok", std::nullopt};
  });
  CHECK_THROWS_AS(t.get(), std::runtime_error);
  CHECK(t.get() == "tok");
  CHECK(t.fetches() == 1);
}
