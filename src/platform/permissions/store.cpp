#include "platform/permissions/store.hpp"

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "platform/guard/guard.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::permissions {
namespace {

// The actions of the routes and the role their table entries declare.
struct Action {
  const char* name;
  const char* role;
};
constexpr Action kProjectActions[] = {{"ver", "leitura"},          {"editarDados", "edicao"},
                                      {"editarEstrutura", "admin"}, {"compartilhar", "admin"},
                                      {"publicar", "gestao"},       {"ativarInativar", "gestao"},
                                      {"excluir", "gestao"}};
constexpr Action kLayerActions[] = {{"ver", "leitura"},          {"editarDados", "edicao"},
                                    {"editarEstrutura", "admin"}, {"gerirDireitos", "admin"},
                                    {"ativarInativar", "gestao"}, {"excluir", "gestao"}};

template <std::size_t N>
void write_actions(JsonWriter& w, const guard::Standing& st, const Action (&actions)[N]) {
  w.key("pode").begin_object();
  for (const Action& a : actions) w.key(a.name).value(guard::allows(st, a.role));
  w.end_object();
}

bool yes(const store::Value& v) { return v && *v == "true"; }

// Columns shared by the project queries: id, nome, ativo, publicado, somente_leitura, papel.
std::string project_columns(const service::Caller& s) {
  return "p.id::text, p.nome, p.ativo::text, p.publicado::text, p.somente_leitura::text, " +
         guard::project_role_sql(s, "p.id");
}
// And the layer queries: id, projeto_id, nome, privada, ativo, project ativo, somente_leitura, papel.
std::string layer_columns(const service::Caller& s) {
  return "c.id::text, c.projeto_id::text, c.nome, c.privada::text, c.ativo::text, p.ativo::text, "
         "p.somente_leitura::text, " +
         guard::layer_role_sql(s, "c.id");
}

void write_project(JsonWriter& w, const store::Row& r) {
  guard::Standing st{r[5].value_or(""), yes(r[2]), yes(r[4])};
  w.key("idProjeto").raw(*r[0]).key("nome").value(*r[1]).key("ativo").value(yes(r[2]));
  w.key("publicado").value(yes(r[3])).key("somenteLeitura").value(yes(r[4])).key("papel").value(st.held);
  write_actions(w, st, kProjectActions);
}

void write_layer(JsonWriter& w, const store::Row& r) {
  guard::Standing st{r[7].value_or(""), yes(r[5]), yes(r[6]), yes(r[4])};
  w.key("idCamada").raw(*r[0]).key("idProjeto").raw(*r[1]).key("nome").value(*r[2]);
  w.key("privada").value(yes(r[3])).key("ativa").value(yes(r[4])).key("papel").value(st.held);
  write_actions(w, st, kLayerActions);
}

std::vector<store::Row> fetch(const service::Caller& s, const store::Sql& q) {
  return s.db->with([&](soci::session& db) { return store::fetch(db, q); });
}

std::string layers_where(const service::Caller& s, const std::string& where) {
  store::Sql q("select " + layer_columns(s) +
               " from projeto.camadas c join projeto.projetos p on p.id = c.projeto_id where " + where +
               " and " + guard::layer_role_sql(s, "c.id") + " is not null order by c.projeto_id, c.ordem, c.id");
  JsonWriter w;
  w.begin_array();
  for (const auto& r : fetch(s, q)) {
    w.begin_object();
    write_layer(w, r);
    w.end_object();
  }
  w.end_array();
  return std::move(w).str();
}

}  // namespace

std::string projects(const service::Caller& s) {
  store::Sql q("select " + project_columns(s) + " from projeto.projetos p where " +
               guard::project_role_sql(s, "p.id") + " is not null order by p.nome, p.id");
  JsonWriter w;
  w.begin_array();
  for (const auto& r : fetch(s, q)) {
    w.begin_object();
    write_project(w, r);
    w.end_object();
  }
  w.end_array();
  return std::move(w).str();
}

