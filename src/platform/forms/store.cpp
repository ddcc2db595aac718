#include "platform/forms/store.hpp"

#include <soci/soci.h>

#include <algorithm>
#include <map>
#include <set>

#include "cadastre/error.hpp"
#include "cadastre/formula.hpp"
#include "platform/common/layer_table.hpp"
#include "platform/fields/store.hpp"
#include "platform/guard/guard.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::forms {
namespace {

using store::Sql;

const std::string kFormJson =
    "jsonb_build_object('id', f.id, 'idCamada', f.camada_id, 'nome', f.nome, 'descricao', f.descricao, "
    "'ativo', f.ativo, 'ordem', f.ordem)";

const std::map<std::string, std::string> kColumns = {{"id", "f.id"}, {"nome", "f.nome"}, {"ordem", "f.ordem"}};

std::string nested_json() {
  return kFormJson + " || jsonb_build_object('campos', coalesce((select jsonb_agg(" + fields::field_json_sql("k") +
         " order by k.ordem, k.id) from projeto.campos k where k.formulario_id = f.id), '[]'))";
}

// SQL: the forms the caller may see (and the filters asked), over f and c.
std::string visible(const service::Caller& s, std::optional<std::int64_t> camada, std::optional<bool> ativo) {
  std::string where = guard::layer_role_sql(s, "c.id") + " is not null";
  if (camada) where += " and c.id = " + std::to_string(*camada);
  if (ativo) where += std::string(" and f.ativo = ") + (*ativo ? "true" : "false");
  return " from projeto.formularios f join projeto.camadas c on c.id = f.camada_id where " + where;
}

// SQL: whether the layer's JSON `doc` (its labels or categories) names field k: a field
// reference object {"id", "chave", ...} (labels), or a member whose name mentions "campo"
// (idCampo, campos...) holding its id as a number or a numeric text.
std::string names_field(const std::string& doc) {
  return "exists (select 1 from jsonb_path_query(coalesce(" + doc +
         ", '{}'), 'lax $.** ? (@.type() == \"object\")') o(obj) "
         "where (o.obj ->> 'chave' is not null and o.obj -> 'id' = to_jsonb(k.id)) "
         "or exists (select 1 from jsonb_each(o.obj) e where e.key ilike '%campo%' "
         "and jsonb_path_exists(e.value, 'lax $[*] ? (@ == $n || @ == $s)', "
         "jsonb_build_object('n', k.id, 's', k.id::text))))";
}

std::vector<Reason> reasons_in(soci::session& s, std::int64_t id) {
  std::string form = std::to_string(id);
  // The fields of the form's layer first: the values are counted in the layer's table, and
  // calculated fields of its other forms may read this form's keys.
  Sql layer("select k.id::text, k.chave, k.formula, (k.formulario_id = " + form +
            ")::text, f.camada_id::text from projeto.campos k join projeto.formularios f on f.id = k.formulario_id "
            "where f.camada_id = (select camada_id from projeto.formularios where id = " + form + ")");
  std::set<std::string> own;
  std::vector<std::string> formulas;
  std::string values = "0";  // SQL: the values in the form's fields
  for (const auto& r : store::fetch(s, layer)) {
    if (r[3] == "true") {
      own.insert(*r[1]);
      values += " + (select count(*) from " + common::layer_table(std::stoll(*r[4])) + " where " +
                common::field_column(std::stoll(*r[0])) + " is not null)";
    } else if (r[2]) {
      formulas.push_back(*r[2]);
    }
  }

  Sql counts("select (" + values + ")::text, "
             "(select count(*) from projeto.campos k where k.formulario_id = " + form +
             " and k.avaliacao is not null)::text, "
             "(select count(*) from projeto.campos k join projeto.formularios f on f.id = k.formulario_id "
             "join projeto.camadas c on c.id = f.camada_id where f.id = " + form + " and (" + names_field("c.rotulo") +
             // a geometry's own label may read its rotation from a field (migration 0017)
             " or exists (select 1 from projeto.rotulos_geometria r where r.campo_rotacao_id = k.id)))::text, "
             "(select count(*) from projeto.campos k join projeto.formularios f on f.id = k.formulario_id "
             "join projeto.camadas c on c.id = f.camada_id where f.id = " + form + " and " +
             names_field("c.categorias") + ")::text");
  store::Row n = store::fetch(s, counts).at(0);
  auto count = [&](std::size_t i) { return std::stoll(n[i].value_or("0")); };
  std::vector<Reason> out;
  if (auto q = count(0)) out.push_back({"valores", "o formulário tem " + std::to_string(q) + " valores gravados", q});
  if (auto q = count(1))
    out.push_back({"avaliacao", std::to_string(q) + " campos do formulário são variáveis de avaliação", q});
  if (auto q = count(2)) out.push_back({"rotulo", "o rótulo da camada usa " + std::to_string(q) + " campos do formulário", q});
  if (auto q = count(3))
    out.push_back({"categorias", "a categorização da camada usa " + std::to_string(q) + " campos do formulário", q});

  // Calculated fields of the layer's other forms that read this form's keys.
  std::int64_t readers = std::count_if(formulas.begin(), formulas.end(), [&](const std::string& f) {
    auto vars = cadastre::formula::variables(f);
    return std::any_of(vars.begin(), vars.end(), [&](const std::string& v) { return own.count(v) > 0; });
  });
  if (readers)
    out.push_back({"formula", std::to_string(readers) + " campos calculados de outros formulários leem campos deste",
                   readers});
  return out;
}

}  // namespace

