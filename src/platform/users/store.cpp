#include "platform/users/store.hpp"

#include <soci/soci.h>

#include <map>

#include "cadastre/error.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::users {
namespace {

const std::string kUserJson =
    "jsonb_build_object('id', u.id, 'nome', u.nome, 'email', u.email, 'telefone', u.telefone, 'cargo', u.cargo, "
    "'adm', u.adm, 'ativo', u.ativo, 'usuarioPublico', u.publico, 'emailConfirmado', u.email_confirmado, "
    "'idEmpresa', u.empresa_id, 'idTenant', u.tenant_id, 'criadoEm', u.criado_em)";

const std::map<std::string, std::string> kColumns = {
    {"id", "u.id"}, {"nome", "u.nome"}, {"email", "u.email"}, {"criadoEm", "u.criado_em"}};

// `where` is SQL we wrote (numbers, no request text), used twice: for the count and the page.
store::PageRows page_of(store::Pool& pool, store::Sql where, const Page& page, std::optional<bool> ativo) {
  if (ativo) where << " and u.ativo = " << (*ativo ? "true" : "false");
  store::Sql q("select (select count(*) from plataforma.usuarios u where ");
  q << where.text() << ")::text, coalesce(json_agg(r), '[]')::text from (select " << kUserJson
    << " as r from plataforma.usuarios u where " << where.text() << " order by " << kColumns.at(page.order_by)
    << (page.descending ? " desc" : " asc") << ", u.id";
  store::append_page(q, page.paging);
  q << ") p";
  return pool.with([&](soci::session& s) { return store::fetch_page(s, q); });
}

void replace_permissions(soci::session& s, long long uid, const std::vector<store::LayerPermission>& rules) {
  s << "delete from plataforma.permissoes_camada where usuario_id = :u", soci::use(uid);
  for (const auto& r : rules) {
    int read = r.leitura ? 1 : 0, write = r.escrita ? 1 : 0;
    s << "insert into plataforma.permissoes_camada (usuario_id, camada, leitura, escrita) "
         "values (:u, :c, :r::int::boolean, :w::int::boolean)",
        soci::use(uid), soci::use(r.camada), soci::use(read), soci::use(write);
  }
}

// An e-mail another user has is the caller's conflict, said as such (the unique key stays
// the backstop of a race, answered as a plain 409 by the pool).
void check_email_free(soci::session& s, const std::string& email, long long except_id) {
  int taken = 0;
  s << "select count(*) from plataforma.usuarios where lower(email) = lower(:e) and id <> :u",
      soci::use(email), soci::use(except_id), soci::into(taken);
  if (taken) throw Error(errc::conflict, "e-mail já em uso por outro usuário", "email");
}

}  // namespace

store::PageRows list(store::Pool& pool, std::int64_t tenant_id, const Page& page, std::optional<bool> ativo) {
  return page_of(pool, store::Sql("u.tenant_id = " + std::to_string(tenant_id)), page, ativo);
}

store::PageRows all(store::Pool& pool, const Page& page, std::optional<bool> ativo) {
  return page_of(pool, store::Sql("true"), page, ativo);
}

std::string one(store::Pool& pool, std::int64_t tenant_id, std::int64_t id) {
  return pool.with([&](soci::session& s) {
    std::string out;
    long long uid = id, tid = tenant_id;
    s << "select (" + kUserJson +
             " || jsonb_build_object('permissoes', coalesce((select jsonb_agg(jsonb_build_object('camada', p.camada, "
             "'leitura', p.leitura, 'escrita', p.escrita) order by p.camada) from plataforma.permissoes_camada p "
             "where p.usuario_id = u.id), '[]')))::text from plataforma.usuarios u where u.id = :i and u.tenant_id = :t",
        soci::use(uid), soci::use(tid), soci::into(out);
    if (!s.got_data()) throw Error(errc::not_found, "usuário não encontrado", "id");
    return out;
  });
}

