#include "platform/projects/store.hpp"

#include <soci/soci.h>

#include <map>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "platform/common/layer_table.hpp"
#include "platform/guard/guard.hpp"
#include "platform/projects/store_files.hpp"
#include "platform/projects/shapes.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::projects {
namespace {

const std::map<std::string, std::string> kColumns = {
    {"id", "p.id"}, {"nome", "p.nome"}, {"criadoEm", "p.criado_em"}, {"atualizadoEm", "p.atualizado_em"}};

// The caller's visible layers of project `project_sql` (a number or a column we wrote).
std::string visible_layers(const service::Caller& s, const std::string& project_sql) {
  return "(select c.*, " + guard::layer_role_sql(s, "c.id") + " as papel_c from projeto.camadas c where c.projeto_id = " +
         project_sql + ") c where c.papel_c is not null";
}

std::string fetch_text(const service::Caller& s, const store::Sql& q) {
  auto v = s.db->with([&](soci::session& db) { return store::fetch_value(db, q); });
  if (!v) throw Error(errc::not_found, "projeto não encontrado", "id");
  return *v;
}

// The current flag under a row lock, for a state move inside `s`'s transaction.
bool locked_flag(soci::session& s, std::int64_t id, const char* column) {
  store::Sql q(std::string("select ") + column + "::text from projeto.projetos where id = " + std::to_string(id) + " for update");
  auto v = store::fetch_value(s, q);
  if (!v) throw Error(errc::not_found, "projeto " + std::to_string(id) + " não encontrado", "id");
  return *v == "true";
}

void move(const service::Caller& scope, std::int64_t id, const char* column, bool to, const char* operation,
          const char* state_on, const char* state_off) {
  scope.db->run([&](soci::session& s) {
    soci::transaction tx(s);
    bool now = locked_flag(s, id, column);
    if (now == to)
      throw Error(errc::invalid_transition, "o projeto " + std::to_string(id) + " já está " + (now ? state_on : state_off), "id");
    if (std::string_view(column) == "publicado" && to && !locked_flag(s, id, "ativo"))
      throw Error(errc::invalid_transition, "o projeto " + std::to_string(id) + " está inativo: ative-o antes de publicar", "id");
    store::execute(s, store::Sql(std::string("update projeto.projetos set ") + column + " = " + (to ? "true" : "false") +
                                 ", atualizado_em = now() where id = " + std::to_string(id)));
    record_event(s, id, operation, "{}", scope.user.user_id);
    tx.commit();
  });
}

}  // namespace

void record_event(soci::session& s, std::int64_t project, std::string_view operation, const std::string& details,
                  std::int64_t user) {
  store::Sql q("insert into projeto.eventos (projeto_id, operacao, detalhes, usuario_id) values (" + std::to_string(project) + ", ");
  q.bind(std::string(operation)) << ", ";
  q.bind(details, "jsonb") << ", " << std::to_string(user) << ")";
  store::execute(s, q);
}

std::string one(const service::Caller& scope, std::int64_t id) {
  store::Sql q("select " + shapes::project(guard::project_role_sql(scope, "p.id")) +
               "::text from projeto.projetos p where p.id = " + std::to_string(id));
  return fetch_text(scope, q);
}

std::string list(const service::Caller& scope, bool ativo) {
  store::Sql q("select coalesce(jsonb_agg(" + shapes::project("p.r") +
               " order by p.nome, p.id), '[]')::text from (select p.*, " + guard::project_role_sql(scope, "p.id") +
               " as r from projeto.projetos p where p.ativo = " + (ativo ? "true" : "false") +
               ") p where p.r is not null");
  return fetch_text(scope, q);
}

store::PageRows page(const service::Caller& scope, const Page& pg, bool ativo) {
  std::string from = "(select p.*, " + guard::project_role_sql(scope, "p.id") +
                     " as r from projeto.projetos p where p.ativo = " + (ativo ? "true" : "false") +
                     ") p where p.r is not null";
  store::Sql q("select (select count(*) from " + from + ")::text, coalesce(jsonb_agg(x.j order by x.o), '[]')::text from (select " +
               shapes::project("p.r") + " || jsonb_build_object('camadas', coalesce((select jsonb_agg(" +
               shapes::layer_summary("c.papel_c") + " order by c.ordem, c.id) from " + visible_layers(scope, "p.id") +
               "), '[]')) as j, row_number() over (order by " + kColumns.at(pg.order_by) +
               (pg.descending ? " desc" : " asc") + ", p.id) as o from " + from + " order by " +
               kColumns.at(pg.order_by) + (pg.descending ? " desc" : " asc") + ", p.id");
  store::append_page(q, pg.paging);
  q << ") x";
  return scope.db->with([&](soci::session& s) { return store::fetch_page(s, q); });
}

