#include "platform/guard.hpp"

#include <array>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
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

int rank(std::string_view role) noexcept {
  if (role.empty()) return 0;
  if (role == "leitura") return 1;
  if (role == "edicao") return 2;
  if (role == "admin" || role == "gestao") return 3;
  return -1;
}

bool allows(const Standing& st, std::string_view role) noexcept {
  if (st.held.empty() || rank(st.held) < rank(role)) return false;
  if (role == "edicao" || role == "admin")
    return st.project_active && !st.superseded && st.layer_active && st.form_active;
  return true;
}

bool known_record(std::string_view record) noexcept { return kind_of(record) != nullptr; }

std::string project_role_sql(const service::Scope& s, std::string_view id_sql) {
  return "projeto.papel_projeto(" + std::string(id_sql) + ", " + caller_args(s) + ")";
}

std::string layer_role_sql(const service::Scope& s, std::string_view id_sql) {
  return "projeto.papel_camada(" + std::string(id_sql) + ", " + caller_args(s) + ")";
}

service::Grant require(const service::Scope& s, std::string_view record, std::int64_t id, std::string_view role,
                       std::string_view field) {
  const Kind* kind = kind_of(record);
  if (!kind || rank(role) <= 0) throw std::logic_error("permissão de registro mal declarada: " + std::string(record));
  std::string from(kind->from);
  from.replace(from.find("$id"), 3, std::to_string(id));
  store::Sql q("select p.id::text, c.id::text, p.ativo::text, p.somente_leitura::text, "
               "coalesce(c.ativo, true)::text, coalesce(f.ativo, true)::text, case when c.id is null then " +
               project_role_sql(s, "p.id") + " else " + layer_role_sql(s, "c.id") + " end from " + from);
  std::vector<store::Row> rows = s.db->with([&](soci::session& db) { return store::fetch(db, q); });
  std::string what = std::string(kind->noun) + " " + std::to_string(id);
  // Another tenant's ids live in another database: they are simply unknown here.
  if (rows.empty()) throw Error(errc::not_found, "não encontrado: " + what, std::string(field));
  const store::Row& r = rows.front();
  std::string held = r[6].value_or("");
  // Nothing at all: the record is not shown to the caller, as if it did not exist.
  if (held.empty()) throw Error(errc::not_found, "não encontrado: " + what, std::string(field));
  Standing st{held, r[2] != "false", r[3] == "true", r[4] != "false", r[5] != "false"};
  if (!allows(st, role)) {
    if (rank(held) < rank(role))
      throw Error(errc::forbidden, "o seu papel em " + what + " é " + held + "; esta ação pede " +
                                       (role == "gestao" ? std::string("admin") : std::string(role)));
    // The role suffices: a state refuses the edit.
    if (!st.project_active)
      throw Error(errc::invalid_transition, "o projeto " + *r[0] + " está inativo: ative-o antes de editar");
    if (st.superseded)
      throw Error(errc::invalid_transition, "o projeto " + *r[0] + " é uma versão anterior, somente leitura");
    if (!st.layer_active)
      throw Error(errc::invalid_transition, "a camada " + *r[1] + " está inativa: ative-a antes de editar");
    throw Error(errc::invalid_transition, "o formulário está inativo: ative-o antes de editar");
  }
  service::Grant g;
  g.record = std::string(record);
  g.id = id;
  g.project_id = std::stoll(*r[0]);
  g.layer_id = r[1] ? std::stoll(*r[1]) : 0;
  g.role = held;
  return g;
}

service::Grant resolve(const service::Scope& s, const http::Access& a, const http::Request& req) {
  std::string name = a.param;
  std::string text;
  if (name.size() > 2 && name.front() == '{') {
    name = name.substr(1, name.size() - 2);
    text = req.param(name);
  } else {
    auto v = req.query_value(name);
    if (!v) throw Error(errc::missing_field, name + " é obrigatório", name);
    text = *v;
  }
  std::int64_t id = query::parse_integer(text, name, 1, INT64_MAX);
  return require(s, a.record, id, a.role, name);
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
