#include "platform/layers/store.hpp"

#include <soci/soci.h>

#include <cstdlib>
#include <map>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "platform/guard/guard.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::layers {
namespace {

const std::map<std::string, std::string> kColumns = {
    {"id", "c.id"}, {"nome", "c.nome"}, {"ordem", "c.ordem"}, {"criadoEm", "c.criado_em"}};

std::string id_text(std::int64_t id) { return std::to_string(id); }

// FROM and WHERE of the layers the caller sees (`r.papel`: the caller's role), with the
// filter's conditions (values bound). Called once per use of the clause in a statement.
void visible(store::Sql& q, const service::Caller& s, const ListFilter& f) {
  q << " from projeto.camadas c join projeto.projetos p on p.id = c.projeto_id"
       " cross join lateral (select "
    << guard::layer_role_sql(s, "c.id") << " as papel) r where r.papel is not null";
  // An inactive project hides its layers as its own state hides it.
  q << (f.inactive ? " and not (c.ativo and p.ativo)" : " and c.ativo and p.ativo");
  if (f.projeto) q << " and c.projeto_id = ", q.bind(id_text(*f.projeto), "bigint");
  if (f.modulo) q << " and c.modulo_id = ", q.bind(id_text(*f.modulo), "integer");
  if (!f.ids.empty()) {
    std::string ids = "{";
    for (std::size_t i = 0; i < f.ids.size(); ++i) ids += (i ? "," : "") + id_text(f.ids[i]);
    q << " and c.id = any(", q.bind(ids + "}", "bigint[]"), q << ")";
  }
  if (f.prop && f.valor) q << " and c.propriedades ->> ", q.bind(*f.prop), q << " = ", q.bind(*f.valor);
  else if (f.prop) q << " and jsonb_exists(c.propriedades, ", q.bind(*f.prop), q << ")";
  if (f.nome) q << " and strpos(lower(c.nome), lower(", q.bind(*f.nome), q << ")) > 0";
}

std::string fetch_text(const service::Caller& s, const store::Sql& q) {
  return s.db->with([&](soci::session& db) { return store::fetch_value(db, q).value_or(""); });
}

const std::string kFormJson =
    "jsonb_build_object('id', f.id, 'idCamada', f.camada_id, 'nome', f.nome, 'descricao', f.descricao, "
    "'ativo', f.ativo, 'ordem', f.ordem)";
const std::string kFieldJson =
    "jsonb_build_object('id', k.id, 'idFormulario', k.formulario_id, 'nome', k.nome, 'chave', k.chave, "
    "'tipo', k.tipo, 'obrigatorio', k.obrigatorio, 'unico', k.unico, 'minimo', k.minimo, 'maximo', k.maximo, "
    "'padrao', k.padrao, 'opcoes', k.opcoes, 'dominio', k.dominio, 'formula', k.formula, "
    "'avaliacao', k.avaliacao, 'ajuda', k.ajuda, 'ordem', k.ordem, 'ativo', k.ativo)";

std::optional<double> number(const store::Value& v) {
  if (!v) return std::nullopt;
  return std::strtod(v->c_str(), nullptr);
}

}  // namespace

std::string layer_json_sql(const std::string& papel_sql) {
  return "jsonb_build_object('id', c.id, 'idProjeto', c.projeto_id, 'nome', c.nome, 'descricao', c.descricao, "
         "'tipo', c.tipo, 'geometria', c.geometria, 'ativo', c.ativo, 'privada', c.privada, "
         "'moduloId', c.modulo_id, 'propriedades', c.propriedades, 'estilo', c.estilo, 'rotulo', c.rotulo, "
         "'categorias', c.categorias, 'ordem', c.ordem, 'geracao', c.geracao, 'papel', " +
         papel_sql + ")";
}

std::string geometry_types_sql(const std::string& geometria) {
  if (geometria == "ponto") return "array['POINT','MULTIPOINT']";
  if (geometria == "linha") return "array['LINESTRING','MULTILINESTRING']";
  if (geometria == "poligono") return "array['POLYGON','MULTIPOLYGON']";
  return {};
}

std::string list(const service::Caller& s, const ListFilter& f, bool with_project) {
  store::Sql q("select coalesce(jsonb_agg(" + layer_json_sql("r.papel") +
               (with_project ? " || jsonb_build_object('nomeProjeto', p.nome)" : "") +
               " order by c.projeto_id, c.ordem, c.id), '[]')::text");
  visible(q, s, f);
  q.reuse_plan();  // ids and flags: a layer list's plan does not hang on them
  return fetch_text(s, q);
}

