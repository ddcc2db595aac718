#include "store/identity.hpp"

#include <soci/soci.h>

#include "cadastre/error.hpp"
#include "store/crypto.hpp"
#include "store/events.hpp"
#include "store/sql.hpp"

namespace cadastre::store {
namespace {
constexpr std::size_t kMaxCachedTokens = 100000;
constexpr auto kTenantTtl = std::chrono::seconds(30);

constexpr const char* kPrincipalSelect =
    "select u.id, u.email, u.nome, u.tenant_id, t.slug, u.adm, u.adm_plataforma, coalesce(u.senha_hash, '') "
    "from plataforma.usuarios u join plataforma.tenants t on t.id = u.tenant_id "
    "where u.ativo and t.ativo and ";

std::optional<std::pair<Principal, std::string>> fetch_principal(soci::session& s, const std::string& where,
                                                                 const std::string& key) {
  Principal p;
  std::string hash;
  int adm = 0, adm_plataforma = 0;
  long long uid = 0, tid = 0;
  s << std::string(kPrincipalSelect) + where, soci::into(uid), soci::into(p.email), soci::into(p.nome),
      soci::into(tid), soci::into(p.tenant_slug), soci::into(adm), soci::into(adm_plataforma), soci::into(hash),
      soci::use(key);
  if (!s.got_data()) return std::nullopt;
  p.user_id = uid;
  p.tenant_id = tid;
  p.admin = adm != 0;
  p.platform_admin = adm_plataforma != 0;
  return std::make_pair(std::move(p), std::move(hash));
}

// The session of a token hash with its user and the tenant it acts in. A provider's user
// reaches a tenant only while the provider is active and the tenant still grants it
// access; the grant's rights come along. Its last use is recorded only when the recorded
// one is older than a tenth of the idle limit (at most a minute): many requests racing on
// one token after a cache expiry then read, rather than queue on the row's lock.
std::optional<Principal> fetch_session(soci::session& s, const std::string& hash) {
  // Prepared once per connection (the hash is an index's key: one plan serves every token),
  // as every request whose token is not in the cache runs it.
  Sql q("select u.id::text, u.email, u.nome, t.id::text, t.slug, u.adm::int::text, u.adm_plataforma::int::text, "
        "  s.id::text, coalesce(u.provedor_id, 0)::text, coalesce(pt.leitura::int, 0)::text, "
        "  coalesce(pt.escrita::int, 0)::text, "
        "  (s.usada_em < now() - least(interval '60 seconds', coalesce(s.ociosa_max, interval '1 hour') / 10))::int::text "
        "from plataforma.sessoes s join plataforma.usuarios u on u.id = s.usuario_id "
        "  join plataforma.tenants t on t.id = s.tenant_id "
        "  left join plataforma.provedores p on p.id = u.provedor_id "
        "  left join plataforma.provedor_tenants pt on pt.provedor_id = u.provedor_id and pt.tenant_id = s.tenant_id "
        "where s.token_hash = ");
  q.bind(hash) << " and s.revogada_em is null and s.expira_em > now() "
                  "  and (s.ociosa_max is null or s.usada_em + s.ociosa_max > now()) "
                  "  and u.ativo and t.ativo and (u.tenant_id = s.tenant_id or (p.ativo and pt.tenant_id is not null))";
  std::vector<Row> rows = fetch(s, q.reuse_plan());
  if (rows.empty()) return std::nullopt;
  const Row& r = rows.front();
  auto number = [&](std::size_t i) { return std::stoll(r[i].value_or("0")); };
  Principal p;
  p.user_id = number(0);
  p.email = r[1].value_or("");
  p.nome = r[2].value_or("");
  p.tenant_id = number(3);
  p.tenant_slug = r[4].value_or("");
  p.session_id = number(7);
  p.provider_id = number(8);
  p.admin = p.provider_id == 0 && number(5) != 0;
  p.platform_admin = p.provider_id == 0 && number(6) != 0;
  if (p.provider_id != 0) p.provider_grant = LayerPermission{"*", number(9) != 0, number(10) != 0};
  if (number(11) != 0) {
    Sql touch("update plataforma.sessoes set usada_em = now() where id = ");
    touch.bind(std::to_string(p.session_id), "bigint")
        << " and usada_em < now() - least(interval '60 seconds', coalesce(ociosa_max, interval '1 hour') / 10)";
    execute(s, touch);
  }
  return p;
}
}  // namespace

bool layer_allowed(const std::vector<LayerPermission>& perms, std::string_view camada, bool write, bool admin) {
  if (admin) return true;
  const LayerPermission* fallback = nullptr;
  for (const auto& p : perms) {
    if (p.camada == camada) return write ? p.escrita : p.leitura;
    if (p.camada == "*") fallback = &p;
  }
  return fallback && (write ? fallback->escrita : fallback->leitura);
}

LayerPermission parse_layer_permission(std::string_view text) {
  auto colon = text.find(':');
  std::string_view mode = colon == std::string_view::npos ? std::string_view() : text.substr(colon + 1);
  if (colon == std::string_view::npos || colon == 0 || mode.find_first_not_of("rw") != std::string_view::npos)
    throw Error(errc::invalid_argument, "permissão espera camada:r, camada:w ou camada:rw: " + std::string(text), "perm");
  return {std::string(text.substr(0, colon)), mode.find('r') != std::string_view::npos,
          mode.find('w') != std::string_view::npos};
}

Identity::Identity(Pool& platform, std::chrono::milliseconds token_ttl) : pool_(platform), ttl_(token_ttl) {}

std::optional<Principal> Identity::authenticate(std::string_view token) {
  // Tokens are 64 hex characters; anything else cannot match and never reaches SQL.
  if (token.size() != 64 || token.find_first_not_of("0123456789abcdef") != std::string_view::npos) return std::nullopt;
  std::string hash = sha256_hex(token);
  auto now = std::chrono::steady_clock::now();
  // One lookup per token at a time: when the cached entry of a busy token expires, the
  // requests that arrive meanwhile wait for the first one's answer instead of each
  // querying (and queueing for a connection).
  std::shared_ptr<std::promise<std::optional<Principal>>> mine;
  std::shared_future<std::optional<Principal>> pending;
  std::uint64_t epoch = 0;
  {
    std::lock_guard lock(mutex_);
    auto it = tokens_.find(hash);
    if (it != tokens_.end()) {
      if (it->second.expires > now) return it->second.principal;
      tokens_.erase(it);
    }
    if (auto f = lookups_.find(hash); f != lookups_.end()) {
      pending = f->second;
    } else {
      mine = std::make_shared<std::promise<std::optional<Principal>>>();
      lookups_[hash] = mine->get_future().share();
      epoch = revocations_;
    }
  }
  if (!mine) return pending.get();
  std::optional<Principal> found;
  try {
    found = pool_.with([&](soci::session& s) { return fetch_session(s, hash); });
  } catch (...) {
    std::lock_guard lock(mutex_);
    lookups_.erase(hash);
    mine->set_exception(std::current_exception());
    throw;
  }
  {
    std::lock_guard lock(mutex_);
    lookups_.erase(hash);
    // A revocation while the lookup ran may concern this very session: do not cache it.
    if (found && epoch == revocations_) {
      if (tokens_.size() >= kMaxCachedTokens) tokens_.clear();
      tokens_[hash] = {*found, now + ttl_};
    }
  }
  mine->set_value(found);
  return found;
}

std::optional<Principal> Identity::login(std::string_view email, std::string_view password) {
  auto found = pool_.with([&](soci::session& s) { return fetch_principal(s, "lower(u.email) = lower(:e)", std::string(email)); });
  if (!found || found->second.empty()) {
    verify_password(decoy_password_hash(), password);
    return std::nullopt;
  }
  if (!verify_password(found->second, password)) return std::nullopt;
  return found->first;
}

std::string Identity::open_session(const Principal& user, const SessionLimits& limits, const SessionOrigin& origin) {
  std::string token = random_token();
  std::string hash = sha256_hex(token);
  pool_.run([&](soci::session& s) {
    long long uid = user.user_id, tid = user.tenant_id, idle = limits.idle.count(), absolute = limits.absolute.count();
    soci::indicator idle_ind = limits.idle.count() > 0 ? soci::i_ok : soci::i_null;
    soci::indicator addr_ind = origin.address.empty() ? soci::i_null : soci::i_ok;
    soci::indicator agent_ind = origin.agent.empty() ? soci::i_null : soci::i_ok;
    std::string agent = origin.agent.substr(0, 512);
    s << "insert into plataforma.sessoes (usuario_id, tenant_id, token_hash, origem, ociosa_max, expira_em, "
         "endereco, agente) values (:u, :t, :h, :o, make_interval(secs => :idle), "
         "now() + make_interval(secs => :abs), :addr, :agent)",
        soci::use(uid), soci::use(tid), soci::use(hash), soci::use(origin.kind), soci::use(idle, idle_ind),
        soci::use(absolute), soci::use(origin.address, addr_ind), soci::use(agent, agent_ind);
  });
  return token;
}

template <class Pred>
void Identity::forget_tokens(Pred pred) {
  std::lock_guard lock(mutex_);
  ++revocations_;
  std::erase_if(tokens_, [&](const auto& entry) { return pred(entry.second.principal); });
}

void Identity::revoke_sessions(const std::vector<std::int64_t>& session_ids, std::string_view reason) {
  if (session_ids.empty()) return;
  pool_.run([&](soci::session& s) {
    soci::transaction tx(s);
    std::string ids = id_array(session_ids);
    std::vector<std::int64_t> revoked;
    {
      soci::rowset<long long> rs = (s.prepare << "update plataforma.sessoes set revogada_em = now() "
                                                 "where id = any(:ids::bigint[]) and revogada_em is null returning id",
                                    soci::use(ids));
      for (long long id : rs) revoked.push_back(id);
    }
    publish_revocation(s, revoked, reason);
    tx.commit();
  });
  for (std::int64_t id : session_ids) forget_session(id);
}

void Identity::forget_session(std::int64_t session_id) {
  forget_tokens([&](const Principal& p) { return p.session_id == session_id; });
}

std::vector<std::int64_t> Identity::revoke_user_sessions(std::int64_t user_id, std::string_view reason,
                                                         std::int64_t keep) {
  std::vector<std::int64_t> revoked = pool_.with([&](soci::session& s) {
    soci::transaction tx(s);
    std::vector<std::int64_t> ids;
    long long uid = user_id, kept = keep;
    {
      soci::rowset<long long> rs =
          (s.prepare << "update plataforma.sessoes set revogada_em = now() where usuario_id = :u "
                        "and id <> :k and revogada_em is null returning id",
           soci::use(uid), soci::use(kept));
      for (long long id : rs) ids.push_back(id);
    }
    publish_revocation(s, ids, reason);
    tx.commit();
    return ids;
  });
  forget_tokens([&](const Principal& p) { return p.user_id == user_id && p.session_id != keep; });
  return revoked;
}

std::optional<Tenant> Identity::load_tenant(const char* where, const std::string& key) {
  return pool_.with([&](soci::session& s) -> std::optional<Tenant> {
    Tenant t;
    long long id = 0;
    int ativo = 0;
    soci::indicator uf_ind, ibge_ind;
    s << std::string("select id, slug, nome, uf, codigo_ibge, dsn, fuso_horario, config::text, ativo "
                     "from plataforma.tenants where ") + where,
        soci::into(id), soci::into(t.slug), soci::into(t.nome), soci::into(t.uf, uf_ind),
        soci::into(t.codigo_ibge, ibge_ind), soci::into(t.dsn), soci::into(t.fuso_horario), soci::into(t.config_json),
        soci::into(ativo), soci::use(key);
    if (!s.got_data()) return std::nullopt;
    t.id = id;
    t.ativo = ativo != 0;
    return t;
  });
}

std::optional<Tenant> Identity::tenant(std::string_view slug) {
  auto now = std::chrono::steady_clock::now();
  {
    std::lock_guard lock(mutex_);
    auto it = tenants_.find(slug);
    if (it != tenants_.end() && it->second.second > now) return it->second.first;
  }
  auto t = load_tenant("slug = :s", std::string(slug));
  if (t) {
    std::lock_guard lock(mutex_);
    tenants_[t->slug] = {*t, now + kTenantTtl};
  }
  return t;
}

std::optional<Tenant> Identity::tenant_by_id(std::int64_t id) {
  auto now = std::chrono::steady_clock::now();
  {
    std::lock_guard lock(mutex_);
    for (const auto& [slug, entry] : tenants_)
      if (entry.first.id == id && entry.second > now) return entry.first;
  }
  auto t = load_tenant("id = :i::bigint", std::to_string(id));
  if (t) {
    std::lock_guard lock(mutex_);
    tenants_[t->slug] = {*t, now + kTenantTtl};
  }
  return t;
}

std::vector<Tenant> Identity::tenants() {
  std::vector<std::string> slugs = pool_.with([](soci::session& s) {
    std::vector<std::string> out;
    soci::rowset<std::string> rs = (s.prepare << "select slug from plataforma.tenants order by id");
    for (const auto& slug : rs) out.push_back(slug);
    return out;
  });
  std::vector<Tenant> out;
  for (const auto& slug : slugs)
    if (auto t = load_tenant("slug = :s", slug)) out.push_back(std::move(*t));
  return out;
}

std::vector<LayerPermission> Identity::permissions(std::int64_t user_id) {
  auto now = std::chrono::steady_clock::now();
  {
    std::lock_guard lock(mutex_);
    auto it = permissions_.find(user_id);
    if (it != permissions_.end() && it->second.second > now) return it->second.first;
  }
  auto loaded = pool_.with([&](soci::session& s) {
    std::vector<LayerPermission> out;
    long long uid = user_id;
    soci::rowset<soci::row> rs = (s.prepare << "select camada, leitura::int, escrita::int from plataforma.permissoes_camada "
                                               "where usuario_id = :u order by camada",
                                  soci::use(uid));
    for (const auto& r : rs) out.push_back({r.get<std::string>(0), r.get<int>(1) != 0, r.get<int>(2) != 0});
    return out;
  });
  std::lock_guard lock(mutex_);
  if (permissions_.size() >= kMaxCachedTokens) permissions_.clear();
  permissions_[user_id] = {loaded, now + ttl_};
  return loaded;
}

void Identity::reload() {
  std::lock_guard lock(mutex_);
  ++revocations_;
  tokens_.clear();
  tenants_.clear();
  permissions_.clear();
}

bool Identity::ping() {
  try {
    pool_.run([](soci::session& s) {
      int one = 0;
      s << "select 1", soci::into(one);
    });
    return true;
  } catch (const std::exception&) {  // a catalog error, or a database failure Pool::run passes on
    return false;
  }
}

std::int64_t Identity::add_tenant(const NewTenant& t) {
  return pool_.with([&](soci::session& s) {
    long long id = 0;
    soci::indicator uf_ind = t.uf.empty() ? soci::i_null : soci::i_ok;
    soci::indicator ibge_ind = t.codigo_ibge.empty() ? soci::i_null : soci::i_ok;
    s << "insert into plataforma.tenants (slug, nome, uf, codigo_ibge, dsn, fuso_horario) "
         "values (:slug, :nome, :uf, :ibge, :dsn, :tz) "
         "on conflict (slug) do update set nome = excluded.nome, uf = excluded.uf, "
         "codigo_ibge = excluded.codigo_ibge, dsn = excluded.dsn, fuso_horario = excluded.fuso_horario "
         "returning id",
        soci::use(t.slug), soci::use(t.nome), soci::use(t.uf, uf_ind), soci::use(t.codigo_ibge, ibge_ind),
        soci::use(t.dsn), soci::use(t.fuso_horario), soci::into(id);
    return static_cast<std::int64_t>(id);
  });
}

std::int64_t Identity::add_user(const NewUser& u) {
  auto tenant_row = tenant(u.tenant_slug);
  if (!tenant_row) throw Error(errc::not_found, "município não cadastrado: " + u.tenant_slug, "tenant");
  std::string hash = u.password.empty() ? std::string() : hash_password(u.password);
  return pool_.with([&](soci::session& s) {
    long long id = 0, tid = tenant_row->id;
    int adm = u.admin ? 1 : 0;
    soci::indicator hash_ind = hash.empty() ? soci::i_null : soci::i_ok;
    s << "insert into plataforma.usuarios (tenant_id, email, nome, senha_hash, adm) "
         "values (:t, :e, :n, :h, :a::int::boolean) "
         "on conflict (email) do update set tenant_id = excluded.tenant_id, nome = excluded.nome, "
         "senha_hash = coalesce(excluded.senha_hash, plataforma.usuarios.senha_hash), adm = excluded.adm, ativo = true "
         "returning id",
        soci::use(tid), soci::use(u.email), soci::use(u.nome), soci::use(hash, hash_ind), soci::use(adm),
        soci::into(id);
    return static_cast<std::int64_t>(id);
  });
}

std::string Identity::issue_token(std::string_view email) {
  std::string token = random_token();
  std::string hash = sha256_hex(token), mail(email);
  pool_.run([&](soci::session& s) {
    soci::transaction tx(s);
    std::vector<std::int64_t> replaced;
    {
      soci::rowset<long long> rs =
          (s.prepare << "update plataforma.sessoes set revogada_em = now() where origem = 'emitido' and revogada_em is null "
                        "and usuario_id = (select id from plataforma.usuarios where lower(email) = lower(:e)) returning id",
           soci::use(mail));
      for (long long id : rs) replaced.push_back(id);
    }
    publish_revocation(s, replaced, "token_reemitido");
    soci::statement st =
        (s.prepare << "insert into plataforma.sessoes (usuario_id, tenant_id, token_hash, origem, expira_em) "
                      "select id, tenant_id, :h, 'emitido', now() + interval '365 days' from plataforma.usuarios "
                      "where lower(email) = lower(:e) and tenant_id is not null",
         soci::use(hash), soci::use(mail));
    st.execute(true);
    if (st.get_affected_rows() != 1) throw Error(errc::not_found, "usuário não encontrado: " + mail, "email");
    tx.commit();
  });
  reload();
  return token;
}

void Identity::set_permission(std::string_view email, std::string_view camada, bool leitura, bool escrita) {
  std::string mail(email), layer(camada);
  int r = leitura ? 1 : 0, w = escrita ? 1 : 0;
  pool_.run([&](soci::session& s) {
    soci::statement st =
        (s.prepare << "insert into plataforma.permissoes_camada (usuario_id, camada, leitura, escrita) "
                      "select id, :c, :r::int::boolean, :w::int::boolean from plataforma.usuarios where lower(email) = lower(:e) "
                      "on conflict (usuario_id, camada) do update set leitura = excluded.leitura, escrita = excluded.escrita",
         soci::use(layer), soci::use(r), soci::use(w), soci::use(mail));
    st.execute(true);
    if (st.get_affected_rows() != 1) throw Error(errc::not_found, "usuário não encontrado: " + mail, "email");
  });
}

StoredUser Identity::find_or_create_user(std::int64_t tenant_id, std::string_view email, std::string_view nome) {
  std::string mail(email), name(nome);
  return pool_.with([&](soci::session& s) {
    StoredUser out;
    long long id = 0, tid = tenant_id;
    s << "insert into plataforma.usuarios (tenant_id, email, nome) values (:t, :e, :n) "
         "on conflict (email) do nothing returning id",
        soci::use(tid), soci::use(mail), soci::use(name), soci::into(id);
    out.created = s.got_data();
    int ativo = 0, adm = 0;
    s << "select id, tenant_id, ativo::int, adm::int, email, nome from plataforma.usuarios where "
         "lower(email) = lower(:e)",
        soci::use(mail), soci::into(id), soci::into(tid), soci::into(ativo), soci::into(adm), soci::into(out.email),
        soci::into(out.nome);
    out.id = id;
    out.tenant_id = tid;
    out.ativo = ativo != 0;
    out.admin = adm != 0;
    return out;
  });
}

}  // namespace cadastre::store
