#include "platform/custom_maps/store.hpp"

#include <soci/soci.h>

#include <map>

#include "cadastre/error.hpp"
#include "platform/guard/guard.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::custom_maps {
namespace {

constexpr const char* kMapJson =
    "jsonb_build_object('id', m.id, 'idProjeto', m.projeto_id, 'nome', m.nome, 'descricao', m.descricao, "
    "'camadas', m.camadas, 'extensao', to_jsonb(m.extensao), 'idMapaBase', m.mapa_base_id, "
    "'criadoPor', m.criado_por, 'criadoEm', m.criado_em, 'atualizadoEm', m.atualizado_em)";

const std::map<std::string, std::string> kColumns = {
    {"id", "m.id"}, {"nome", "m.nome"}, {"atualizadoEm", "m.atualizado_em"}};

std::string id_text(std::int64_t id) { return std::to_string(id); }

std::string extent_text(const std::optional<std::array<double, 4>>& e) {
  if (!e) return {};
  std::string out = "{";
  for (std::size_t i = 0; i < 4; ++i) out += (i ? "," : "") + std::to_string((*e)[i]);
  return out + "}";
}

void check_base_map(soci::session& s, std::int64_t id) {
  store::Sql q("select 1 from geografia.mapas_base where id = ");
  q.bind(id_text(id), "integer");
  if (!store::fetch_value(s, q))
    throw Error(errc::invalid_argument, "idMapaBase: o mapa base " + id_text(id) + " não existe", "idMapaBase");
}

std::string select_map(soci::session& s, std::int64_t id) {
  store::Sql q(std::string("select ") + kMapJson + "::text from projeto.mapas_personalizados m where m.id = ");
  q.bind(id_text(id), "bigint");
  auto v = store::fetch_value(s, q);
  if (!v) throw Error(errc::not_found, "mapa personalizado " + id_text(id) + " não encontrado", "id");
  return *v;
}

}  // namespace

std::string read(store::Pool& pool, std::int64_t id) {
  return pool.with([&](soci::session& s) { return select_map(s, id); });
}

store::PageRows list(const service::Caller& scope, std::optional<std::int64_t> projeto, const Page& page) {
  std::string where = guard::project_role_sql(scope, "m.projeto_id") + " is not null";
  if (projeto) where += " and m.projeto_id = " + id_text(*projeto);  // a parsed number
  store::Sql q("select (select count(*) from projeto.mapas_personalizados m where " + where +
               ")::text, coalesce(jsonb_agg(r), '[]')::text from (select " + kMapJson +
               " as r from projeto.mapas_personalizados m where " + where + " order by " + kColumns.at(page.order_by) +
               (page.descending ? " desc" : " asc") + ", m.id");
  store::append_page(q, page.paging);
  q << ") p";
  return scope.db->with([&](soci::session& s) { return store::fetch_page(s, q); });
}

std::string create(store::Pool& pool, std::int64_t user, const MapFields& f) {
  return pool.with([&](soci::session& s) {
    if (f.mapa_base) check_base_map(s, *f.mapa_base);
    store::Sql q("insert into projeto.mapas_personalizados (projeto_id, nome, descricao, camadas, extensao, mapa_base_id, "
                 "criado_por) values (");
    q.bind(id_text(*f.projeto), "bigint") << ", ";
    q.bind(*f.nome) << ", ";
    q.bind(f.descricao.value_or("")) << ", ";
    q.bind(layers_json(*f.camadas), "jsonb") << ", ";
    q.bind(f.extensao ? store::Value(extent_text(f.extensao)) : std::nullopt, "double precision[]") << ", ";
    q.bind(f.mapa_base ? store::Value(id_text(*f.mapa_base)) : std::nullopt, "integer") << ", ";
    q.bind(id_text(user), "bigint") << ") returning id::text";
    return select_map(s, std::stoll(*store::fetch_value(s, q)));
  });
}

std::string update(store::Pool& pool, std::int64_t id, const MapFields& f) {
  return pool.with([&](soci::session& s) {
    if (f.mapa_base) check_base_map(s, *f.mapa_base);
    store::Sql q("update projeto.mapas_personalizados set atualizado_em = now()");
    if (f.nome) q << ", nome = ", q.bind(*f.nome);
    if (f.descricao) q << ", descricao = ", q.bind(*f.descricao);
    if (f.camadas) q << ", camadas = ", q.bind(layers_json(*f.camadas), "jsonb");
    if (f.set_extensao)
      q << ", extensao = ", q.bind(f.extensao ? store::Value(extent_text(f.extensao)) : std::nullopt, "double precision[]");
    if (f.set_mapa_base)
      q << ", mapa_base_id = ", q.bind(f.mapa_base ? store::Value(id_text(*f.mapa_base)) : std::nullopt, "integer");
    q << " where id = ";
    q.bind(id_text(id), "bigint");
    if (store::execute(s, q) == 0) throw Error(errc::not_found, "mapa personalizado " + id_text(id) + " não encontrado", "id");
    return select_map(s, id);
  });
}

void remove(store::Pool& pool, std::int64_t id) {
  store::Sql q("delete from projeto.mapas_personalizados where id = ");
  q.bind(id_text(id), "bigint");
  pool.run([&](soci::session& s) {
    if (store::execute(s, q) == 0) throw Error(errc::not_found, "mapa personalizado " + id_text(id) + " não encontrado", "id");
  });
}

}  // namespace cadastre::platform::custom_maps
