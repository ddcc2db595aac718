#include "platform/providers/store.hpp"

#include <soci/soci.h>

#include <map>

#include "cadastre/error.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::providers {
namespace {

constexpr const char* kPreJson =
    "json_build_object('id', r.id, 'nome', r.nome, 'cnpj', r.cnpj, 'email', r.email, 'responsavel', r.responsavel, "
    "'telefone', r.telefone, 'mensagem', r.mensagem, 'estado', r.estado, 'idProvedor', r.provedor_id, "
    "'criadoEm', r.criado_em)";
constexpr const char* kProviderJson =
    "json_build_object('id', p.id, 'nome', p.nome, 'cnpj', p.cnpj, 'email', p.email, 'telefone', p.telefone, "
    "'ativo', p.ativo, 'criadoEm', p.criado_em)";

soci::indicator null_if_empty(const std::string& s) { return s.empty() ? soci::i_null : soci::i_ok; }

std::vector<std::int64_t> ids(soci::rowset<long long>& rs) {
  std::vector<std::int64_t> out;
  for (long long id : rs) out.push_back(id);
  return out;
}

}  // namespace

std::int64_t register_pre(store::Pool& pool, const PreRegistration& p) {
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    int clash = 0;
    s << "select (exists (select 1 from plataforma.preprovedores where cnpj = :c and estado = 'pendente') "
         "or exists (select 1 from plataforma.provedores where cnpj = :c2))::int",
        soci::use(p.cnpj), soci::use(p.cnpj), soci::into(clash);
    if (clash) throw Error(errc::conflict, "já há cadastro deste CNPJ em análise ou aprovado", "cnpj");
    long long id = 0;
    soci::indicator ti = null_if_empty(p.telefone), mi = null_if_empty(p.mensagem);
    s << "insert into plataforma.preprovedores (nome, cnpj, email, responsavel, telefone, mensagem) "
         "values (:n, :c, :e, :r, :t, :m) returning id",
        soci::use(p.nome), soci::use(p.cnpj), soci::use(p.email), soci::use(p.responsavel), soci::use(p.telefone, ti),
        soci::use(p.mensagem, mi), soci::into(id);
    tx.commit();
    return static_cast<std::int64_t>(id);
  });
}

store::PageRows list_pre(store::Pool& pool, const std::optional<std::string>& estado, const Page& page) {
  static const std::map<std::string, std::string> columns = {{"id", "r.id"}, {"nome", "r.nome"}, {"criadoEm", "r.criado_em"}};
  auto filter = [&](store::Sql& q) {
    if (estado) q << " where r.estado = ", q.bind(*estado);
  };
  store::Sql q("select (select count(*) from plataforma.preprovedores r");
  filter(q);
  q << ")::text, coalesce(json_agg(p.j), '[]')::text from (select " << kPreJson
    << " as j from plataforma.preprovedores r";
  filter(q);
  q << " order by " << columns.at(page.order_by) << (page.descending ? " desc" : " asc") << ", r.id desc";
  store::append_page(q, page.paging);
  q << ") p";
  return pool.with([&](soci::session& s) { return store::fetch_page(s, q); });
}

std::string pre_of(store::Pool& pool, const std::optional<std::string>& cnpj, std::optional<std::int64_t> provider_id) {
  return pool.with([&](soci::session& s) {
    std::string out, c = cnpj.value_or("");
    long long pid = provider_id.value_or(0);
    s << std::string("select coalesce(json_agg(") + kPreJson + " order by r.id desc), '[]')::text "
         "from plataforma.preprovedores r where r.cnpj = :c or r.cnpj = (select cnpj from plataforma.provedores "
         "where id = :p)",
        soci::use(c), soci::use(pid), soci::into(out);
    return out;
  });
}

void delete_pre(store::Pool& pool, std::int64_t id) {
  pool.run([&](soci::session& s) {
    long long pid = id;
    soci::statement st = (s.prepare << "delete from plataforma.preprovedores where id = :i and provedor_id is null",
                          soci::use(pid));
    st.execute(true);
    if (st.get_affected_rows() == 0) throw Error(errc::not_found, "pré-cadastro não encontrado (ou já aprovado)", "id");
  });
}

