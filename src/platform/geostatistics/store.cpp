#include "platform/geostatistics/store.hpp"

#include <soci/soci.h>

#include <fmt/format.h>

#include <charconv>
#include <map>

#include "cadastre/error.hpp"
#include "platform/common/layer_table.hpp"
#include "platform/geostatistics/input.hpp"
#include "platform/geostatistics/samples.hpp"
#include "platform/guard/guard.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::geostatistics {
namespace {

const std::string kJson =
    "jsonb_build_object('id', v.id, 'idProjeto', v.projeto_id, 'nome', v.nome, 'tipo', v.tipo, 'pepita', v.pepita, "
    "'contribuicao', v.contribuicao, 'alcance', v.alcance, 'log', v.log, 'idCamada', v.camada_id, "
    "'idCampo', v.campo_id, 'idCampoChk', v.campo_chk_id, 'epsg', v.epsg, 'criadoPor', v.criado_por, "
    "'criadoEm', v.criado_em, 'atualizadoEm', v.atualizado_em)";

const std::map<std::string, std::string> kOrder = {{"id", "v.id"}, {"nome", "v.nome"}, {"criadoEm", "v.criado_em"}};

std::string n(std::int64_t v) { return std::to_string(v); }
// Every digit of a double (std::to_string keeps six decimals).
std::string d(double v) { return fmt::format("{:.17g}", v); }

}  // namespace

std::string variogram_json(const service::Caller& s, std::int64_t id) {
  store::Sql q("select " + kJson + "::text from projeto.variogramas v where v.id = ");
  q.bind(n(id), "bigint");
  auto v = s.db->with([&](soci::session& db) { return store::fetch_value(db, q); });
  if (!v) throw Error(errc::not_found, "variograma não encontrado", "id");
  return *v;
}

std::optional<Variogram> find_variogram(const service::Caller& s, std::int64_t id) {
  store::Sql q("select id::text, projeto_id::text, camada_id::text, campo_id::text, campo_chk_id::text, nome, tipo, "
               "pepita::text, contribuicao::text, alcance::text, log::text, epsg::text "
               "from projeto.variogramas where id = ");
  q.bind(n(id), "bigint");
  auto rows = s.db->with([&](soci::session& db) { return store::fetch(db, q); });
  if (rows.empty()) return std::nullopt;
  const auto& r = rows[0];
  Variogram v;
  v.id = std::stoll(*r[0]);
  v.projeto = std::stoll(*r[1]);
  v.camada = std::stoll(*r[2]);
  v.campo = std::stoll(*r[3]);
  if (r[4]) v.campo_chk = std::stoll(*r[4]);
  v.nome = *r[5];
  v.model = {parse_type(*r[6], "tipo"), number_of(*r[7]), number_of(*r[8]), number_of(*r[9])};
  v.log = *r[10] == "true";
  v.epsg = std::stoi(*r[11]);
  return v;
}

std::int64_t insert_variogram(const service::Caller& s, const Variogram& v) {
  store::Sql q("insert into projeto.variogramas (projeto_id, nome, tipo, pepita, contribuicao, alcance, log, "
               "camada_id, campo_id, campo_chk_id, epsg, criado_por) values (");
  q.bind(n(v.projeto), "bigint") << ", ";
  q.bind(v.nome) << ", ";
  q.bind(std::string(type_name(v.model.type))) << ", ";
  q.bind(d(v.model.nugget), "float8") << ", ";
  q.bind(d(v.model.psill), "float8") << ", ";
  q.bind(d(v.model.range), "float8") << ", ";
  q.bind(v.log ? "true" : "false", "boolean") << ", ";
  q.bind(n(v.camada), "bigint") << ", ";
  q.bind(n(v.campo), "bigint") << ", ";
  q.bind(v.campo_chk ? store::Value(n(*v.campo_chk)) : std::nullopt, "bigint") << ", ";
  q.bind(std::to_string(v.epsg), "integer") << ", ";
  q.bind(n(s.user.user_id), "bigint") << ") returning id::text";
  return std::stoll(*s.db->with([&](soci::session& db) { return store::fetch_value(db, q); }));
}