std::string detail(const service::Caller& scope, std::int64_t id, Depth depth) {
  std::string fields = depth == Depth::fields
                           ? " || jsonb_build_object('campos', coalesce((select jsonb_agg(" + std::string(shapes::kField) +
                                 " order by k.ordem, k.id) from projeto.campos k where k.formulario_id = f.id), '[]'))"
                           : "";
  std::string forms = depth == Depth::layers
                          ? ""
                          : " || jsonb_build_object('formularios', coalesce((select jsonb_agg(" +
                                std::string(shapes::kForm) + fields +
                                " order by f.ordem, f.id) from projeto.formularios f where f.camada_id = c.id), '[]'))";
  store::Sql q("select (" + shapes::project(guard::project_role_sql(scope, "p.id")) +
               " || jsonb_build_object('camadas', coalesce((select jsonb_agg(" + shapes::layer("c.papel_c") + forms +
               " order by c.ordem, c.id) from " + visible_layers(scope, "p.id") +
               "), '[]')))::text from projeto.projetos p where p.id = " + std::to_string(id));
  return fetch_text(scope, q);
}

std::int64_t create(const service::Caller& scope, const ProjectFields& f) {
  return scope.db->with([&](soci::session& s) {
    soci::transaction tx(s);
    store::Sql q("insert into projeto.projetos (nome, descricao, tipo, criado_por) values (");
    q.bind(*f.nome) << ", ";
    q.bind(f.descricao) << ", ";
    q.bind(f.tipo.value_or("geral")) << ", " << std::to_string(scope.user.user_id) << ") returning id::text";
    std::int64_t id = std::stoll(*store::fetch_value(s, q));
    record_event(s, id, "criar", "{}", scope.user.user_id);
    tx.commit();
    return id;
  });
}

void update(const service::Caller& scope, std::int64_t id, const ProjectFields& f) {
  store::Sql q("update projeto.projetos set atualizado_em = now()");
  if (f.nome) q << ", nome = ", q.bind(*f.nome);
  if (f.descricao) q << ", descricao = nullif(", q.bind(*f.descricao), q << ", '')";
  q << " where id = " << std::to_string(id);
  scope.db->run([&](soci::session& s) {
    if (store::execute(s, q) == 0) throw Error(errc::not_found, "projeto não encontrado", "id");
  });
}

void remove(const service::Caller& scope, std::int64_t id, const common::FileStore& files) {
  scope.db->run([&](soci::session& s) {
    soci::transaction tx(s);
    // The files go aside first and are erased once the rows are gone; a failure puts them back.
    ProjectFilesAside aside(files, s, scope.tenant.slug, id);
    store::Sql q("delete from projeto.projetos where id = " + std::to_string(id) + " returning jsonb_build_object('nome', nome)::text");
    auto what = store::fetch_value(s, q);
    if (!what) throw Error(errc::not_found, "projeto não encontrado", "id");
    record_event(s, id, "excluir", *what, scope.user.user_id);
    tx.commit();
    aside.commit();
  });
}

void set_active(const service::Caller& scope, std::int64_t id, bool ativo) {
  move(scope, id, "ativo", ativo, ativo ? "ativar" : "inativar", "ativo", "inativo");
}

void set_published(const service::Caller& scope, std::int64_t id, bool publicado) {
  move(scope, id, "publicado", publicado, publicado ? "publicar" : "despublicar", "publicado", "despublicado");
}

std::optional<std::string> extent(const service::Caller& scope, std::int64_t id) {
  // Vector layers: the box of their geometries; the others: the extent recorded with them.
  std::string layers = visible_layers(scope, std::to_string(id));
  return scope.db->with([&](soci::session& s) {
    // The project's layers as a constant: the statement is planned on their partitions.
    const std::string all = common::project_layers(s, id);
    store::Sql q("select case when e is not null then jsonb_build_object('xmin', st_xmin(e), 'ymin', st_ymin(e), "
                 "'xmax', st_xmax(e), 'ymax', st_ymax(e), 'srid', 4674)::text end from (select st_extent(x) as e from ("
                 "select g.geom as x from projeto.geometrias g join (select c.id from " +
                 layers + " and c.tipo = 'vetor') v on v.id = g.camada_id where g.camada_id = any('" + all +
                 "'::bigint[]) union all select c.extensao from " + layers +
                 " and c.tipo <> 'vetor' and c.extensao is not null) u) b");
    return store::fetch_value(s, q);
  });
}