store::PageRows page(const service::Caller& s, const ListFilter& f, const Page& pg) {
  store::Sql q("select (select count(*)");
  visible(q, s, f);
  q << ")::text, coalesce(json_agg(x.j), '[]')::text from (select " << layer_json_sql("r.papel") << " as j";
  visible(q, s, f);
  q << " order by " << kColumns.at(pg.order_by) << (pg.descending ? " desc" : " asc") << ", c.id";
  store::append_page(q, pg.paging);
  q << ") x";
  return s.db->with([&](soci::session& db) { return store::fetch_page(db, q); });
}

std::string preview(const service::Caller& s, const ListFilter& f, int limit) {
  // The limit applies before the counts and extents, each an index scan of one layer.
  store::Sql q(
      "select coalesce(jsonb_agg(jsonb_build_object('id', c.id, 'idProjeto', c.projeto_id, 'nome', c.nome, "
      "'geometria', c.geometria, 'tipo', c.tipo, 'geometrias', x.n, 'bbox', case when x.e is null then null "
      "else jsonb_build_array(st_xmin(x.e), st_ymin(x.e), st_xmax(x.e), st_ymax(x.e)) end) "
      "order by c.projeto_id, c.ordem, c.id), '[]')::text from (select c.*");
  visible(q, s, f);
  q << " order by c.projeto_id, c.ordem, c.id limit " << std::to_string(limit)
    << ") c cross join lateral (select r.n, coalesce(r.e, c.extensao::box2d) as e "
       "from projeto.camada_resumo(c.id) r) x";
  return fetch_text(s, q);
}

std::string one(const service::Caller& s, std::int64_t id) {
  store::Sql q("select " + layer_json_sql(guard::layer_role_sql(s, "c.id")) + "::text from projeto.camadas c where c.id = ");
  q.bind(id_text(id), "bigint");
  std::string out = fetch_text(s, q);
  if (out.empty()) throw Error(errc::not_found, "camada " + id_text(id) + " não encontrada", "id");
  return out;
}

std::string one_nested(const service::Caller& s, std::int64_t id) {
  store::Sql q("select (" + layer_json_sql(guard::layer_role_sql(s, "c.id")) +
               " || jsonb_build_object('formularios', coalesce((select jsonb_agg(" + kFormJson +
               " || jsonb_build_object('campos', coalesce((select jsonb_agg(" + kFieldJson +
               " order by k.ordem, k.id) from projeto.campos k where k.formulario_id = f.id), '[]')) "
               "order by f.ordem, f.id) from projeto.formularios f where f.camada_id = c.id), '[]')))::text "
               "from projeto.camadas c where c.id = ");
  q.bind(id_text(id), "bigint");
  std::string out = fetch_text(s, q);
  if (out.empty()) throw Error(errc::not_found, "camada " + id_text(id) + " não encontrada", "id");
  return out;
}

std::int64_t create(const service::Caller& s, const LayerFields& f) {
  std::string projeto = id_text(*f.projeto);
  store::Sql q(
      "insert into projeto.camadas (projeto_id, nome, descricao, geometria, privada, modulo_id, propriedades, "
      "estilo, ordem, criado_por) values (");
  q.bind(projeto, "bigint"), q << ", ", q.bind(*f.nome), q << ", ";
  q.bind(f.descricao ? *f.descricao : std::nullopt), q << ", coalesce(", q.bind(f.geometria), q << ", 'qualquer'), ";
  q.bind(f.privada.value_or(false) ? "true" : "false", "boolean"), q << ", ";
  q.bind(f.modulo && *f.modulo ? std::optional(id_text(**f.modulo)) : std::nullopt, "integer"), q << ", ";
  q.bind(f.propriedades.value_or("{}"), "jsonb"), q << ", ", q.bind(f.estilo.value_or("{}"), "jsonb"), q << ", ";
  // A new layer goes last in its project unless the body places it.
  q << "coalesce(", q.bind(f.ordem ? std::optional(id_text(*f.ordem)) : std::nullopt, "integer");
  q << ", (select coalesce(max(ordem) + 1, 0) from projeto.camadas where projeto_id = ", q.bind(projeto, "bigint");
  q << ")), ", q.bind(id_text(s.user.user_id), "bigint"), q << ") returning id";
  return std::stoll(fetch_text(s, q));
}

