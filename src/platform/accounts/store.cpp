#include "platform/accounts/store.hpp"

#include <soci/soci.h>

#include "cadastre/error.hpp"
#include "platform/rules.hpp"
#include "store/dsn.hpp"
#include "store/one_time.hpp"
#include "store/tenants.hpp"

namespace cadastre::platform::accounts {
namespace {

[[noreturn]] void bad_link() {
  throw Error(errc::invalid_argument, "token: link inválido, expirado ou já usado", "token");
}

// The first of slug, slug_2, slug_3... that no tenant has and the tenant rules accept.
std::string free_slug(soci::session& s, std::string base) {
  try {
    store::check_tenant_slug(base);
  } catch (const Error&) {
    base = "conta_" + base;
  }
  for (int n = 1; n < 1000; ++n) {
    std::string slug = n == 1 ? base : base + "_" + std::to_string(n);
    int taken = 0;
    s << "select count(*) from plataforma.tenants where slug = :s", soci::use(slug), soci::into(taken);
    if (!taken) return slug;
  }
  throw Error(errc::conflict, "não há nome livre para a conta; escolha outro nome", "municipio");
}

}  // namespace

std::optional<CreatedAccount> create_pending(store::Pool& pool, const NewAccount& a, const std::string& server_dsn,
                                             const TrialOptions& trial) {
  return pool.with([&](soci::session& s) -> std::optional<CreatedAccount> {
    soci::transaction tx(s);
    // Serialises sign-ups, so two racing for one e-mail or one name cannot both pass.
    s << "select pg_advisory_xact_lock(7161530474617375)";
    // A pending account of this e-mail (never confirmed: its confirmation was lost or
    // expired) gives way to the new sign-up, or the address could never get an account: it
    // is nobody's yet, and only the latest request's link will work.
    long long pending_user = 0, pending_tenant = 0;
    s << "select u.id, t.id from plataforma.usuarios u "
         "join plataforma.tenants t on t.id = u.tenant_id "
         "where lower(u.email) = lower(:e) and not u.email_confirmado and not t.ativo",
        soci::use(a.email), soci::into(pending_user), soci::into(pending_tenant);
    if (s.got_data()) {
      s << "delete from plataforma.usuarios where id = :u", soci::use(pending_user);
      s << "delete from plataforma.tenants where id = :t", soci::use(pending_tenant);
    }
    int taken = 0;
    s << "select count(*) from plataforma.usuarios where lower(email) = lower(:e)", soci::use(a.email),
        soci::into(taken);
    if (taken) return std::nullopt;
    CreatedAccount out;
    out.slug = free_slug(s, slug_from(a.municipio.empty() ? a.empresa : a.municipio));
    std::string dsn = store::dsn_with(server_dsn, "dbname", "cad_" + out.slug);
    std::string nome = a.municipio.empty() ? a.empresa : a.municipio;
    soci::indicator uf_ind = a.uf.empty() ? soci::i_null : soci::i_ok;
    long long tid = 0, eid = 0, uid = 0;
    s << "insert into plataforma.tenants (slug, nome, uf, dsn, ativo) values (:s, :n, :uf, :d, false) returning id",
        soci::use(out.slug), soci::use(nome), soci::use(a.uf, uf_ind), soci::use(dsn), soci::into(tid);
    soci::indicator cnpj_ind = a.cnpj.empty() ? soci::i_null : soci::i_ok;
    soci::indicator tel_ind = a.telefone.empty() ? soci::i_null : soci::i_ok;
    s << "insert into plataforma.empresas (nome, cnpj, tenant_id, email, telefone) values (:n, :c, :t, :e, :f) "
         "returning id",
        soci::use(a.empresa), soci::use(a.cnpj, cnpj_ind), soci::use(tid), soci::use(a.email),
        soci::use(a.telefone, tel_ind), soci::into(eid);
    s << "insert into plataforma.usuarios (tenant_id, empresa_id, email, nome, senha_hash, adm, email_confirmado, "
         "telefone) values (:t, :e, :m, :n, :h, true, false, :f) returning id",
        soci::use(tid), soci::use(eid), soci::use(a.email), soci::use(a.nome), soci::use(a.password_hash),
        soci::use(a.telefone, tel_ind), soci::into(uid);
    long long days = trial.days, users = trial.max_users, storage = trial.max_storage_mb;
    s << "insert into plataforma.licencas (tenant_id, plano, status, fim, max_usuarios, max_armazenamento_mb) "
         "values (:t, 'teste', 'teste', current_date + :d::int, :u, :a)",
        soci::use(tid), soci::use(days), soci::use(users), soci::use(storage);
    tx.commit();
    out.user_id = uid;
    out.tenant_id = tid;
    return out;
  });
}

void discard_pending(store::Pool& pool, const CreatedAccount& a) {
  pool.run([&](soci::session& s) {
    soci::transaction tx(s);
    long long uid = a.user_id, tid = a.tenant_id;
    s << "delete from plataforma.usuarios where id = :u and not email_confirmado", soci::use(uid);
    s << "delete from plataforma.tenants where id = :t and not ativo", soci::use(tid);
    tx.commit();
  });
}

std::optional<Contact> active_contact(store::Pool& pool, const std::string& email) {
  return pool.with([&](soci::session& s) -> std::optional<Contact> {
    Contact c;
    long long id = 0;
    s << "select u.id, u.email, u.nome from plataforma.usuarios u left join plataforma.tenants t on t.id = u.tenant_id "
         "left join plataforma.provedores p on p.id = u.provedor_id "
         "where lower(u.email) = lower(:e) and u.ativo and (t.ativo or p.ativo)",
        soci::use(email), soci::into(id), soci::into(c.email), soci::into(c.nome);
    if (!s.got_data()) return std::nullopt;
    c.id = id;
    return c;
  });
}

std::optional<Contact> contact_in_tenant(store::Pool& pool, std::int64_t id, std::int64_t tenant_id) {
  return pool.with([&](soci::session& s) -> std::optional<Contact> {
    Contact c;
    long long uid = id, tid = tenant_id;
    s << "select id, email, nome from plataforma.usuarios where id = :i and tenant_id = :t and ativo", soci::use(uid),
        soci::use(tid), soci::into(uid), soci::into(c.email), soci::into(c.nome);
    if (!s.got_data()) return std::nullopt;
    c.id = uid;
    return c;
  });
}

Confirmed confirm(store::Pool& pool, const std::string& token, const std::string& server_dsn) {
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    auto use = store::consume_one_time(s, token, {store::OneTimePurpose::confirm_account,
                                                  store::OneTimePurpose::confirm_email});
    if (!use) {
      tx.commit();  // a wrong-purpose token is spent all the same (store/one_time.hpp)
      bad_link();
    }
    Confirmed out;
    out.user_id = use->user_id;
    long long uid = use->user_id;
    if (use->purpose == store::OneTimePurpose::confirm_email) {
      int taken = 0;
      s << "select count(*) from plataforma.usuarios where lower(email) = lower(:e) and id <> :u", soci::use(use->data),
          soci::use(uid), soci::into(taken);
      if (taken) throw Error(errc::conflict, "o novo e-mail já pertence a outro usuário", "email");
      s << "update plataforma.usuarios set email = :e, atualizado_em = now() where id = :u", soci::use(use->data),
          soci::use(uid);
      out.email = use->data;
    } else {
      out.account = true;
      long long tid = 0;
      int active = 0;
      s << "select u.email, t.id, t.slug, t.ativo::int from plataforma.usuarios u join plataforma.tenants t "
           "on t.id = u.tenant_id where u.id = :u for update of t",
          soci::use(uid), soci::into(out.email), soci::into(tid), soci::into(out.slug), soci::into(active);
      if (!s.got_data()) bad_link();
      if (!active) {
        std::string dsn = store::prepare_tenant_database(server_dsn, out.slug);
        s << "update plataforma.tenants set dsn = :d, ativo = true where id = :t", soci::use(dsn), soci::use(tid);
      }
      s << "update plataforma.usuarios set email_confirmado = true, atualizado_em = now() where id = :u",
          soci::use(uid);
    }
    tx.commit();
    return out;
  });
}

