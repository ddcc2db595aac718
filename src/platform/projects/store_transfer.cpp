#include "platform/projects/store_transfer.hpp"

#include <soci/soci.h>

#include <algorithm>
#include <regex>
#include <set>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "platform/common/layer_table.hpp"
#include "platform/projects/store_copy.hpp"
#include "platform/projects/store_files.hpp"
#include "platform/projects/store.hpp"
#include "store/crypto.hpp"
#include "store/dsn.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::projects {
namespace {

// <prefix><token>_<o|d>_<origin tenant>_<target tenant>: all we need to resolve it later.
struct Gid {
  std::string token;
  char side = 'o';
  std::int64_t origin = 0, target = 0;
  std::string text() const {
    return std::string(kGidPrefix) + token + "_" + side + "_" + std::to_string(origin) + "_" + std::to_string(target);
  }
};

std::optional<Gid> parse_gid(const std::string& text) {
  static const std::regex kGid(std::string(kGidPrefix) + "([0-9a-f]{24})_([od])_([0-9]{1,18})_([0-9]{1,18})");
  std::smatch m;
  if (!std::regex_match(text, m, kGid)) return std::nullopt;
  return Gid{m[1], m[2].str()[0], std::stoll(m[3]), std::stoll(m[4])};
}

// COMMIT PREPARED / ROLLBACK PREPARED (the gid is ours: hex and digits, never request text).
void finish(store::Pool& pool, const Gid& gid, bool commit) {
  pool.run([&](soci::session& s) { s << (commit ? "commit prepared '" : "rollback prepared '") + gid.text() + "'"; });
}

// Whether the target committed transfer `token` (its audit row is the decision record).
bool target_committed(store::Pool& target, const std::string& token) {
  store::Sql q("select 1 from projeto.eventos where operacao = 'transferir_entrada' and detalhes->>'gid' = ");
  q.bind(token);
  return target.with([&](soci::session& s) { return store::fetch_value(s, q).has_value(); });
}

// One prepared transaction by the rule of transfer.hpp; false when it cannot be decided now.
bool resolve(const Gid& gid, const PoolOf& pool_of, const Log& log) {
  store::Pool* own = pool_of(gid.side == 'o' ? gid.origin : gid.target);
  if (!own) return false;
  // pg_prepared_xacts shows the whole server: act only where the gid really lives (ids of
  // another platform sharing the server would name other databases).
  store::Sql here("select 1 from pg_prepared_xacts where database = current_database() and gid = ");
  here.bind(gid.text());
  if (!own->with([&](soci::session& s) { return store::fetch_value(s, here).has_value(); })) return false;
  bool commit = false;
  if (gid.side == 'o') {
    store::Pool* target = pool_of(gid.target);
    if (!target) return false;
    commit = target_committed(*target, gid.token);
  }
  finish(*own, gid, commit);
  log("transferência " + gid.token + ": " + (commit ? "confirmada" : "desfeita") + " a transação preparada " + gid.text());
  return true;
}

}  // namespace

