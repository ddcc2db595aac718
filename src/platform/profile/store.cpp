#include "platform/profile/store.hpp"

#include <soci/soci.h>

#include "cadastre/error.hpp"

namespace cadastre::platform::profile {

std::string profile_json(store::Pool& pool, std::int64_t user_id, std::int64_t tenant_id) {
  return pool.with([&](soci::session& s) {
    std::string out;
    long long uid = user_id, tid = tenant_id;
    // The pending e-mail is the one of the change link still usable (a newer request
    // replaces an older link, so there is at most one).
    s << "select json_build_object('id', u.id, 'nome', u.nome, 'email', u.email, 'telefone', "
         "u.telefone, "
         "'cargo', u.cargo, 'foto', u.foto, 'adm', u.adm, 'admPlataforma', u.adm_plataforma, "
         "'idEmpresa', u.empresa_id, 'idProvedor', u.provedor_id, 'usuarioPublico', u.publico, "
         "'criadoEm', u.criado_em, "
         "'tenant', json_build_object('id', t.id, 'slug', t.slug, 'nome', t.nome), "
         "'emailPendente', (select o.dado from plataforma.tokens_uso_unico o "
         "where o.usuario_id = u.id and o.finalidade = 'confirmar_email' and o.usado_em is null "
         "and o.expira_em > now() order by o.criado_em desc limit 1))::text "
         "from plataforma.usuarios u, plataforma.tenants t where u.id = :u and t.id = :t",
        soci::use(uid), soci::use(tid), soci::into(out);
    if (!s.got_data()) throw Error(errc::not_found, "usuário não encontrado");
    return out;
  });
}

void update(store::Pool& pool, std::int64_t user_id, const Change& c) {
  pool.run([&](soci::session& s) {
    long long uid = user_id;
    auto ind = [](const std::optional<std::string>& v) { return v ? soci::i_ok : soci::i_null; };
    std::string nome = c.nome.value_or(""), telefone = c.telefone.value_or(""), cargo = c.cargo.value_or("");
    soci::indicator ni = ind(c.nome), ti = ind(c.telefone), ci = ind(c.cargo);
    int set_tel = c.telefone ? 1 : 0, set_cargo = c.cargo ? 1 : 0;
    s << "update plataforma.usuarios set nome = coalesce(:n, nome), "
         "telefone = case when :st = 1 then nullif(:t, '') else telefone end, "
         "cargo = case when :sc = 1 then nullif(:c, '') else cargo end, atualizado_em = now() where id = :u",
        soci::use(nome, ni), soci::use(set_tel), soci::use(telefone, ti), soci::use(set_cargo), soci::use(cargo, ci),
        soci::use(uid);
  });
}

std::string password_hash(store::Pool& pool, std::int64_t user_id) {
  return pool.with([&](soci::session& s) {
    std::string hash;
    soci::indicator ind;
    long long uid = user_id;
    s << "select senha_hash from plataforma.usuarios where id = :u", soci::use(uid), soci::into(hash, ind);
    return s.got_data() && ind == soci::i_ok ? hash : std::string();
  });
}

void set_password(store::Pool& pool, std::int64_t user_id, const std::string& hash) {
  pool.run([&](soci::session& s) {
    long long uid = user_id;
    s << "update plataforma.usuarios set senha_hash = :h, atualizado_em = now() where id = :u", soci::use(hash),
        soci::use(uid);
  });
}

bool email_taken(store::Pool& pool, const std::string& email, std::int64_t user_id) {
  return pool.with([&](soci::session& s) {
    int n = 0;
    long long uid = user_id;
    s << "select count(*) from plataforma.usuarios where lower(email) = lower(:e) and id <> :u", soci::use(email),
        soci::use(uid), soci::into(n);
    return n > 0;
  });
}

}  // namespace cadastre::platform::profile
