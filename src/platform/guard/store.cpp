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
  /// FROM ... WHERE of the record `$id`, reaching its project `p`, its layer `c` (or a null
  /// layer) and its form `f` (or none).
  std::string_view from;
};

constexpr std::array<Kind, 8> kKinds{{
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
                               "left join projeto.formularios f on false where g.id = $id"},
    {"valor", "valor", "projeto.valores v join projeto.campos k on k.id = v.campo_id "
                       "join projeto.formularios f on f.id = k.formulario_id "
                       "join projeto.camadas c on c.id = f.camada_id "
                       "join projeto.projetos p on p.id = c.projeto_id where v.id = $id"},
    {"camada_adicional", "camada adicional",
     "projeto.camadas_adicionais a join projeto.projetos p on p.id = a.projeto_id "
     "left join projeto.camadas c on false left join projeto.formularios f on false where a.id = $id"},
    {"camada_usuario", "direito de usuário em camada",
     "projeto.camada_usuarios cu join projeto.camadas c on c.id = cu.camada_id "
     "join projeto.projetos p on p.id = c.projeto_id "
     "left join projeto.formularios f on false where cu.id = $id"},
}};

const Kind* kind_of(std::string_view record) noexcept {
  for (const Kind& k : kKinds)
    if (k.record == record) return &k;
  return nullptr;
}

std::string caller_args(const service::Scope& s) {
  return std::to_string(s.user.user_id) + ", " +
         (s.user.admin || s.user.platform_admin ? "true" : "false");
}

}  // namespace

std::string project_role_sql(const service::Scope& s, std::string_view id_sql) {
  return "projeto.papel_projeto(" + std::string(id_sql) + ", " + caller_args(s) + ")";
}

std::string layer_role_sql(const service::Scope& s, std::string_view id_sql) {
  return "projeto.papel_camada(" + std::string(id_sql) + ", " + caller_args(s) + ")";
}

std::optional<Located> locate(const service::Scope& s, std::string_view record, std::int64_t id) {
  const Kind* kind = kind_of(record);
  if (!kind) throw std::logic_error("registro desconhecido na permissão: " + std::string(record));
  std::string from(kind->from);
  from.replace(from.find("$id"), 3, std::to_string(id));
  store::Sql q("select p.id::text, c.id::text, p.ativo::text, p.somente_leitura::text, "
               "coalesce(c.ativo, true)::text, coalesce(f.ativo, true)::text, case when c.id is null then " +
               project_role_sql(s, "p.id") + " else " + layer_role_sql(s, "c.id") + " end from " + from);
  std::vector<store::Row> rows = s.db->with([&](soci::session& db) { return store::fetch(db, q); });
  if (rows.empty()) return std::nullopt;
  const store::Row& r = rows.front();
  Located at;
  at.noun = kind->noun;
  at.project_id = std::stoll(*r[0]);
  at.layer_id = r[1] ? std::stoll(*r[1]) : 0;
  at.standing = {r[6].value_or(""), r[2] != "false", r[3] == "true", r[4] != "false", r[5] != "false"};
  return at;
}

std::optional<std::string> project_role(const service::Scope& s, std::int64_t project_id) {
  store::Sql q("select " + project_role_sql(s, std::to_string(project_id)));
  return s.db->with([&](soci::session& db) { return store::fetch_value(db, q); });
}

std::optional<std::string> layer_role(const service::Scope& s, std::int64_t layer_id) {
  store::Sql q("select " + layer_role_sql(s, std::to_string(layer_id)));
  return s.db->with([&](soci::session& db) { return store::fetch_value(db, q); });
}

}  // namespace cadastre::platform::guard
