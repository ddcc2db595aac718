#include "gateway/provider_token.hpp"

#include <simdjson.h>

#include <stdexcept>

#include "gateway/url.hpp"

namespace cadastre::gateway {

FetchedToken parse_token_answer(std::string_view json, std::int64_t now_epoch_ms) {
  simdjson::dom::parser parser;
  simdjson::dom::object o;
  if (parser.parse(json.data(), json.size(), true).get(o))
    throw std::runtime_error("resposta do emissor de tokens não é um objeto JSON");
  FetchedToken t;
  std::string_view token;
  if (!o["access_token"].get(token) || !o["token"].get(token)) t.token = std::string(token);
  if (t.token.empty()) throw std::runtime_error("resposta do emissor de tokens sem access_token");
  double number = 0;
  std::int64_t integer = 0;
  if (!o["expires_in"].get(integer)) {
    t.lifetime = std::chrono::seconds(integer);
  } else if (!o["expires_in"].get(number)) {
    t.lifetime = std::chrono::milliseconds(static_cast<std::int64_t>(number * 1000));
  } else if (!o["expires"].get(integer)) {
    t.lifetime = std::chrono::milliseconds(integer - now_epoch_ms);
  }
  return t;
}

std::chrono::milliseconds token_keep_time(const ProviderTokenConfig& cfg, std::optional<std::chrono::milliseconds> stated) {
  auto keep = cfg.max_ttl;
  if (stated) keep = std::min(keep, *stated - cfg.refresh_margin);
  return keep.count() > 0 ? keep : std::chrono::milliseconds(0);
}

ProviderToken::ProviderToken(ProviderTokenConfig cfg, Fetch fetch, Clock clock)
    : cfg_(std::move(cfg)), fetch_(std::move(fetch)), clock_(std::move(clock)) {}

std::string ProviderToken::get() {
  std::lock_guard lock(mutex_);
  auto now = clock_();
  if (!token_.empty() && now < expires_) return token_;
  token_.clear();
  FetchedToken fresh = fetch_();
  ++fetches_;
  token_ = std::move(fresh.token);
  expires_ = clock_() + token_keep_time(cfg_, fresh.lifetime);
  return token_;
}

void ProviderToken::invalidate(const std::string& rejected) {
  std::lock_guard lock(mutex_);
  if (token_ == rejected) token_.clear();
}

ProviderToken::Fetch client_credentials_fetch(const ProviderTokenConfig& cfg, UpstreamPool& pool) {
  return [cfg, &pool]() -> FetchedToken {
    auto url = parse_url(cfg.token_url);
    if (!url) throw std::runtime_error("endereço do emissor de tokens inválido");
    UpstreamRequest req;
    req.method = "POST";
    req.origin = url->origin();
    req.target = url->target();
    req.headers = {{"Accept", "application/json"}};
    std::vector<std::pair<std::string, std::string>> form = {
        {"grant_type", "client_credentials"}, {"client_id", cfg.client_id}, {"client_secret", cfg.client_secret}};
    if (!cfg.scope.empty()) form.emplace_back("scope", cfg.scope);
    req.body = encode_query(form);
    req.content_type = "application/x-www-form-urlencoded";
    UpstreamResult res = pool.send(req);
    if (res.outcome != UpstreamResult::Outcome::ok)
      throw std::runtime_error("emissor de tokens inacessível: " + res.detail);
    if (res.status != 200) throw std::runtime_error("emissor de tokens respondeu " + std::to_string(res.status));
    auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch());
    return parse_token_answer(res.body, now_ms.count());
  };
}

}  // namespace cadastre::gateway