void update(const service::Caller& s, std::int64_t id, const LayerFields& f) {
  s.db->run([&](soci::session& db) {
    soci::transaction tx(db);
    if (f.geometria && *f.geometria != "qualquer") {
      store::Sql check("select count(*)::text from projeto.geometrias where camada_id = ");
      check.bind(id_text(id), "bigint");
      check << " and not (geometrytype(geom) = any(" << geometry_types_sql(*f.geometria) << "))";
      std::string wrong = store::fetch_value(db, check).value_or("0");
      if (wrong != "0")
        throw Error(errc::conflict, "a camada tem " + wrong + " geometrias que não são do tipo " + *f.geometria,
                    "geometria");
    }
    // Every change may change what the tiles show (a name in a legend, a style, privacy).
    store::Sql q("update projeto.camadas set geracao = geracao + 1, atualizado_em = now()");
    if (f.nome) q << ", nome = ", q.bind(*f.nome);
    if (f.descricao) q << ", descricao = ", q.bind(*f.descricao);
    if (f.geometria) q << ", geometria = ", q.bind(*f.geometria);
    if (f.privada) q << ", privada = " << (*f.privada ? "true" : "false");
    if (f.modulo) q << ", modulo_id = ", q.bind(*f.modulo ? std::optional(id_text(**f.modulo)) : std::nullopt, "integer");
    if (f.propriedades) q << ", propriedades = ", q.bind(*f.propriedades, "jsonb");
    if (f.estilo) q << ", estilo = ", q.bind(*f.estilo, "jsonb");
    if (f.ordem) q << ", ordem = ", q.bind(id_text(*f.ordem), "integer");
    if (f.clear_rotulo) q << ", rotulo = null";
    if (f.clear_categorias) q << ", categorias = null";
    q << " where id = ", q.bind(id_text(id), "bigint");
    if (store::execute(db, q) == 0) throw Error(errc::not_found, "camada " + id_text(id) + " não encontrada", "id");
    tx.commit();
  });
}

void set_active(const service::Caller& s, std::int64_t id, bool active) {
  const char* to = active ? "true" : "false";
  store::Sql q("update projeto.camadas set ativo = " + std::string(to) +
               ", geracao = geracao + 1, atualizado_em = now() where ativo <> " + to + " and id = ");
  q.bind(id_text(id), "bigint");
  long long n = s.db->with([&](soci::session& db) { return store::execute(db, q); });
  if (n == 0)
    throw Error(errc::invalid_transition,
                "a camada " + id_text(id) + " já está " + (active ? "ativa" : "inativa"), "id");
}

void set_private(const service::Caller& s, std::int64_t id, bool privada) {
  store::Sql q("update projeto.camadas set privada = " + std::string(privada ? "true" : "false") +
               ", geracao = geracao + 1, atualizado_em = now() where id = ");
  q.bind(id_text(id), "bigint");
  if (s.db->with([&](soci::session& db) { return store::execute(db, q); }) == 0)
    throw Error(errc::not_found, "camada " + id_text(id) + " não encontrada", "id");
}

Kind kind_of(const service::Caller& s, std::int64_t id) {
  store::Sql q("select tipo, arquivo from projeto.camadas where id = ");
  q.bind(id_text(id), "bigint");
  auto rows = s.db->with([&](soci::session& db) { return store::fetch(db, q); });
  if (rows.empty()) throw Error(errc::not_found, "camada " + id_text(id) + " não encontrada", "id");
  return {*rows[0][0], rows[0][1]};
}

void remove(const service::Caller& s, std::int64_t id) {
  store::Sql q("delete from projeto.camadas where id = ");
  q.bind(id_text(id), "bigint");
  if (s.db->with([&](soci::session& db) { return store::execute(db, q); }) == 0)
    throw Error(errc::not_found, "camada " + id_text(id) + " não encontrada", "id");
}

Extent extent(const service::Caller& s, std::int64_t id) {
  store::Sql q(
      "select c.tipo, c.arquivo, st_xmin(x.e)::text, st_ymin(x.e)::text, st_xmax(x.e)::text, st_ymax(x.e)::text "
      "from projeto.camadas c cross join lateral (select case when c.tipo = 'vetor' then (select st_extent(g.geom) "
      "from projeto.geometrias g where g.camada_id = ");
  q.bind(id_text(id), "bigint") << ") else c.extensao::box2d end as e) x where c.id = ";
  q.bind(id_text(id), "bigint");
  auto rows = s.db->with([&](soci::session& db) { return store::fetch(db, q); });
  if (rows.empty()) throw Error(errc::not_found, "camada " + id_text(id) + " não encontrada", "id");
  const store::Row& r = rows[0];
  Extent e{*r[0], r[1], std::nullopt};
  if (r[2]) e.bbox = std::array<double, 4>{*number(r[2]), *number(r[3]), *number(r[4]), *number(r[5])};
  return e;
}

std::string extent_json(std::int64_t id, const std::string& tipo, const std::optional<std::array<double, 4>>& bbox) {
  JsonWriter w;
  w.begin_object().key("idCamada").value(id).key("tipo").value(tipo).key("bbox");
  if (bbox) {
    w.begin_array();
    for (double d : *bbox) w.value(d);
    w.end_array();
  } else {
    w.null();
  }
  w.key("srid").value(4674).end_object();
  return std::move(w).str();
}

void bump_generation(soci::session& db, std::int64_t id) {
  store::Sql q("update projeto.camadas set geracao = geracao + 1, atualizado_em = now() where id = ");
  q.bind(id_text(id), "bigint");
  store::execute(db, q);
}

}  // namespace cadastre::platform::layers