std::string list(const service::Caller& s, std::optional<std::int64_t> camada, std::optional<bool> ativo) {
  Sql q("select coalesce(jsonb_agg(" + kFormJson + " order by c.projeto_id, c.id, f.ordem, f.id), '[]')::text" +
        visible(s, camada, ativo));
  return s.db->with([&](soci::session& db) { return store::fetch_value(db, q).value_or("[]"); });
}

store::PageRows page(const service::Caller& s, std::optional<std::int64_t> camada, std::optional<bool> ativo,
                     const Page& page) {
  std::string from = visible(s, camada, ativo);
  Sql q("select (select count(*)" + from + ")::text, coalesce(json_agg(r), '[]')::text from (select " +
        nested_json() + " as r" + from + " order by " + kColumns.at(page.order_by) +
        (page.descending ? " desc" : " asc") + ", f.id");
  store::append_page(q, page.paging);
  q << ") p";
  return s.db->with([&](soci::session& db) { return store::fetch_page(db, q); });
}

std::string one(store::Pool& pool, std::int64_t id, bool nested) {
  Sql q("select (" + (nested ? nested_json() : kFormJson) + ")::text from projeto.formularios f where f.id = ");
  q.bind(std::to_string(id), "bigint");
  auto json = pool.with([&](soci::session& s) { return store::fetch_value(s, q); });
  if (!json) throw Error(errc::not_found, "formulário " + std::to_string(id) + " não encontrado", "id");
  return *json;
}

std::int64_t create(store::Pool& pool, std::int64_t camada, const Fields& f) {
  std::string layer = std::to_string(camada);
  Sql q("insert into projeto.formularios (camada_id, nome, descricao, ordem) values (" + layer + ", ");
  q.bind(*f.nome) << ", ";
  q.bind(f.descricao ? *f.descricao : std::nullopt) << ", coalesce(";
  q.bind(f.ordem ? std::optional<std::string>(std::to_string(*f.ordem)) : std::nullopt, "integer")
      << ", (select coalesce(max(ordem) + 1, 0) from projeto.formularios where camada_id = " << layer
      << "))) returning id::text";
  return pool.with([&](soci::session& s) { return std::stoll(*store::fetch_value(s, q)); });
}

void update(store::Pool& pool, std::int64_t id, const Fields& f) {
  Sql q("update projeto.formularios set atualizado_em = now()");
  if (f.nome) q << ", nome = ", q.bind(*f.nome);
  if (f.descricao) q << ", descricao = ", q.bind(*f.descricao);
  if (f.ordem) q << ", ordem = " << std::to_string(*f.ordem);
  q << " where id = ";
  q.bind(std::to_string(id), "bigint");
  if (pool.with([&](soci::session& s) { return store::execute(s, q); }) == 0)
    throw Error(errc::not_found, "formulário " + std::to_string(id) + " não encontrado", "id");
}

void set_active(store::Pool& pool, std::int64_t id, bool ativo) {
  pool.run([&](soci::session& s) {
    Sql q("update projeto.formularios set ativo = ");
    q << (ativo ? "true" : "false") << ", atualizado_em = now() where id = ";
    q.bind(std::to_string(id), "bigint") << " and ativo = " << (ativo ? "false" : "true");
    if (store::execute(s, q) > 0) return;
    Sql now("select ativo::text from projeto.formularios where id = ");
    now.bind(std::to_string(id), "bigint");
    if (!store::fetch_value(s, now)) throw Error(errc::not_found, "formulário " + std::to_string(id) + " não encontrado", "id");
    throw Error(errc::invalid_transition, std::string("o formulário ") + std::to_string(id) + " já está " +
                                              (ativo ? "ativo" : "inativo"));
  });
}

std::vector<Reason> reasons(store::Pool& pool, std::int64_t id) {
  return pool.with([&](soci::session& s) { return reasons_in(s, id); });
}

std::vector<Reason> remove(store::Pool& pool, std::int64_t id) {
  return pool.with([&](soci::session& s) {
    soci::transaction tx(s);
    // The form's fields locked: a value written meanwhile would wait for this delete and
    // then find its field gone, instead of being counted out and deleted unseen.
    std::string form = std::to_string(id);
    if (store::fetch(s, Sql("select id from projeto.formularios where id = " + form + " for update")).empty())
      throw Error(errc::not_found, "formulário " + form + " não encontrado", "id");
    store::fetch(s, Sql("select id from projeto.campos where formulario_id = " + form + " for update"));
    std::vector<Reason> why = reasons_in(s, id);
    if (!why.empty()) return why;
    store::execute(s, Sql("delete from projeto.formularios where id = " + form));
    tx.commit();
    return why;
  });
}

}  // namespace cadastre::platform::forms
