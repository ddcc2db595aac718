#include "platform/files/store.hpp"

#include <soci/soci.h>

#include "store/sql.hpp"

namespace cadastre::platform::files {
namespace {

using store::Sql;

const char* kJson =
    "jsonb_build_object('id', a.id, 'finalidade', a.finalidade, 'idProjeto', a.projeto_id, 'idCamada', a.camada_id, "
    "'idGeometria', a.geometria_id, 'idEmpresa', a.empresa_id, 'idUsuario', a.usuario_id, 'nome', a.nome, "
    "'descricao', a.descricao, 'chave', a.chave, 'url', '/arquivos/fotos?url=' || a.chave, 'tipoMidia', a.tipo_midia, "
    "'tamanho', a.tamanho, 'sha256', a.sha256, 'criadoPor', a.criado_por, 'criadoEm', a.criado_em, "
    "'atualizadoEm', a.atualizado_em)";

const char* kColumns =
    "select a.id::text, a.finalidade, a.projeto_id::text, a.camada_id::text, a.geometria_id::text, "
    "a.empresa_id::text, a.usuario_id::text, a.nome, a.chave, a.tipo_midia from projeto.arquivos a where ";

std::optional<std::int64_t> id_of(const store::Value& v) {
  return v ? std::optional<std::int64_t>(std::stoll(*v)) : std::nullopt;
}

store::Value text_of(const std::optional<std::int64_t>& v) {
  return v ? store::Value(std::to_string(*v)) : std::nullopt;
}

std::optional<Record> one(store::Pool& pool, Sql& q) {
  auto rows = pool.with([&](soci::session& s) { return store::fetch(s, q); });
  if (rows.empty()) return std::nullopt;
  const store::Row& r = rows[0];
  return Record{std::stoll(*r[0]), *r[1], id_of(r[2]), id_of(r[3]), id_of(r[4]), id_of(r[5]), id_of(r[6]),
                *r[7], *r[8], *r[9]};
}

std::string record_json(soci::session& s, std::int64_t id) {
  Sql q(std::string("select ") + kJson + "::text from projeto.arquivos a where a.id = ");
  q.bind(std::to_string(id), "bigint");
  return store::fetch_value(s, q).value();
}

std::optional<std::string> replace(store::Pool& platform, const std::string& table, std::int64_t id,
                                   const std::string& column, const std::string& link) {
  // The old key is read in the same statement that writes the new one (a row lock).
  Sql q("with old as (select " + column + " from " + table + " where id = ");
  q.bind(std::to_string(id), "bigint");
  q << " for update) update " + table + " t set " + column + " = ";
  q.bind(link);
  q << " from old where t.id = ";
  q.bind(std::to_string(id), "bigint");
  q << " returning old." + column;
  return platform.with([&](soci::session& s) { return store::fetch_value(s, q); });
}

}  // namespace

std::optional<Record> find(store::Pool& pool, std::int64_t id) {
  Sql q(std::string(kColumns) + "a.id = ");
  q.bind(std::to_string(id), "bigint");
  return one(pool, q);
}

std::optional<Record> find_by_key(store::Pool& pool, const std::string& key) {
  Sql q(std::string(kColumns) + "a.chave = ");
  q.bind(key);
  return one(pool, q);
}

std::string create(store::Pool& pool, const NewRecord& r) {
  Sql q("insert into projeto.arquivos (finalidade, projeto_id, camada_id, geometria_id, empresa_id, usuario_id, "
        "nome, descricao, chave, tipo_midia, tamanho, sha256, criado_por) values (");
  q.bind(r.finalidade) << ", ";
  q.bind(text_of(r.projeto), "bigint") << ", ";
  q.bind(text_of(r.camada), "bigint") << ", ";
  q.bind(text_of(r.geometria), "bigint") << ", ";
  q.bind(text_of(r.empresa), "bigint") << ", ";
  q.bind(text_of(r.usuario), "bigint") << ", ";
  q.bind(r.nome) << ", ";
  q.bind(r.descricao) << ", ";
  q.bind(r.file.key) << ", ";
  q.bind(r.file.media_type) << ", ";
  q.bind(std::to_string(r.file.size), "bigint") << ", ";
  q.bind(r.file.sha256) << ", ";
  q.bind(std::to_string(r.criado_por), "bigint") << ") returning id::text";
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    std::int64_t id = std::stoll(store::fetch_value(s, q).value());
    std::string out = record_json(s, id);
    tx.commit();
    return out;
  });
}