CreatedProvider create(store::Pool& pool, const NewProvider& n) {
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    PreRegistration d = n.data;
    long long pre = n.pre_id.value_or(0);
    if (n.pre_id) {
      soci::indicator ti;
      s << "select nome, cnpj, email, responsavel, telefone from plataforma.preprovedores "
           "where id = :i and estado = 'pendente' for update",
          soci::use(pre), soci::into(d.nome), soci::into(d.cnpj), soci::into(d.email), soci::into(d.responsavel),
          soci::into(d.telefone, ti);
      if (!s.got_data()) throw Error(errc::not_found, "pré-cadastro pendente não encontrado", "idPreProvedor");
      if (ti != soci::i_ok) d.telefone.clear();
    }
    int clash = 0;
    s << "select (exists (select 1 from plataforma.provedores where cnpj = :c) or exists (select 1 from "
         "plataforma.usuarios where lower(email) = lower(:e)))::int",
        soci::use(d.cnpj), soci::use(d.email), soci::into(clash);
    if (clash) throw Error(errc::conflict, "CNPJ já tem prestador, ou o e-mail já tem usuário", "cnpj");
    CreatedProvider out;
    long long pid = 0, uid = 0;
    soci::indicator ti = null_if_empty(d.telefone);
    s << "insert into plataforma.provedores (nome, cnpj, email, telefone) values (:n, :c, :e, :t) returning id",
        soci::use(d.nome), soci::use(d.cnpj), soci::use(d.email), soci::use(d.telefone, ti), soci::into(pid);
    s << "insert into plataforma.usuarios (tenant_id, provedor_id, email, nome) values (null, :p, :e, :n) returning id",
        soci::use(pid), soci::use(d.email), soci::use(d.responsavel), soci::into(uid);
    if (n.pre_id)
      s << "update plataforma.preprovedores set estado = 'aprovado', provedor_id = :p where id = :i", soci::use(pid),
          soci::use(pre);
    tx.commit();
    out.provider_id = pid;
    out.user_id = uid;
    out.user_email = d.email;
    out.user_nome = d.responsavel;
    return out;
  });
}

std::string list(store::Pool& pool, std::optional<std::int64_t> tenant_id) {
  return pool.with([&](soci::session& s) {
    std::string out;
    long long tid = tenant_id.value_or(0);
    int all = tenant_id ? 0 : 1;
    s << std::string("select coalesce(json_agg(") + kProviderJson +
             "::jsonb || jsonb_build_object('acesso', (select jsonb_build_object('leitura', g.leitura, 'escrita', "
             "g.escrita, 'concedidoEm', g.concedido_em) from plataforma.provedor_tenants g where g.provedor_id = p.id "
             "and g.tenant_id = :t)) order by p.id), '[]')::text from plataforma.provedores p where :all = 1 or "
             "exists (select 1 from plataforma.provedor_tenants g where g.provedor_id = p.id and g.tenant_id = :t2)",
        soci::use(tid), soci::use(all), soci::use(tid), soci::into(out);
    return out;
  });
}

std::string one(store::Pool& pool, std::int64_t provider_id) {
  return pool.with([&](soci::session& s) {
    std::string out;
    long long pid = provider_id;
    s << std::string("select (") + kProviderJson + ")::text from plataforma.provedores p where p.id = :p",
        soci::use(pid), soci::into(out);
    if (!s.got_data()) throw Error(errc::not_found, "prestador não encontrado", "idProvedor");
    return out;
  });
}

