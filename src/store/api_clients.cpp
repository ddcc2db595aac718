#include "store/api_clients.hpp"

#include <soci/soci.h>

#include "cadastre/error.hpp"
#include "store/crypto.hpp"

namespace cadastre::store {
namespace {
constexpr std::size_t kMaxCached = 100000;
constexpr std::size_t kMinPassword = 12;

constexpr const char* kClientSelect =
    "select c.id, c.tenant_id, t.slug, c.nome, c.escopo, coalesce(c.usuario, ''), c.segredo_hash "
    "from plataforma.clientes_api c join plataforma.tenants t on t.id = c.tenant_id "
    "where c.ativo and t.ativo and c.escopo = :scope and ";

std::optional<std::pair<ApiClient, std::string>> fetch_client(soci::session& s, const std::string& where,
                                                              const std::string& scope, const std::string& key) {
  ApiClient c;
  std::string hash;
  long long id = 0, tid = 0;
  s << std::string(kClientSelect) + where, soci::into(id), soci::into(tid), soci::into(c.tenant_slug),
      soci::into(c.nome), soci::into(c.escopo), soci::into(c.usuario), soci::into(hash), soci::use(scope),
      soci::use(key);
  if (!s.got_data()) return std::nullopt;
  c.id = id;
  c.tenant_id = tid;
  return std::make_pair(std::move(c), std::move(hash));
}

void touch(soci::session& s, std::int64_t id) {
  long long cid = id;
  s << "update plataforma.clientes_api set ultimo_uso = now() where id = :id", soci::use(cid);
}
}  // namespace

bool known_api_scope(std::string_view scope) noexcept {
  return scope == "avaliacao" || scope == "provas_digitais" || scope == "integracao";
}

ApiClients::ApiClients(Pool& platform, std::chrono::milliseconds ttl) : pool_(platform), ttl_(ttl) {}

std::optional<ApiClient> ApiClients::cached(const std::string& key) {
  std::lock_guard lock(mutex_);
  auto it = cache_.find(key);
  if (it == cache_.end()) return std::nullopt;
  if (it->second.expires > std::chrono::steady_clock::now()) return it->second.client;
  cache_.erase(it);
  return std::nullopt;
}

void ApiClients::remember(const std::string& key, const ApiClient& c) {
  std::lock_guard lock(mutex_);
  if (cache_.size() >= kMaxCached) cache_.clear();
  cache_[key] = {c, std::chrono::steady_clock::now() + ttl_};
}

std::optional<ApiClient> ApiClients::authenticate_bearer(std::string_view token, std::string_view scope) {
  // Tokens are 64 hex characters; anything else cannot match and never reaches SQL.
  if (token.size() != 64 || token.find_first_not_of("0123456789abcdef") != std::string_view::npos) return std::nullopt;
  std::string hash = sha256_hex(token), key = sha256_hex(std::string(scope) + ":" + hash);
  if (auto c = cached(key)) return c;
  auto found = pool_.with([&](soci::session& s) {
    auto f = fetch_client(s, "c.usuario is null and c.segredo_hash = :h", std::string(scope), hash);
    if (f) touch(s, f->first.id);
    return f;
  });
  if (!found) return std::nullopt;
  remember(key, found->first);
  return found->first;
}

std::optional<ApiClient> ApiClients::recently_proved(std::string_view usuario, std::string_view password,
                                                     std::string_view scope) {
  if (usuario.empty() || password.empty()) return std::nullopt;
  return cached(sha256_hex(std::string(scope) + ":" + std::string(usuario) + ":" + std::string(password)));
}

std::optional<ApiClient> ApiClients::authenticate_basic(std::string_view usuario, std::string_view password,
                                                        std::string_view scope) {
  if (usuario.empty() || password.empty()) return std::nullopt;
  std::string key = sha256_hex(std::string(scope) + ":" + std::string(usuario) + ":" + std::string(password));
  if (auto c = cached(key)) return c;
  auto found = pool_.with(
      [&](soci::session& s) { return fetch_client(s, "c.usuario = :u", std::string(scope), std::string(usuario)); });
  if (!found) {
    verify_password(decoy_password_hash(), password);  // an unknown user costs what a known one does
    return std::nullopt;
  }
  if (!verify_password(found->second, password)) return std::nullopt;
  pool_.run([&](soci::session& s) { touch(s, found->first.id); });
  remember(key, found->first);
  return found->first;
}

IssuedCredential ApiClients::add(const NewApiClient& c) {
  if (!known_api_scope(c.escopo))
    throw Error(errc::invalid_argument, "escopo desconhecido: " + c.escopo + " (avaliacao, provas_digitais ou integracao)",
                "scope");
  if (c.nome.empty()) throw Error(errc::missing_field, "informe o nome do cliente", "nome");
  if (c.escopo == "provas_digitais" && c.usuario.empty())
    throw Error(errc::missing_field, "as provas digitais usam autenticação Basic: informe o usuário", "usuario");
  if (c.escopo == "avaliacao" && !c.usuario.empty())
    throw Error(errc::invalid_argument, "a avaliação usa token bearer: não informe usuário", "usuario");
  if (!c.usuario.empty() && !c.password.empty() && c.password.size() < kMinPassword)
    throw Error(errc::invalid_argument, "a senha precisa de ao menos 12 caracteres", "password");
  IssuedCredential out;
  out.usuario = c.usuario;
  out.secret = c.usuario.empty() || c.password.empty() ? random_token() : c.password;
  std::string hash = c.usuario.empty() ? sha256_hex(out.secret) : hash_password(out.secret);
  out.id = pool_.with([&](soci::session& s) {
    long long id = 0;
    soci::indicator tind = soci::i_null;
    s << "select id from plataforma.tenants where slug = :s", soci::use(c.tenant_slug), soci::into(id, tind);
    if (tind != soci::i_ok) throw Error(errc::not_found, "município não cadastrado: " + c.tenant_slug, "tenant");
    long long tenant_id = id;
    soci::indicator uind = c.usuario.empty() ? soci::i_null : soci::i_ok;
    // Issuing again replaces the secret: a Basic client is its (scope, usuario), a bearer
    // client its (tenant, scope, nome).
    std::string conflict = c.usuario.empty() ? "(tenant_id, escopo, nome) where usuario is null do update set "
                                             : "(escopo, usuario) do update set tenant_id = excluded.tenant_id, "
                                               "nome = excluded.nome, ";
    s << "insert into plataforma.clientes_api (tenant_id, nome, escopo, usuario, segredo_hash) "
         "values (:t, :n, :e, :u, :h) on conflict " + conflict +
             "segredo_hash = excluded.segredo_hash, ativo = true returning id",
        soci::use(tenant_id), soci::use(c.nome), soci::use(c.escopo), soci::use(c.usuario, uind), soci::use(hash),
        soci::into(id);
    return static_cast<std::int64_t>(id);
  });
  reload();
  return out;
}

void ApiClients::reload() {
  std::lock_guard lock(mutex_);
  cache_.clear();
}

}  // namespace cadastre::store
