// The guard's SQL: where a record sits (its project, layer and form, and their states) and
// the caller's role there, from the rule set of migration 0015.
#include "platform/guard/store.hpp"

#include <array>
#include <stdexcept>

#include "store/sql.hpp"

namespace cadastre::platform::guard {
namespace {

struct Kind {
  std::string_view record;
  std::string_view noun;  ///< in messages: "o projeto 12"
  /// FROM (... WHERE) of the record `$id`, reaching its project `p`, its layer `c` (or a null
  /// layer) and its form `f` (or none).
  std::string_view from;
  /// The caller's role on a record of no project (p.id null): SQL over `$uid` and `$adm`;
  /// empty when every record of the kind has a project.
  std::string_view unowned_role = {};
};

constexpr std::array<Kind, 13> kKinds{{
    {"projeto", "projeto", "projeto.projetos p left join projeto.camadas c on false "
                           "left join projeto.formularios f on false where p.id = $id"},
    {"camada", "camada", "projeto.camadas c join projeto.projetos p on p.id = c.projeto_id "
                         "left join projeto.formularios f on false where c.id = $id"},
    {"formulario", "formulário", "projeto.formularios f join projeto.camadas c on c.id = f.camada_id "
                                 "join projeto.projetos p on p.id = c.projeto_id where f.id = $id"},
    {"campo", "campo", "projeto.campos k join projeto.formularios f on f.id = k.formulario_id "
                       "join projeto.camadas c on c.id = f.camada_id "
                       "join projeto.projetos p on p.id = c.projeto_id where k.id = $id"},
    {"geometria", "geometria", "projeto.geometrias g join projeto.camadas c on c.id = g.camada_id "
                               "join projeto.projetos p on p.id = c.projeto_id "
                               "left join projeto.formularios f on false "
                               "where g.id = $id and g.camada_id = projeto.camada_da_geometria($id)"},
    // A value's id names its geometry and field (projeto.valor_chave: computed, or a
    // legacy id); both must still exist.
    {"valor", "valor", "projeto.valor_chave($id) v join projeto.geometrias g on g.id = v.geometria_id "
                       "and g.camada_id = projeto.camada_do_valor($id) "
                       "join projeto.campos k on k.id = v.campo_id "
                       "join projeto.formularios f on f.id = k.formulario_id "
                       "join projeto.camadas c on c.id = g.camada_id "
                       "join projeto.projetos p on p.id = c.projeto_id"},
    {"camada_adicional", "camada adicional",
     "projeto.camadas_adicionais a join projeto.projetos p on p.id = a.projeto_id "
     "left join projeto.camadas c on false left join projeto.formularios f on false where a.id = $id"},
    {"camada_usuario", "direito de usuário em camada",
     "projeto.camada_usuarios cu join projeto.camadas c on c.id = cu.camada_id "
     "join projeto.projetos p on p.id = c.projeto_id "
     "left join projeto.formularios f on false where cu.id = $id"},
    // A custom map and a variogram belong to their project, a layer report to its layer:
    // the role there is the role on them.
    {"mapa_personalizado", "mapa personalizado",
     "projeto.mapas_personalizados m join projeto.projetos p on p.id = m.projeto_id "
     "left join projeto.camadas c on false left join projeto.formularios f on false where m.id = $id"},
    {"variograma", "variograma",
     "projeto.variogramas v join projeto.projetos p on p.id = v.projeto_id "
     "left join projeto.camadas c on false left join projeto.formularios f on false where v.id = $id"},
    {"relatorio_camada", "relatório de camada",
     "projeto.relatorios_camada r join projeto.camadas c on c.id = r.camada_id "
     "join projeto.projetos p on p.id = c.projeto_id "
     "left join projeto.formularios f on false where r.id = $id"},
    {"modelo_avaliacao", "modelo de avaliação",
     "projeto.modelos_avaliacao m join projeto.projetos p on p.id = m.projeto_id "
     "left join projeto.camadas c on false left join projeto.formularios f on false where m.id = $id"},
    // A file: the role on what it is attached to (geometry, layer or project). A file of
    // the tenant itself (a company's logo, a user's photo) is read by every user of the
    // tenant and changed by its administrators, and a user's photo by that user too.
    {"arquivo", "arquivo",
     "projeto.arquivos a "
     "left join projeto.camadas c on c.id = coalesce(a.camada_id, projeto.camada_da_geometria(a.geometria_id)) "
     "left join projeto.projetos p on p.id = coalesce(a.projeto_id, c.projeto_id) "
     "left join projeto.formularios f on false where a.id = $id",
     "case when $adm or (a.finalidade = 'foto_usuario' and a.usuario_id = $uid) then 'admin' else 'leitura' end"},
}};

const Kind* kind_of(std::string_view record) noexcept {
  for (const Kind& k : kKinds)
    if (k.record == record) return &k;
  return nullptr;
}

std::string caller_args(const service::Caller& s) {
  return std::to_string(s.user.user_id) + ", " +
         (s.user.admin || s.user.platform_admin ? "true" : "false");
}

}  // namespace

std::string project_role_sql(const service::Caller& s, std::string_view id_sql) {
  return "projeto.papel_projeto(" + std::string(id_sql) + ", " + caller_args(s) + ")";
}

std::string layer_role_sql(const service::Caller& s, std::string_view id_sql) {
  return "projeto.papel_camada(" + std::string(id_sql) + ", " + caller_args(s) + ")";
}

std::optional<Located> locate(const service::Scope& s, std::string_view record, std::int64_t id) {
  const Kind* kind = kind_of(record);
  if (!kind) throw std::logic_error("registro desconhecido na permissão: " + std::string(record));
  std::string from(kind->from);
  for (auto at = from.find("$id"); at != std::string::npos; at = from.find("$id", at))
    from.replace(at, 3, std::to_string(id));
  std::string unowned = "null";
  if (!kind->unowned_role.empty()) {
    unowned = kind->unowned_role;
    unowned.replace(unowned.find("$adm"), 4, s.user.admin || s.user.platform_admin ? "true" : "false");
    unowned.replace(unowned.find("$uid"), 4, std::to_string(s.user.user_id));
  }
  store::Sql q("select p.id::text, c.id::text, p.ativo::text, p.somente_leitura::text, "
               "coalesce(c.ativo, true)::text, coalesce(f.ativo, true)::text, case when p.id is null then " +
               unowned + " when c.id is null then " + project_role_sql(s, "p.id") + " else " +
               layer_role_sql(s, "c.id") + " end from " + from);
  std::vector<store::Row> rows = s.db->with([&](soci::session& db) { return store::fetch(db, q); });
  if (rows.empty()) return std::nullopt;
  const store::Row& r = rows.front();
  Located at;
  at.noun = kind->noun;
  at.project_id = r[0] ? std::stoll(*r[0]) : 0;
  at.layer_id = r[1] ? std::stoll(*r[1]) : 0;
  at.standing = {r[6].value_or(""), r[2] != "false", r[3] == "true", r[4] != "false", r[5] != "false"};
  return at;
}

std::optional<std::string> project_role(const service::Caller& s, std::int64_t project_id) {
  store::Sql q("select " + project_role_sql(s, std::to_string(project_id)));
  return s.db->with([&](soci::session& db) { return store::fetch_value(db, q); });
}

std::optional<std::string> layer_role(const service::Caller& s, std::int64_t layer_id) {
  store::Sql q("select " + layer_role_sql(s, std::to_string(layer_id)));
  return s.db->with([&](soci::session& db) { return store::fetch_value(db, q); });
}

bool is_public(store::Pool& platform, std::int64_t user) {
  store::Sql q("select publico::text from plataforma.usuarios where id = " + std::to_string(user));
  return platform.with([&](soci::session& s) { return store::fetch_value(s, q) == "true"; });
}

bool administers_a_project(const service::Caller& s) {
  store::Sql q("select 1 from projeto.projetos p where " + project_role_sql(s, "p.id") + " = 'admin' limit 1");
  return s.db->with([&](soci::session& db) { return store::fetch_value(db, q).has_value(); });
}

std::optional<Account> locate_account(store::Pool& platform, std::string_view record, std::int64_t id) {
  store::Sql q(record == "usuario"
                   ? "select tenant_id::text, id::text, adm_plataforma::text from plataforma.usuarios where id = "
                   : "select m.tenant_id::text, c.usuario_id::text, 'false' from plataforma.wikimap_comentarios c "
                     "join plataforma.wikimap_mapas m on m.id = c.mapa_id where c.id = ");
  q.bind(std::to_string(id), "bigint");
  std::vector<store::Row> rows = platform.with([&](soci::session& db) { return store::fetch(db, q); });
  if (rows.empty()) return std::nullopt;
  const store::Row& r = rows.front();
  return Account{std::stoll(r[0].value_or("0")), std::stoll(*r[1]), r[2] == "true"};
}

}  // namespace cadastre::platform::guard
