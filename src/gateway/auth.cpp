#include "gateway/auth.hpp"

#include <algorithm>
#include <cctype>

#include "store/crypto.hpp"

namespace cadastre::gateway {
namespace {

AuthResult refuse(AuthForm form, std::string message, errc code = errc::unauthenticated) {
  AuthResult r;
  r.form = form;
  r.code = code;
  r.message = std::move(message);
  return r;
}

}  // namespace

Authenticator::Authenticator(store::Identity& identity, store::IntranetUsers& intranet, const JwtVerifier& jwt,
                             Breakers& breakers, std::string store_host, std::chrono::milliseconds cache_ttl)
    : identity_(identity),
      intranet_(intranet),
      jwt_(jwt),
      breakers_(breakers),
      store_host_(std::move(store_host)),
      cache_(cache_ttl) {}

void Authenticator::forget() { cache_.clear(); }

template <class F>
bool Authenticator::guarded(F&& lookup, AuthResult& refusal) {
  CircuitBreaker& breaker = breakers_.get(kBreakerAuth, store_host_);
  auto permit = breaker.acquire();
  if (!permit.allowed) {
    refusal.code = errc::unavailable;
    refusal.message = "base de identidade temporariamente indisponível (circuito auth aberto); tente novamente em instantes";
    return false;
  }
  try {
    lookup();
    breaker.record(permit, true);
    return true;
  } catch (const Error& e) {
    // A refused or malformed credential is an answer; only an unreachable store is a failure.
    bool store_down = e.code() == errc::unavailable || e.code() == errc::internal;
    breaker.record(permit, !store_down);
    refusal.code = store_down ? errc::unavailable : errc::unauthenticated;
    refusal.message = store_down ? "base de identidade indisponível; tente novamente em instantes" : e.what();
    return false;
  } catch (const std::exception&) {
    breaker.record(permit, false);
    refusal.code = errc::unavailable;
    refusal.message = "base de identidade indisponível; tente novamente em instantes";
    return false;
  }
}

AuthResult Authenticator::session(const Credential& c) {
  std::string key = "s:" + store::sha256_hex(c.token);
  std::optional<store::Principal> who = cache_.find(key);
  if (!who) {
    AuthResult refusal = refuse(c.form, "");
    if (!guarded([&] { who = identity_.authenticate(c.token); }, refusal)) return refusal;
    if (!who) return refuse(c.form, "credencial inválida ou expirada");
    cache_.put(key, *who);
  }
  AuthResult r;
  r.form = c.form;
  r.principal = who;
  r.session_token = c.token;
  if (c.tenant_token) {
    auto id = decode_tenant_token(*c.tenant_token);
    if (!id) {
      r.message = "X-Tn-Token inválido: envie o id do município em base64 (ex.: NQ== para 5)";
      return r;
    }
    if (*id != who->tenant_id) {
      r.message = "o município informado em X-Tn-Token não é o da credencial";
      return r;
    }
  }
  r.ok = true;
  return r;
}

AuthResult Authenticator::intranet(const Credential& c) {
  if (!jwt_.enabled()) return refuse(c.form, "login da intranet não habilitado neste gateway");
  JwtClaims claims;
  try {
    claims = jwt_.verify(c.token, unix_now());
  } catch (const JwtError& e) {
    return refuse(c.form, e.what());
  }
  if (claims.tenant.empty()) return refuse(c.form, "token intranet sem o município (claim nome_tenant ou tenant)");
  if (claims.tenant != c.nome_tenant) return refuse(c.form, "o token intranet é de outro município que nome_tenant");
  if (claims.email.empty()) return refuse(c.form, "token intranet sem o usuário (claim email ou sub)");

  std::string key = "j:" + c.nome_tenant + "\n" + http::lower_ascii(claims.email);
  std::optional<store::Principal> who = cache_.find(key);
  if (!who) {
    AuthResult refusal = refuse(c.form, "");
    if (!guarded([&] { who = intranet_.find(claims.email, c.nome_tenant); }, refusal)) return refusal;
    if (!who) return refuse(c.form, "usuário da intranet não cadastrado ou inativo neste município");
    cache_.put(key, *who);
  }
  AuthResult r;
  r.ok = true;
  r.form = c.form;
  r.principal = who;
  r.jwt = c.token;
  return r;
}

AuthResult Authenticator::authenticate(const http::Request& req) {
  Credential c = read_credential(req);
  if (!c.problem.empty()) return refuse(c.form, c.problem);
  return c.form == AuthForm::intranet ? intranet(c) : session(c);
}

const AuthResult& auth_of(const http::Request& req) {
  static const AuthResult missing = refuse(AuthForm::none, "rota sem autenticação do gateway", errc::internal);
  const auto* r = std::any_cast<AuthResult>(&req.auth);
  return r ? *r : missing;
}

}  // namespace cadastre::gateway
