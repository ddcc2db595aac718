#include "platform/additional_layers/store.hpp"

#include <soci/soci.h>

#include "cadastre/error.hpp"
#include "platform/guard/guard.hpp"
#include "platform/projects/shapes.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::additional_layers {

namespace shapes = projects::shapes;

std::string list(const service::Caller& scope, const std::optional<std::vector<std::int64_t>>& ids, bool grouped) {
  store::Sql projects("select p.id, p.nome from projeto.projetos p where " + guard::project_role_sql(scope, "p.id") +
                      " is not null and ");
  if (ids) {
    std::string list;
    for (std::int64_t id : *ids) list += (list.empty() ? "" : ",") + std::to_string(id);
    projects << "p.id in (" << (list.empty() ? "null" : list) << ")";
  } else {
    projects << "p.ativo";
  }
  std::string q = "with p as materialized (" + projects.text() + ") ";
  if (grouped)
    q += "select coalesce(jsonb_agg(jsonb_build_object('idProjeto', p.id, 'nome', p.nome, 'camadas', "
         "coalesce((select jsonb_agg(" + std::string(shapes::kAdditionalLayer) +
         " order by a.ordem, a.id) from projeto.camadas_adicionais a where a.projeto_id = p.id), '[]')) "
         "order by p.nome, p.id), '[]')::text from p";
  else
    q += "select coalesce(jsonb_agg(" + std::string(shapes::kAdditionalLayer) +
         " order by a.projeto_id, a.ordem, a.id), '[]')::text from projeto.camadas_adicionais a join p on p.id = a.projeto_id";
  store::Sql sql(q);
  return scope.db->with([&](soci::session& s) { return store::fetch_value(s, sql).value_or("[]"); });
}

std::string create(const service::Caller& scope, const NewLayer& n) {
  store::Sql q("insert into projeto.camadas_adicionais as a (projeto_id, nome, tipo, url, camadas, opcoes, ordem) values (" +
               std::to_string(n.project) + ", ");
  q.bind(n.nome) << ", ";
  q.bind(n.tipo) << ", ";
  q.bind(n.url) << ", ";
  q.bind(n.camadas) << ", ";
  q.bind(n.opcoes, "jsonb") << ", " << std::to_string(n.ordem) << ") returning " << shapes::kAdditionalLayer << "::text";
  return *scope.db->with([&](soci::session& s) { return store::fetch_value(s, q); });
}

void remove(const service::Caller& scope, std::int64_t id) {
  store::Sql q("delete from projeto.camadas_adicionais where id = " + std::to_string(id));
  scope.db->run([&](soci::session& s) {
    if (store::execute(s, q) == 0) throw Error(errc::not_found, "camada adicional não encontrada", "id");
  });
}

}  // namespace cadastre::platform::additional_layers
