#include "server/provas/auth.hpp"

#include <strings.h>

#include <memory>

#include "cadastre/error.hpp"
#include "store/crypto.hpp"
#include "text/text.hpp"

namespace cadastre::server {
namespace {

/// A refused credential, kept in Request::auth until basic_handler() answers it.
struct BasicRefusal {
  std::string message;
  long long retry_after = 0;  ///< > 0: 429, the user or the address must wait
};

constexpr const char* kScope = "provas_digitais";

// The user and password of `Authorization: Basic base64(user:password)`, or the reason
// they cannot be read.
std::pair<std::string, std::string> basic_credentials(const http::Request& req) {
  const std::string* h = req.header("Authorization");
  if (!h) throw BasicRefusal{"credencial ausente: envie Authorization: Basic base64(usuario:senha)"};
  if (h->size() < 6 || strncasecmp(h->data(), "Basic ", 6) != 0)
    throw BasicRefusal{"estas rotas usam autenticação Basic: envie Authorization: Basic base64(usuario:senha)"};
  std::string encoded = h->substr(6);
  while (!encoded.empty() && encoded.front() == ' ') encoded.erase(0, 1);
  while (!encoded.empty() && encoded.back() == ' ') encoded.pop_back();
  std::string decoded;
  try {
    decoded = store::base64_decode(encoded);
  } catch (const Error&) {
    throw BasicRefusal{"credencial Basic mal formada (base64 inválido)"};
  }
  auto colon = decoded.find(':');
  if (colon == std::string::npos) throw BasicRefusal{"credencial Basic mal formada: esperado usuario:senha"};
  return {decoded.substr(0, colon), decoded.substr(colon + 1)};
}

void authenticate(App& app, store::ApiClients& clients, http::Request& req) {
  try {
    auto [user, password] = basic_credentials(req);
    auto client = clients.recently_proved(user, password, kScope);
    if (!client) {
      // A password check like any login: the same throttle (store/secret_checks.hpp).
      const store::Attempt who{"basic:" + text::fold_identifier(user), req.remote_addr};
      if (long long wait = app.secret_checks().wait(who); wait > 0)
        throw BasicRefusal{"muitas tentativas; tente de novo mais tarde", wait};
      client = clients.authenticate_basic(user, password, kScope);
      if (!client) {
        app.secret_checks().failed(who);
        throw BasicRefusal{"usuário ou senha inválidos"};
      }
      app.secret_checks().succeeded(who);
    }
    auto tenant = app.tenancy().active(client->tenant_slug);
    if (!tenant) throw BasicRefusal{"o município da credencial está inativo"};
    ProvasContext ctx;
    ctx.client = std::move(*client);
    ctx.tenant = std::move(*tenant);
    ctx.db = &app.tenancy().pool(ctx.tenant);
    ctx.auditor.email = "cliente-api:" + ctx.client.usuario;
    ctx.auditor.nome = ctx.client.nome;
    ctx.auditor.tenant_id = ctx.tenant.id;
    ctx.auditor.tenant_slug = ctx.tenant.slug;
    req.tenant = ctx.tenant.slug;
    req.auth = std::move(ctx);
  } catch (BasicRefusal& refusal) {
    req.auth = std::move(refusal);
  }
}

}  // namespace

void add_basic_scheme(App& app) {
  auto clients = std::make_shared<store::ApiClients>(app.identity().pool(), app.options().token_ttl);
  app.server().add_auth_scheme(
      {"basic",
       R"json({"type":"http","scheme":"basic","description":"credencial de integração com escopo provas_digitais (cadastre-admin client add --scope provas_digitais --usuario U); o município é o da credencial"})json",
       [&app, clients](http::Request& req, const http::Route&) { authenticate(app, *clients, req); }});
}

http::Handler basic_handler(std::function<http::Response(http::Request&, const ProvasContext&)> fn) {
  return [fn = std::move(fn)](http::Request& req) {
    if (const auto* refusal = std::any_cast<BasicRefusal>(&req.auth)) {
      if (refusal->retry_after > 0) throw RetryLater(refusal->message, refusal->retry_after);
      auto res = http::Response::error(errc::unauthenticated, refusal->message);
      res.headers.set("WWW-Authenticate", kBasicChallenge);
      return res;
    }
    const auto* ctx = std::any_cast<ProvasContext>(&req.auth);
    if (!ctx) throw Error(errc::internal, "rota Basic sem contexto de autenticação");
    return fn(req, *ctx);
  };
}

}  // namespace cadastre::server