std::string project(const service::Caller& s, std::int64_t id) {
  store::Sql q("select " + project_columns(s) + " from projeto.projetos p where p.id = ");
  q.bind(std::to_string(id), "bigint");
  auto rows = fetch(s, q);
  if (rows.empty() || !rows[0][5]) throw Error(errc::not_found, "não encontrado: projeto " + std::to_string(id), "idProjeto");
  JsonWriter w;
  w.begin_object();
  write_project(w, rows[0]);
  w.key("camadas").raw(layers_where(s, "c.projeto_id = " + std::to_string(id)));
  w.end_object();
  return std::move(w).str();
}

std::string layers(const service::Caller& s) { return layers_where(s, "true"); }

std::string layer(const service::Caller& s, std::int64_t id) {
  std::string one = layers_where(s, "c.id = " + std::to_string(id));
  if (one == "[]") throw Error(errc::not_found, "não encontrado: camada " + std::to_string(id), "camadaId");
  return one.substr(1, one.size() - 2);
}

std::vector<Member> members(store::Pool& platform, std::int64_t tenant_id) {
  store::Sql q("select id::text, nome, email, adm::text from plataforma.usuarios where ativo and tenant_id = ");
  q.bind(std::to_string(tenant_id), "bigint") << " order by nome, id limit 10000";
  std::vector<Member> out;
  for (const auto& r : platform.with([&](soci::session& db) { return store::fetch(db, q); }))
    out.push_back({std::stoll(*r[0]), r[1].value_or(""), r[2].value_or(""), yes(r[3])});
  return out;
}

std::string table(const service::Caller& s, std::int64_t project_id, const std::vector<Member>& members) {
  std::string ids = "{", admins = "{";
  for (std::size_t i = 0; i < members.size(); ++i) {
    ids += (i ? "," : "") + std::to_string(members[i].id);
    admins += std::string(i ? "," : "") + (members[i].admin ? "t" : "f");
  }
  ids += "}";
  admins += "}";
  // Per member: the project role, where it comes from, and the role on each layer.
  store::Sql q(
      "select u.id::text, projeto.papel_projeto(p.id, u.id, u.adm), "
      "case when u.adm then 'administrador do município' when p.criado_por = u.id then 'criador do projeto' "
      "when pu.papel is not null then 'compartilhamento' when p.publicado then 'projeto publicado' "
      "else 'direito em camada' end, "
      "coalesce((select json_agg(json_build_object('idCamada', c.id, 'nome', c.nome, 'papel', "
      "projeto.papel_camada(c.id, u.id, u.adm)) order by c.ordem, c.id)::text "
      "from projeto.camadas c where c.projeto_id = p.id), '[]') "
      "from projeto.projetos p cross join unnest(");
  q.bind(ids, "bigint[]") << ", ";
  q.bind(admins, "boolean[]") << ") as u(id, adm) "
      "left join projeto.projeto_usuarios pu on pu.projeto_id = p.id and pu.usuario_id = u.id where p.id = ";
  q.bind(std::to_string(project_id), "bigint") << " and projeto.papel_projeto(p.id, u.id, u.adm) is not null";
  JsonWriter w;
  w.begin_object().key("idProjeto").value(project_id).key("usuarios").begin_array();
  for (const auto& r : fetch(s, q)) {
    std::int64_t uid = std::stoll(*r[0]);
    const Member* m = nullptr;
    for (const Member& x : members)
      if (x.id == uid) m = &x;
    w.begin_object().key("idUsuario").value(uid).key("nome").value(m->nome).key("email").value(m->email);
    w.key("papel").value(*r[1]).key("origem").value(*r[2]).key("camadas").raw(*r[3]).end_object();
  }
  w.end_array().end_object();
  return std::move(w).str();
}

}  // namespace cadastre::platform::permissions
