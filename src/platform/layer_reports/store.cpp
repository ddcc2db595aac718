#include "platform/layer_reports/store.hpp"

#include <soci/soci.h>

#include <map>

#include "cadastre/error.hpp"
#include "cadastre/field_values.hpp"
#include "platform/guard/guard.hpp"
#include "platform/search/store.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::layer_reports {
namespace {

constexpr const char* kReportJson =
    "jsonb_build_object('id', r.id, 'idCamada', r.camada_id, 'idProjeto', c.projeto_id, 'nome', r.nome, "
    "'descricao', r.descricao, 'campos', to_jsonb(r.campos), 'filtros', r.filtros, 'agrupamento', r.agrupamento, "
    "'criadoPor', r.criado_por, 'criadoEm', r.criado_em, 'atualizadoEm', r.atualizado_em)";

const std::map<std::string, std::string> kColumns = {
    {"id", "r.id"}, {"nome", "r.nome"}, {"atualizadoEm", "r.atualizado_em"}};

std::string id_text(std::int64_t id) { return std::to_string(id); }

[[noreturn]] void not_found(std::int64_t id) {
  throw Error(errc::not_found, "relatório de camada " + id_text(id) + " não encontrado", "id");
}

std::string select_report(soci::session& s, std::int64_t id) {
  store::Sql q(std::string("select ") + kReportJson +
               "::text from projeto.relatorios_camada r join projeto.camadas c on c.id = r.camada_id where r.id = ");
  q.bind(id_text(id), "bigint");
  auto v = store::fetch_value(s, q);
  if (!v) not_found(id);
  return *v;
}

// The ids of `ids` that are fields of a form of layer `camada`.
std::vector<std::int64_t> layer_fields(soci::session& s, std::int64_t camada, const std::vector<std::int64_t>& ids) {
  store::Sql q("select k.id::text from projeto.campos k join projeto.formularios f on f.id = k.formulario_id "
               "where f.camada_id = ");
  q.bind(id_text(camada), "bigint") << " and k.id = any(";
  q.bind(store::id_array(ids), "bigint[]") << ")";
  std::vector<std::int64_t> out;
  for (const auto& r : store::fetch(s, q)) out.push_back(std::stoll(*r[0]));
  return out;
}

}  // namespace

Stored load(store::Pool& pool, std::int64_t id) {
  store::Sql q("select r.id::text, r.camada_id::text, r.nome, r.descricao, c.nome, r.filtros::text, "
               "array_to_string(r.campos, ','), r.agrupamento::text from projeto.relatorios_camada r "
               "join projeto.camadas c on c.id = r.camada_id where r.id = ");
  q.bind(id_text(id), "bigint");
  auto rows = pool.with([&](soci::session& s) { return store::fetch(s, q); });
  if (rows.empty()) not_found(id);
  const auto& r = rows[0];
  Stored out{std::stoll(*r[0]), std::stoll(*r[1]), *r[2], *r[3], *r[4], *r[5], {}, std::nullopt};
  std::string ids = r[6].value_or("");
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = std::min(ids.find(',', i), ids.size());
    out.campos.push_back(std::stoll(ids.substr(i, j - i)));
    i = j + 1;
  }
  if (r[7]) out.agrupamento = std::stoll(*r[7]);
  return out;
}

std::string read(store::Pool& pool, std::int64_t id) {
  return pool.with([&](soci::session& s) { return select_report(s, id); });
}

store::PageRows list(const service::Caller& scope, std::optional<std::int64_t> camada, const Page& page) {
  std::string where = guard::layer_role_sql(scope, "r.camada_id") + " is not null";
  if (camada) where += " and r.camada_id = " + id_text(*camada);  // a parsed number
  const std::string from = " from projeto.relatorios_camada r join projeto.camadas c on c.id = r.camada_id where ";
  store::Sql q("select (select count(*)" + from + where + ")::text, coalesce(jsonb_agg(x), '[]')::text from (select " +
               kReportJson + " as x" + from + where + " order by " + kColumns.at(page.order_by) +
               (page.descending ? " desc" : " asc") + ", r.id");
  store::append_page(q, page.paging);
  q << ") p";
  return scope.db->with([&](soci::session& s) { return store::fetch_page(s, q); });
}