std::string users_of(store::Pool& pool, std::int64_t provider_id) {
  return pool.with([&](soci::session& s) {
    std::string out;
    long long pid = provider_id;
    // From the provider's row, so that an unknown provider is a 404 rather than no users.
    s << "select (select coalesce(json_agg(json_build_object('id', u.id, 'nome', u.nome, "
         "'email', u.email, 'ativo', u.ativo, 'criadoEm', u.criado_em) order by u.id), '[]') "
         "from plataforma.usuarios u where u.provedor_id = p.id)::text "
         "from plataforma.provedores p where p.id = :p",
        soci::use(pid), soci::into(out);
    if (!s.got_data()) throw Error(errc::not_found, "prestador não encontrado", "idProvedor");
    return out;
  });
}

bool granted(store::Pool& pool, std::int64_t provider_id, std::int64_t tenant_id) {
  return pool.with([&](soci::session& s) {
    int n = 0;
    long long pid = provider_id, tid = tenant_id;
    s << "select count(*) from plataforma.provedor_tenants where provedor_id = :p and tenant_id = :t", soci::use(pid),
        soci::use(tid), soci::into(n);
    return n > 0;
  });
}

std::vector<std::int64_t> grant(store::Pool& pool, std::int64_t provider_id, std::int64_t tenant_id,
                                bool escrita) {
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    long long pid = provider_id, tid = tenant_id;
    int write = escrita ? 1 : 0, wrote = 0;
    soci::indicator wrote_ind = soci::i_null;
    s << "select escrita::int from plataforma.provedor_tenants where provedor_id = :p and "
         "tenant_id = :t for update",
        soci::use(pid), soci::use(tid), soci::into(wrote, wrote_ind);
    soci::statement st =
        (s.prepare << "insert into plataforma.provedor_tenants (provedor_id, tenant_id, escrita) "
                      "select p.id, :t, :w::int::boolean from plataforma.provedores p where p.id = :p and p.ativo "
                      "on conflict (provedor_id, tenant_id) do update set escrita = excluded.escrita",
         soci::use(tid), soci::use(write), soci::use(pid));
    st.execute(true);
    if (st.get_affected_rows() == 0)
      throw Error(errc::not_found, "prestador ativo não encontrado", "idProvedor");
    std::vector<std::int64_t> out;
    if (wrote_ind == soci::i_ok && wrote != 0 && !escrita) {
      soci::rowset<long long> rs =
          (s.prepare << "select s.id from plataforma.sessoes s join plataforma.usuarios u on "
                        "u.id = s.usuario_id where u.provedor_id = :p and s.tenant_id = :t "
                        "and s.revogada_em is null",
           soci::use(pid), soci::use(tid));
      out = ids(rs);
    }
    tx.commit();
    return out;
  });
}

std::vector<std::int64_t> revoke_grant(store::Pool& pool, std::int64_t provider_id, std::int64_t tenant_id) {
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    long long pid = provider_id, tid = tenant_id;
    soci::statement st = (s.prepare << "delete from plataforma.provedor_tenants where provedor_id = :p and tenant_id = :t",
                          soci::use(pid), soci::use(tid));
    st.execute(true);
    if (st.get_affected_rows() == 0) throw Error(errc::not_found, "o prestador não atende este município", "idProvedor");
    soci::rowset<long long> rs = (s.prepare << "select s.id from plataforma.sessoes s join plataforma.usuarios u on "
                                               "u.id = s.usuario_id where u.provedor_id = :p and s.tenant_id = :t and "
                                               "s.revogada_em is null",
                                  soci::use(pid), soci::use(tid));
    auto out = ids(rs);
    tx.commit();
    return out;
  });
}

std::vector<std::int64_t> deactivate(store::Pool& pool, std::int64_t provider_id) {
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    long long pid = provider_id;
    soci::statement st = (s.prepare << "update plataforma.provedores set ativo = false where id = :p", soci::use(pid));
    st.execute(true);
    if (st.get_affected_rows() == 0) throw Error(errc::not_found, "prestador não encontrado", "idProvedor");
    soci::rowset<long long> rs = (s.prepare << "select id from plataforma.usuarios where provedor_id = :p", soci::use(pid));
    auto out = ids(rs);
    tx.commit();
    return out;
  });
}

}  // namespace cadastre::platform::providers