Transferred transfer(const service::Caller& scope, std::int64_t id, const store::Tenant& target,
                     store::Pool& target_pool, std::int64_t owner, const PoolOf& pool_of,
                     const common::FileStore& files, const Log& log) {
  Gid origin{store::random_token().substr(0, 24), 'o', scope.tenant.id, target.id};
  Gid dest = origin;
  dest.side = 'd';
  const std::string P = std::to_string(id);

  // 1. The origin: the export and the delete read one snapshot (repeatable read), so a
  //    change committed meanwhile fails the delete instead of being dropped unseen.
  std::unique_ptr<FileCopies> copies;  // the target's copies of the files: removed unless all commits
  std::vector<LayerCopy> moved;        // the origin's layers, whose files go once all committed
  std::string doc = scope.db->with([&](soci::session& s) {
    s << "begin isolation level repeatable read";
    allow_long_statements(s);
    // Attachments (projeto.arquivos) do not travel yet: moving the project would leave them
    // behind to be deleted with it, so a project that has any stays where it is.
    std::string attached = *store::fetch_value(
        s, store::Sql("select count(*)::text from projeto.arquivos where projeto_id = " + P));
    if (attached != "0")
      throw Error(errc::conflict, "o projeto tem " + attached +
                                      " arquivo(s) anexado(s), que a transferência ainda não leva: "
                                      "baixe-os e remova-os antes de transferir",
                  "id");
    std::string d = export_project(s, id);
    // The project's layers as a constant: the statement is planned on their partitions.
    store::execute(s, store::Sql("delete from projeto.valores_auditoria a using projeto.geometrias g, projeto.camadas c "
                                 "where g.id = a.geometria_id and c.id = g.camada_id and c.projeto_id = " + P +
                                 " and g.camada_id = any('" + common::project_layers(s, id) + "'::bigint[])"));
    store::execute(s, store::Sql("delete from projeto.projetos where id = " + P));
    JsonWriter w;
    w.begin_object().key("gid").value(origin.token).key("destino").begin_object();
    w.key("idTenant").value(target.id).key("tenant").value(target.slug).end_object();
    w.key("idUsuario").value(owner).end_object();
    record_event(s, id, "transferir_saida", w.str(), scope.user.user_id);
    s << "prepare transaction '" + origin.text() + "'";
    return d;
  });

  // The document is parsed once, here, and read in place by every statement below.
  const DocumentParts parts = document_parts(doc);

  // 2. The target. Whatever fails here, the origin's half is rolled back before answering.
  std::int64_t new_id = 0;
  try {
    new_id = target_pool.with([&](soci::session& s) {
      s << "begin";
      allow_long_statements(s);
      // The project row keeps its state and version; its previous version stays behind.
      store::Sql p("insert into projeto.projetos (nome, descricao, tipo, ativo, publicado, notas, versao, "
                   "somente_leitura, criado_por, criado_em) select r.nome, r.descricao, r.tipo, r.ativo, r.publicado, "
                   "r.notas, r.versao, r.somente_leitura, " + std::to_string(owner) + ", r.criado_em "
                   "from jsonb_populate_record(null::projeto.projetos, ");
      p.bind(document_project(parts), "jsonb") << ") r returning id::text";
      std::int64_t to = std::stoll(*store::fetch_value(s, p));
      Copied c = copy_contents(s, CopySource{"true", &parts}, id, to,
                               {.geometries = true, .values = true, .history = true, .keep_users = false}, owner);
      copies = std::make_unique<FileCopies>(files, scope.tenant.slug, target.slug, c.copies);
      copies->record(s);
      moved = c.copies;
      JsonWriter w;
      w.begin_object().key("gid").value(origin.token).key("origem").begin_object();
      w.key("idTenant").value(scope.tenant.id).key("tenant").value(scope.tenant.slug).key("idProjeto").value(id);
      w.end_object().key("idUsuario").value(owner);
      // The history's user ids (events, value audit) are the origin's users.
      w.key("usuariosDoHistorico").value(scope.tenant.slug).end_object();
      record_event(s, to, "transferir_entrada", w.str(), scope.user.user_id);
      s << "prepare transaction '" + dest.text() + "'";
      return to;
    });
  } catch (const std::exception& e) {
    try {
      finish(*scope.db, origin, false);
    } catch (...) {  // left prepared: recover_orphans() rolls it back (the target never committed)
    }
    if (dynamic_cast<const Error*>(&e)) throw;
    // The database's text up to its statement (which holds the exported document).
    std::string why = e.what();
    why = why.substr(0, std::min({why.find(" while executing"), why.find('\n'), std::size_t{500}}));
    log("transferência " + origin.token + " desfeita: o banco de " + target.slug + " falhou: " + why);
    throw Error(errc::internal, "o banco de dados de " + target.slug + " falhou durante a transferência " +
                                    origin.token + "; nada mudou em nenhum dos dois municípios");
  }

  // 3. The decision: the target commits first. Past this point a failure is resolved by the
  //    rule of recover_orphans(), here at once (this process runs this transfer: no race).
  try {
    finish(target_pool, dest, true);
    finish(*scope.db, origin, true);
  } catch (...) {
    for (const Gid& g : {dest, origin}) {
      try {
        resolve(g, pool_of, log);
      } catch (...) {
      }
    }
    // Whichever way it went, files to spare beat layers without theirs.
    copies->keep();
    throw Error(errc::unavailable,
                "a transferência " + origin.token + " foi interrompida na confirmação; ela será concluída ou desfeita "
                "pela recuperação de transações ao reiniciar a plataforma");
  }
  copies->keep();
  // The origin's files, now of no layer: erased (a failure leaves them as spare files only).
  for (const LayerCopy& l : moved) {
    try {
      common::SetAside gone(files, scope.tenant.slug, l.from, l.arquivo);
      gone.commit();
    } catch (const std::exception& e) {
      log("transferência " + origin.token + ": arquivos da camada " + std::to_string(l.from) + " ficaram na origem: " + e.what());
    }
  }
  return {new_id, origin.token};
}

int recover_orphans(store::Pool& any, const PoolOf& pool_of, std::chrono::seconds min_age, const Log& log) {
  store::Sql q("select coalesce(string_agg(gid, ','), '') from pg_prepared_xacts where gid like '");
  q << std::string(kGidPrefix) << "%' and prepared <= now() - interval '" << std::to_string(min_age.count()) << " seconds'";
  std::string gids = any.with([&](soci::session& s) { return store::fetch_value(s, q).value_or(""); });
  int resolved = 0;
  for (std::size_t i = 0; i < gids.size();) {
    std::size_t j = std::min(gids.find(',', i), gids.size());
    if (auto gid = parse_gid(gids.substr(i, j - i))) {
      try {
        if (resolve(*gid, pool_of, log)) ++resolved;
      } catch (const std::exception& e) {
        log("transferência " + gid->token + ": a transação preparada " + gid->text() + " ficou pendente: " + e.what());
      }
    }
    i = j + 1;
  }
  return resolved;
}

int recover_orphans_everywhere(store::Pool& platform, const std::string& platform_dsn,
                               const std::vector<store::Tenant>& tenants, const PoolOf& pool_of,
                               std::chrono::seconds min_age, const Log& log) {
  // pg_prepared_xacts lists a whole server: one pool per server is enough.
  std::set<std::string> done;
  int resolved = 0;
  auto on = [&](const std::string& dsn, store::Pool* pool) {
    if (!pool || !done.insert(store::server_of(dsn)).second) return;
    try {
      resolved += recover_orphans(*pool, pool_of, min_age, log);
    } catch (const std::exception& e) {
      log("recuperação de transferências adiada em " + store::server_of(dsn) + ": " + e.what());
    }
  };
  on(platform_dsn, &platform);
  for (const auto& t : tenants)
    if (t.ativo) on(t.dsn, pool_of(t.id));
  return resolved;
}

}  // namespace cadastre::platform::projects