void check(store::Pool& pool, std::int64_t camada, const ReportFields& f) {
  pool.run([&](soci::session& s) {
    if (f.campos) {
      auto found = layer_fields(s, camada, *f.campos);
      for (std::int64_t id : *f.campos)
        if (std::find(found.begin(), found.end(), id) == found.end())
          throw Error(errc::invalid_argument, "campos: o campo " + id_text(id) + " não é da camada " + id_text(camada),
                      "campos");
    }
    if (f.agrupamento && layer_fields(s, camada, {*f.agrupamento}).empty())
      throw Error(errc::invalid_argument,
                  "agrupamento: o campo " + id_text(*f.agrupamento) + " não é da camada " + id_text(camada), "agrupamento");
  });
  if (f.filtros && !f.filtros->condicoes.empty()) {
    // The search runs the filter once on one row: its fields and value types are checked
    // by the same code that will apply it.
    search::FeatureQuery q = *f.filtros;
    q.camada = camada;
    Page one{query::Paging{1, 1, 0}, "id", false};
    search::features(pool, q, one);
  }
}

std::string create(store::Pool& pool, std::int64_t user, const ReportFields& f) {
  return pool.with([&](soci::session& s) {
    store::Sql q("insert into projeto.relatorios_camada (camada_id, nome, descricao, campos, filtros, agrupamento, "
                 "criado_por) values (");
    q.bind(id_text(*f.camada), "bigint") << ", ";
    q.bind(*f.nome) << ", ";
    q.bind(f.descricao.value_or("")) << ", ";
    q.bind(store::id_array(*f.campos), "bigint[]") << ", ";
    q.bind(f.filtros_json.value_or(R"({"condicoes":[],"todas":true})"), "jsonb") << ", ";
    q.bind(f.agrupamento ? store::Value(id_text(*f.agrupamento)) : std::nullopt, "bigint") << ", ";
    q.bind(id_text(user), "bigint") << ") returning id::text";
    return select_report(s, std::stoll(*store::fetch_value(s, q)));
  });
}

std::string update(store::Pool& pool, std::int64_t id, const ReportFields& f) {
  return pool.with([&](soci::session& s) {
    store::Sql q("update projeto.relatorios_camada set atualizado_em = now()");
    if (f.nome) q << ", nome = ", q.bind(*f.nome);
    if (f.descricao) q << ", descricao = ", q.bind(*f.descricao);
    if (f.campos) q << ", campos = ", q.bind(store::id_array(*f.campos), "bigint[]");
    if (f.filtros_json) q << ", filtros = ", q.bind(*f.filtros_json, "jsonb");
    if (f.set_agrupamento)
      q << ", agrupamento = ", q.bind(f.agrupamento ? store::Value(id_text(*f.agrupamento)) : std::nullopt, "bigint");
    q << " where id = ";
    q.bind(id_text(id), "bigint");
    if (store::execute(s, q) == 0) not_found(id);
    return select_report(s, id);
  });
}

void remove(store::Pool& pool, std::int64_t id) {
  store::Sql q("delete from projeto.relatorios_camada where id = ");
  q.bind(id_text(id), "bigint");
  pool.run([&](soci::session& s) {
    if (store::execute(s, q) == 0) not_found(id);
  });
}

std::vector<Column> columns(store::Pool& pool, std::int64_t camada, const std::vector<std::int64_t>& ids) {
  store::Sql q("select k.id::text, k.nome, k.chave, k.tipo from projeto.campos k "
               "join projeto.formularios f on f.id = k.formulario_id where f.camada_id = ");
  q.bind(id_text(camada), "bigint") << " and k.id = any(";
  q.bind(store::id_array(ids), "bigint[]") << ")";
  auto rows = pool.with([&](soci::session& s) { return store::fetch(s, q); });
  std::vector<Column> out;
  for (std::int64_t id : ids)
    for (const auto& r : rows)
      if (std::stoll(*r[0]) == id)
        out.push_back({id, *r[1], *r[2], *r[3], field_values::column_of(*r[3]) == "numero"});
  return out;
}

}  // namespace cadastre::platform::layer_reports