std::int64_t reset_password(store::Pool& pool, const std::string& token,
                            const std::function<std::string(const Contact&)>& hash_for) {
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    auto use = store::consume_one_time(s, token, {store::OneTimePurpose::reset_password});
    if (!use) {
      tx.commit();  // a wrong-purpose token is spent all the same (store/one_time.hpp)
      bad_link();
    }
    long long uid = use->user_id;
    Contact who{use->user_id, "", ""};
    s << "select email, nome from plataforma.usuarios where id = :u", soci::use(uid), soci::into(who.email),
        soci::into(who.nome);
    const std::string password_hash = hash_for(who);  // may refuse the password: nothing is spent
    s << "update plataforma.usuarios set senha_hash = :h, atualizado_em = now() where id = :u",
        soci::use(password_hash), soci::use(uid);
    tx.commit();
    return use->user_id;
  });
}

std::vector<Contact> recipients(store::Pool& pool, std::int64_t tenant_id, const std::vector<std::int64_t>& ids) {
  return pool.with([&](soci::session& s) {
    std::vector<Contact> out;
    long long tid = tenant_id;
    std::string wanted = "{";
    for (std::size_t i = 0; i < ids.size(); ++i) wanted += (i ? "," : "") + std::to_string(ids[i]);
    wanted += "}";
    int all = ids.empty() ? 1 : 0;
    soci::rowset<soci::row> rs =
        (s.prepare << "select id, email, nome from plataforma.usuarios where tenant_id = :t and ativo "
                      "and (:all = 1 or id = any(:ids::bigint[])) order by id",
         soci::use(tid), soci::use(all), soci::use(wanted));
    for (const auto& r : rs) out.push_back({r.get<long long>(0), r.get<std::string>(1), r.get<std::string>(2)});
    return out;
  });
}

}  // namespace cadastre::platform::accounts