void update_variogram(const service::Caller& s, const Variogram& v) {
  store::Sql q("update projeto.variogramas set nome = ");
  q.bind(v.nome) << ", tipo = ";
  q.bind(std::string(type_name(v.model.type))) << ", pepita = ";
  q.bind(d(v.model.nugget), "float8") << ", contribuicao = ";
  q.bind(d(v.model.psill), "float8") << ", alcance = ";
  q.bind(d(v.model.range), "float8") << ", log = ";
  q.bind(v.log ? "true" : "false", "boolean") << ", epsg = ";
  q.bind(std::to_string(v.epsg), "integer") << ", campo_chk_id = ";
  q.bind(v.campo_chk ? store::Value(n(*v.campo_chk)) : std::nullopt, "bigint")
      << ", atualizado_em = now() where id = ";
  q.bind(n(v.id), "bigint");
  s.db->with([&](soci::session& db) { store::execute(db, q); });
}

store::PageRows list_variograms(const service::Caller& s, std::optional<std::int64_t> projeto, const Page& page) {
  // The caller's id and flag are numbers we write (guard::project_role_sql); the project id is bound.
  store::Sql cte("with sel as (select v.* from projeto.variogramas v where " + guard::project_role_sql(s, "v.projeto_id") +
                 " is not null");
  if (projeto) {
    cte << " and v.projeto_id = ";
    cte.bind(n(*projeto), "bigint");
  }
  cte << ") select (select count(*) from sel)::text, coalesce(json_agg(p.r), '[]')::text from (select " << kJson
      << " as r from sel v order by " << kOrder.at(page.order_by) << (page.descending ? " desc" : " asc") << ", v.id";
  store::append_page(cte, page.paging);
  cte << ") p";
  return s.db->with([&](soci::session& db) { return store::fetch_page(db, cte); });
}

Domain load_domain(const service::Caller& s, std::int64_t id, std::int64_t projeto, int epsg) {
  store::Sql q("select st_astext(t.g), st_xmin(t.g)::text, st_ymin(t.g)::text, st_xmax(t.g)::text, st_ymax(t.g)::text, "
               "(geometrytype(g.geom) in ('POLYGON', 'MULTIPOLYGON'))::text, st_xmin(g.geom)::text, st_xmax(g.geom)::text "
               "from projeto.geometrias g "
               "join projeto.camadas c on c.id = g.camada_id cross join lateral (select st_transform(g.geom, ");
  q.bind(std::to_string(epsg), "integer") << ") as g) t where ";
  common::where_geometry(q, "g.", id);
  q << " and c.projeto_id = ";
  q.bind(n(projeto), "bigint");
  auto rows = s.db->with([&](soci::session& db) { return store::fetch(db, q); });
  if (rows.empty())
    throw Error(errc::invalid_argument, "idDominioGeografico: a geometria não é do projeto do variograma",
                "idDominioGeografico");
  if (rows[0][5] != "true")
    throw Error(errc::invalid_argument, "idDominioGeografico: o domínio deve ser um polígono", "idDominioGeografico");
  const auto& r = rows[0];
  return {*r[0], number_of(*r[1]), number_of(*r[2]), number_of(*r[3]), number_of(*r[4]), number_of(*r[6]), number_of(*r[7])};
}

std::int64_t create_raster_layer(const service::Caller& s, std::int64_t projeto, const std::string& nome,
                                 const Domain& box, int epsg,
                                 const std::function<void(const std::string& relative, std::int64_t id)>& write) {
  return s.db->with([&](soci::session& db) {
    soci::transaction tx(db);
    store::Sql ins("insert into projeto.camadas (projeto_id, nome, tipo, geometria, criado_por, ordem) values (");
    ins.bind(n(projeto), "bigint") << ", ";
    ins.bind(nome) << ", 'tiff', 'qualquer', ";
    ins.bind(n(s.user.user_id), "bigint")
        << ", coalesce((select max(ordem) + 1 from projeto.camadas where projeto_id = ";
    ins.bind(n(projeto), "bigint") << "), 0)) returning id::text";
    std::int64_t id = std::stoll(*store::fetch_value(db, ins));
    std::string relative = "camadas/" + n(id) + "/krigagem.tif";
    store::Sql upd("update projeto.camadas set arquivo = ");
    upd.bind(relative) << ", extensao = st_transform(st_makeenvelope(";
    upd.bind(d(box.minx), "float8") << ", ";
    upd.bind(d(box.miny), "float8") << ", ";
    upd.bind(d(box.maxx), "float8") << ", ";
    upd.bind(d(box.maxy), "float8") << ", ";
    upd.bind(std::to_string(epsg), "integer") << "), 4674) where id = ";
    upd.bind(n(id), "bigint");
    store::execute(db, upd);
    write(relative, id);
    tx.commit();
    return id;
  });
}

}  // namespace cadastre::platform::geostatistics
