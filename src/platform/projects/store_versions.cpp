#include "platform/projects/store_versions.hpp"

#include <soci/soci.h>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "platform/guard/guard.hpp"
#include "platform/projects/store_copy.hpp"
#include "platform/projects/store_files.hpp"
#include "platform/projects/store.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::projects {
namespace {

std::string counts_json(const Copied& c) {
  JsonWriter w;
  w.begin_object().key("camadas").value(c.layers).key("formularios").value(c.forms).key("campos").value(c.fields);
  w.key("geometrias").value(c.geometries).key("valores").value(c.values).end_object();
  return std::move(w).str();
}

}  // namespace

std::int64_t copy_project(const service::Caller& scope, const CopyRequest& r, const common::FileStore& file_store) {
  const std::string src = std::to_string(r.id), user = std::to_string(scope.user.user_id);
  std::unique_ptr<FileCopies> files;  // removed again unless the rows commit
  std::int64_t id = scope.db->with([&](soci::session& s) {
    soci::transaction tx(s);
    allow_long_statements(s);
    store::Sql q("insert into projeto.projetos (nome, descricao, tipo, notas, criado_por) select ");
    q.bind(r.nome) << ", descricao, tipo, notas, " << user << " from projeto.projetos where id = " << src
                   << " returning id::text";
    auto created = store::fetch_value(s, q);
    if (!created) throw Error(errc::not_found, "projeto " + src + " não encontrado", "idProjeto");
    std::int64_t to = std::stoll(*created);
    // Only what the caller may see is copied: a private layer stays behind.
    CopySource from{guard::layer_role_sql(scope, "c.id") + " is not null"};
    Copied c = copy_contents(s, from, r.id, to, {.geometries = r.geometrias, .values = r.valores}, scope.user.user_id);
    files = std::make_unique<FileCopies>(file_store, scope.tenant.slug, scope.tenant.slug, c.copies);
    files->record(s);
    std::string counts = counts_json(c);
    record_event(s, to, "copia_criada", "{\"origem\":" + src + ",\"copiados\":" + counts + "}", scope.user.user_id);
    record_event(s, r.id, "copiado", "{\"copia\":" + *created + ",\"copiados\":" + counts + "}", scope.user.user_id);
    tx.commit();
    return to;
  });
  files->keep();
  return id;
}

std::int64_t new_version(const service::Caller& scope, std::int64_t id, const common::FileStore& file_store) {
  const std::string old = std::to_string(id);
  std::unique_ptr<FileCopies> files;  // removed again unless the rows commit
  std::int64_t made = scope.db->with([&](soci::session& s) {
    soci::transaction tx(s);
    allow_long_statements(s);
    // Under the row lock, so two concurrent requests cannot both supersede the same version.
    auto state = store::fetch_value(
        s, store::Sql("select tipo || ',' || somente_leitura::text from projeto.projetos where id = " + old + " for update"));
    if (!state) throw Error(errc::not_found, "projeto " + old + " não encontrado", "idProjeto");
    if (state->rfind("cadastro_imobiliario,", 0) != 0)
      throw Error(errc::invalid_transition,
                  "o projeto " + old + " é do tipo " + state->substr(0, state->find(',')) +
                      ": só projetos cadastro_imobiliario têm versões",
                  "idProjeto");
    if (state->ends_with(",true"))
      throw Error(errc::invalid_transition, "o projeto " + old + " já foi substituído por uma versão mais nova",
                  "idProjeto");
    auto id_text = store::fetch_value(
        s, store::Sql("insert into projeto.projetos (nome, descricao, tipo, publicado, notas, versao, versao_anterior, "
                      "criado_por) select nome, descricao, tipo, publicado, notas, versao + 1, id, criado_por "
                      "from projeto.projetos where id = " + old + " returning id::text"));
    std::int64_t to = std::stoll(*id_text);
    Copied c = copy_contents(s, CopySource{}, id, to, {.geometries = true, .values = true, .shares = true},
                             scope.user.user_id);
    files = std::make_unique<FileCopies>(file_store, scope.tenant.slug, scope.tenant.slug, c.copies);
    files->record(s);
    store::execute(s, store::Sql("update projeto.projetos set somente_leitura = true, atualizado_em = now() where id = " + old));
    std::string counts = counts_json(c);
    record_event(s, to, "versao_criada", "{\"versaoAnterior\":" + old + ",\"copiados\":" + counts + "}",
                 scope.user.user_id);
    record_event(s, id, "versao_substituida", "{\"novaVersao\":" + *id_text + "}", scope.user.user_id);
    tx.commit();
    return to;
  });
  files->keep();
  return made;
}

}  // namespace cadastre::platform::projects