std::string notes(const service::Caller& scope, std::int64_t id) {
  store::Sql q("select jsonb_build_object('id', id, 'notas', notas)::text from projeto.projetos where id = " + std::to_string(id));
  return fetch_text(scope, q);
}

std::string set_notes(const service::Caller& scope, std::int64_t id, const std::string& clean) {
  store::Sql q("update projeto.projetos set notas = ");
  q.bind(clean) << ", atualizado_em = now() where id = " << std::to_string(id)
                << " returning jsonb_build_object('id', id, 'notas', notas)::text";
  return fetch_text(scope, q);
}

std::string info(const service::Caller& scope, std::int64_t id) {
  std::string p = std::to_string(id);
  return scope.db->with([&](soci::session& s) {
    // The project's layers as a constant: the statement is planned on their partitions.
    const std::string all = "any('" + common::project_layers(s, id) + "'::bigint[])";
    // The values are counted in the visible layers' tables: their fields first.
    store::Sql fields("select f.camada_id::text, string_agg(k.id::text, ',') from projeto.campos k join "
                      "projeto.formularios f on f.id = k.formulario_id where f.camada_id in (select c.id from " +
                      visible_layers(scope, p) + ") group by f.camada_id");
    std::string counts;
    for (const store::Row& r : store::fetch(s, fields)) {
      // num_nonnulls takes at most 100 arguments: summed by 100 fields.
      std::string n;
      std::size_t i = 0;
      for (std::size_t at = 0; at < r[1]->size(); ++i) {
        std::size_t next = std::min(r[1]->find(',', at), r[1]->size());
        n += (i % 100 ? ", " : i ? ") + num_nonnulls(" : "num_nonnulls(") +
             common::field_column(std::stoll(r[1]->substr(at, next - at)));
        at = next + 1;
      }
      counts += (counts.empty() ? "" : " union all ") + std::string("select sum(") + n + ")) as n from " +
                common::layer_table(std::stoll(*r[0]));
    }
    store::Sql q(
        "with c as materialized (select c.id, c.atualizado_em from " + visible_layers(scope, p) +
        "), f as materialized (select f.id, f.atualizado_em from projeto.formularios f join c on c.id = f.camada_id), "
        "k as materialized (select k.id, k.atualizado_em from projeto.campos k join f on f.id = k.formulario_id), "
        "g as (select count(*) as n, max(g.atualizado_em) as em from projeto.geometrias g join c on "
        "c.id = g.camada_id where g.camada_id = " + all + "), "
        // A value's last change: its newest audit row, or its row of before the layer tables.
        "v as (select (select coalesce(sum(n), 0) from (" + (counts.empty() ? "select 0 as n" : counts) + ") x) as n, "
        "greatest((select max(a.em) from projeto.valores_auditoria a join projeto.geometrias g on "
        "g.id = a.geometria_id join c on c.id = g.camada_id where g.camada_id = " + all + "), "
        "(select max(l.atualizado_em) from projeto.valores_legado l join projeto.geometrias g on "
        "g.id = l.geometria_id join c on c.id = g.camada_id where g.camada_id = " + all + ")) as em) "
        "select jsonb_build_object('id', p.id, 'nome', p.nome, 'camadas', (select count(*) from c), "
        "'formularios', (select count(*) from f), 'campos', (select count(*) from k), "
        "'geometrias', (select n from g), 'valores', (select n from v), "
        "'usuariosCompartilhados', (select count(*) from projeto.projeto_usuarios u where u.projeto_id = p.id), "
        "'ultimaAlteracao', greatest(p.atualizado_em, (select max(atualizado_em) from c), "
        "(select max(atualizado_em) from f), (select max(atualizado_em) from k), (select em from g), "
        "(select em from v)))::text from projeto.projetos p where p.id = " +
        p);
    auto v = store::fetch_value(s, q);
    if (!v) throw Error(errc::not_found, "projeto não encontrado", "id");
    return *v;
  });
}

}  // namespace cadastre::platform::projects