std::string json(store::Pool& pool, std::int64_t id) {
  return pool.with([&](soci::session& s) { return record_json(s, id); });
}

std::string update(store::Pool& pool, std::int64_t id, const std::optional<std::string>& nome,
                   const std::optional<std::optional<std::string>>& descricao) {
  Sql q("update projeto.arquivos set atualizado_em = now()");
  if (nome) q << ", nome = ", q.bind(*nome);
  if (descricao) q << ", descricao = ", q.bind(*descricao);
  q << " where id = ", q.bind(std::to_string(id), "bigint");
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    store::execute(s, q);
    std::string out = record_json(s, id);
    tx.commit();
    return out;
  });
}

bool remove(store::Pool& pool, std::int64_t id) {
  Sql q("delete from projeto.arquivos where id = ");
  q.bind(std::to_string(id), "bigint");
  return pool.with([&](soci::session& s) { return store::execute(s, q) > 0; });
}

void remove_by_key(store::Pool& pool, const std::string& key) {
  Sql q("delete from projeto.arquivos where chave = ");
  q.bind(key);
  pool.with([&](soci::session& s) { store::execute(s, q); });
}

std::string of_geometry(store::Pool& pool, std::int64_t geometria) {
  Sql q(std::string("select coalesce(jsonb_agg(") + kJson +
        " order by a.id), '[]')::text from projeto.arquivos a where a.geometria_id = ");
  q.bind(std::to_string(geometria), "bigint");
  return pool.with([&](soci::session& s) { return store::fetch_value(s, q).value_or("[]"); });
}

std::string templates(store::Pool& pool) {
  Sql q("select coalesce(jsonb_agg(jsonb_build_object('id', t.id, 'nome', t.nome, 'tipo', t.tipo, "
        "'descricao', t.descricao, 'geometria', t.geometria, 'campos', t.campos) order by t.tipo, t.nome), '[]')::text "
        "from projeto.templates t where t.ativo");
  return pool.with([&](soci::session& s) { return store::fetch_value(s, q).value_or("[]"); });
}

std::optional<std::optional<std::int64_t>> company_tenant(store::Pool& platform, std::int64_t empresa) {
  Sql q("select coalesce(tenant_id::text, '') from plataforma.empresas where id = ");
  q.bind(std::to_string(empresa), "bigint");
  auto v = platform.with([&](soci::session& s) { return store::fetch(s, q); });
  if (v.empty()) return std::nullopt;
  const std::string& t = *v[0][0];
  return t.empty() ? std::optional<std::int64_t>() : std::optional<std::int64_t>(std::stoll(t));
}

std::optional<std::string> set_logo(store::Pool& platform, std::int64_t empresa, const std::string& link) {
  return replace(platform, "plataforma.empresas", empresa, "logo", link);
}

std::optional<std::string> set_user_photo(store::Pool& platform, std::int64_t usuario, const std::string& link) {
  return replace(platform, "plataforma.usuarios", usuario, "foto", link);
}

void clear_platform_link(store::Pool& platform, const std::string& link) {
  Sql a("update plataforma.empresas set logo = null where logo = ");
  a.bind(link);
  Sql b("update plataforma.usuarios set foto = null where foto = ");
  b.bind(link);
  platform.with([&](soci::session& s) {
    soci::transaction tx(s);
    store::execute(s, a);
    store::execute(s, b);
    tx.commit();
  });
}

}  // namespace cadastre::platform::files