std::int64_t create(store::Pool& pool, std::int64_t tenant_id, const Fields& f) {
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    long long tid = tenant_id, uid = 0;
    // The quota check and the insert under one lock of the tenant row: two racing
    // creations cannot both take the last seat.
    s << "select 1 from plataforma.tenants where id = :t for update", soci::use(tid);
    int full = 0;
    s << "select (count(u.id) >= coalesce((select max_usuarios from plataforma.licencas "
         "where tenant_id = t.id order by id desc limit 1), 2147483647))::int "
         "from plataforma.tenants t "
         "left join plataforma.usuarios u on u.tenant_id = t.id and u.ativo "
         "where t.id = :t group by t.id",
        soci::use(tid), soci::into(full);
    if (full) throw Error(errc::quota_exceeded, "cota de usuários da licença atingida", "licenca");
    // A license past its end, suspended or cancelled admits no new user (the tenant keeps
    // the ones it has); no license at all limits nothing, as for uploads.
    std::string status, fim;
    s << "select case when status in ('ativa', 'teste') and fim < current_date then 'expirada' else status end, "
         "fim::text from plataforma.licencas where tenant_id = :t order by id desc limit 1",
        soci::use(tid), soci::into(status), soci::into(fim);
    if (s.got_data() && status == "expirada")
      throw Error(errc::license_inactive, "a licença do município terminou em " + fim + ": novos usuários recusados", "licenca");
    if (s.got_data() && (status == "suspensa" || status == "cancelada"))
      throw Error(errc::license_inactive, "a licença do município está " + status + ": novos usuários recusados", "licenca");
    check_email_free(s, *f.email, 0);
    int adm = f.adm.value_or(false) ? 1 : 0, publico = f.publico.value_or(false) ? 1 : 0;
    std::string telefone = f.telefone.value_or(""), cargo = f.cargo.value_or("");
    s << "insert into plataforma.usuarios (tenant_id, empresa_id, email, nome, telefone, cargo, "
         "adm, publico) values (:t, (select id from plataforma.empresas where tenant_id = :t2), "
         ":e, :n, nullif(:f, ''), nullif(:c, ''), :a::int::boolean, :p::int::boolean) returning id",
        soci::use(tid), soci::use(tid), soci::use(*f.email), soci::use(*f.nome),
        soci::use(telefone), soci::use(cargo), soci::use(adm), soci::use(publico), soci::into(uid);
    replace_permissions(
        s, uid, f.permissoes.value_or(std::vector<store::LayerPermission>{{"*", true, false}}));
    tx.commit();
    return static_cast<std::int64_t>(uid);
  });
}

void update(store::Pool& pool, std::int64_t tenant_id, std::int64_t id, const Fields& f) {
  pool.run([&](soci::session& s) {
    soci::transaction tx(s);
    if (f.email) check_email_free(s, *f.email, id);
    store::Sql q("update plataforma.usuarios set atualizado_em = now()");
    auto set = [&](const char* column, const std::optional<std::string>& v) {
      if (v) q << ", " << column << " = nullif(", q.bind(*v), q << ", '')";
    };
    set("nome", f.nome);
    set("email", f.email);
    set("telefone", f.telefone);
    set("cargo", f.cargo);
    if (f.adm) q << ", adm = " << (*f.adm ? "true" : "false");
    if (f.publico) q << ", publico = " << (*f.publico ? "true" : "false");
    q << " where id = " << std::to_string(id) << " and tenant_id = " << std::to_string(tenant_id);
    if (store::execute(s, q) == 0) throw Error(errc::not_found, "usuário não encontrado", "id");
    if (f.permissoes) replace_permissions(s, id, *f.permissoes);
    tx.commit();
  });
}

void deactivate(store::Pool& pool, std::int64_t tenant_id, std::int64_t id) {
  pool.run([&](soci::session& s) {
    long long uid = id, tid = tenant_id;
    soci::statement st = (s.prepare << "update plataforma.usuarios set ativo = false, atualizado_em = now() "
                                       "where id = :i and tenant_id = :t",
                          soci::use(uid), soci::use(tid));
    st.execute(true);
    if (st.get_affected_rows() == 0) throw Error(errc::not_found, "usuário não encontrado", "id");
  });
}

}  // namespace cadastre::platform::users
