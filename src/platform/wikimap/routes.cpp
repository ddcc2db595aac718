// Wiki map: the catalog of published maps across tenants (docs/platform-ombudsman-wikimap.md).
// An entry stands for a published project of a tenant. The catalog lives in the platform
// database; a tenant's entries are brought in line with its projects when one of its users
// lists or searches the catalog (sync_tenant), and an entry read by id is checked against
// its project's publication in its own tenant — the one read of another tenant's database,
// a single flag. Every signed-in user reads the catalog, keeps a list, rates and comments;
// the project's admins (in the map's tenant) edit the entry.
#include "cadastre/json.hpp"
#include "platform/app.hpp"
#include "platform/guard/guard.hpp"
#include "platform/projects/store_catalog.hpp"
#include "platform/schemas.hpp"
#include "platform/wikimap/input.hpp"
#include "platform/wikimap/store.hpp"

namespace cadastre::platform::wikimap {
namespace {

using http::Request;
using http::Response;

constexpr const char* kTag = "Wiki mapa";

struct WikiMap {
  store::Pool* platform;
  store::Identity* identity;
  store::TenantPools* tenants;

  store::Pool& db() const { return *platform; }

  void sync(const service::Scope& s) const { projects::refresh_catalog(db(), s); }
  // The entry, 404 unless its project is still published (its flag refreshed on the way).
  EntryRef published(std::int64_t id) const {
    EntryRef ref = entry_ref(db(), id);
    auto t = identity->tenant_by_id(ref.tenant_id);
    bool now = t && t->ativo && project_published(tenants->pool(*t), ref.projeto_id);
    if (now != ref.publicado) set_published(db(), id, now);
    if (!now) throw Error(errc::not_found, "mapa não encontrado no catálogo", "id");
    ref.publicado = now;
    return ref;
  }

  Response list(const service::Scope& s, Request& req) const {
    Page pg = parse_page(req, "atualizadoEm", true);
    sync(s);
    return Response::json(page_json(page(db(), Search{}, s.user.user_id, pg), pg));
  }
  Response search(const service::Scope& s, Request& req) const {
    Search f = parse_search(req);
    Page pg = parse_page(req, "atualizadoEm", true);
    sync(s);
    return Response::json(page_json(page(db(), f, s.user.user_id, pg), pg));
  }
  Response read(const service::Scope& s, Request& req) const {
    std::int64_t id = path_id(req);
    published(id);
    return Response::json(entry(db(), id, s.user.user_id));
  }
  Response change(const service::Scope& s, Request& req) const {
    std::int64_t id = path_id(req);
    EntryFields f = parse_entry(req.body);
    EntryRef ref = published(id);
    if (ref.tenant_id != s.tenant.id)
      throw Error(errc::forbidden, "somente um administrador do projeto, no município do mapa, altera o mapa", "id");
    guard::require(s, "projeto", ref.projeto_id, "admin", "id");
    return Response::json(update(db(), id, f, s.user.user_id));
  }
  Response cfgs(const service::Scope& s, Request&) const {
    sync(s);
    return Response::json(configs(db()));
  }
  Response mine(const service::Scope& s, Request& req) const {
    Page pg = parse_page(req, "atualizadoEm", true);
    return Response::json(page_json(my_list(db(), s.user.user_id, pg), pg));
  }
  Response add_mine(const service::Scope& s, Request& req) const {
    std::int64_t id = required_id(req);
    published(id);
    bool added = add_to_list(db(), s.user.user_id, id);
    return Response::json(entry(db(), id, s.user.user_id), added ? 201 : 200);
  }
  Response ratings(const service::Scope& s, Request& req) const {
    if (auto id = optional_id(req)) {
      published(*id);
      return Response::json(ratings_of(db(), *id, s.user.user_id));
    }
    Page pg = parse_page(req, "atualizadoEm", true);
    return Response::json(page_json(my_ratings(db(), s.user.user_id, pg), pg));
  }
  Response rate(const service::Scope& s, Request& req) const {
    std::int64_t id = required_id(req);
    int nota = parse_rating(req.body);
    published(id);
    return Response::json(wikimap::rate(db(), id, s.user.user_id, nota));
  }
  Response comment(const service::Scope& s, Request& req) const {
    std::int64_t id = path_id(req);
    std::string texto = parse_comment(req.body);
    published(id);
    return Response::json(add_comment(db(), id, s.user.user_id, texto), 201);
  }
  Response uncomment(const service::Scope& s, Request&) const {
    delete_comment(db(), s.grant().id);
    return Response::no_content();
  }
};

}  // namespace
}  // namespace cadastre::platform::wikimap

namespace cadastre::platform {

void add_wikimap_routes(App& app) {
  using namespace wikimap;
  auto w = std::make_shared<const WikiMap>(WikiMap{&app.platform(), &app.identity(), &app.tenants()});
  // The catalog is every municipality's published maps: any signed-in user reads it.
  const http::Access catalog = http::members("o catálogo público de mapas publicados, de todos os municípios");
  const std::vector<http::Param> paging = page_params(kOrderColumns);
  const http::Param id_param{.name = "id", .type = "integer", .required = true, .description = "o mapa do catálogo"};
  std::vector<http::Param> search_params = paging;
  search_params.push_back({.name = "id", .type = "integer", .description = "um mapa do catálogo"});
  search_params.push_back({.name = "q", .description = "busca sem acentos no título, descrição, organização, município e temas"});
  search_params.push_back({.name = "temaGeral", .description = "tema geral (de /wikimap/cfgs)"});
  search_params.push_back({.name = "temaEspecifico", .description = "tema específico (de /wikimap/cfgs)"});
  search_params.push_back({.name = "organizacao", .description = "a organização do mapa"});
  std::vector<http::Param> rating_params = paging;
  rating_params.push_back({.name = "id", .type = "integer",
                           .description = "um mapa: a sua média, contagem e distribuição; sem id: as avaliações do usuário"});
  const std::string entry_body = R"({"titulo"?, "descricao"?, "temaGeral"?, "temaEspecifico"? (juntos), "organizacao"?})";
  auto& srv = app.server();
  srv.add({.method = "GET", .pattern = "/wikimap", .auth = "sessao", .access = catalog, .tag = kTag,
           .summary = "O catálogo de mapas publicados de todos os municípios, paginado", .params = paging,
           .answer_schema = schemas::page_of("MapaWiki"), .handler = service::scoped(w, &WikiMap::list)});
  srv.add({.method = "GET", .pattern = "/wikimap/consulta", .auth = "sessao", .access = catalog, .tag = kTag,
           .summary = "Busca no catálogo por texto (sem acentos), temas e organização", .params = search_params,
           .answer_schema = schemas::page_of("MapaWiki"), .handler = service::scoped(w, &WikiMap::search)});
  srv.add({.method = "GET", .pattern = "/wikimap/cfgs", .auth = "sessao", .access = catalog, .tag = kTag,
           .summary = "Os temas, as organizações e as opções do catálogo", .answer_schema = schemas::ref("ConfiguracaoWiki"),
           .handler = service::scoped(w, &WikiMap::cfgs)});
  srv.add({.method = "GET", .pattern = "/wikimap/minha-lista", .auth = "sessao", .access = http::members("a própria lista"), .tag = kTag,
           .summary = "Os mapas da lista do usuário, paginados", .params = paging,
           .answer_schema = schemas::page_of("MapaWiki"), .handler = service::scoped(w, &WikiMap::mine)});
  srv.add({.method = "POST", .pattern = "/wikimap/minha-lista", .auth = "sessao", .access = http::members("a própria lista"), .tag = kTag,
           .summary = "Põe um mapa na lista do usuário (201; 200 se já estava)", .params = {id_param},
           .answer_status = 201, .answer_schema = schemas::ref("MapaWiki"), .handler = service::scoped(w, &WikiMap::add_mine)});
  srv.add({.method = "GET", .pattern = "/wikimap/avaliacoes", .auth = "sessao", .access = http::members("o catálogo público de mapas publicados, de todos os municípios; sem id, as próprias avaliações"), .tag = kTag,
           .summary = "As avaliações de um mapa (com id) ou as do usuário (sem id)", .params = rating_params,
           .answer_schema = R"({"oneOf":[)" + schemas::ref("AvaliacoesDoMapaWiki") + "," +
                            schemas::page_of("MinhaAvaliacaoWiki") + "]}",
           .handler = service::scoped(w, &WikiMap::ratings)});
  srv.add({.method = "POST", .pattern = "/wikimap/avaliar", .auth = "sessao", .access = http::members("a própria avaliação de um mapa do catálogo"), .tag = kTag,
           .summary = "Avalia um mapa de 1 a 5 (uma avaliação por usuário: a nova substitui a anterior)",
           .params = {id_param},
           .body = {.description = R"({"nota": 1..5})", .max_bytes = 1024, .schema = schemas::ref("AvaliacaoWikiNova")},
           .answer_schema = schemas::ref("AvaliacaoWiki"), .handler = service::scoped(w, &WikiMap::rate)});
  srv.add({.method = "DELETE", .pattern = "/wikimap/comentario/{id}", .auth = "sessao", .access = http::on("comentario", "{id}", "proprio"), .tag = kTag,
           .summary = "Exclui um comentário (o autor ou um administrador)", .answers = "", .answer_status = 204,
           .handler = service::scoped(w, &WikiMap::uncomment)});
  srv.add({.method = "GET", .pattern = "/wikimap/{id}", .auth = "sessao", .access = catalog, .tag = kTag,
           .summary = "Um mapa do catálogo com os seus comentários mais recentes",
           .answer_schema = schemas::ref("MapaWiki"), .handler = service::scoped(w, &WikiMap::read)});
  srv.add({.method = "PUT", .pattern = "/wikimap/{id}", .auth = "sessao", .access = http::members("admin no projeto do mapa, no município do mapa (verificado pelo guarda)"), .tag = kTag,
           .summary = "Altera o verbete de um mapa (administrador do projeto, no município do mapa)",
           .body = {.description = entry_body, .max_bytes = 16384, .schema = schemas::ref("MapaWikiAlteracao")},
           .answer_schema = schemas::ref("MapaWiki"), .handler = service::scoped(w, &WikiMap::change)});
  srv.add({.method = "POST", .pattern = "/wikimap/{id}/comentario", .auth = "sessao", .access = http::members("um comentário próprio num mapa do catálogo"), .tag = kTag,
           .summary = "Comenta um mapa do catálogo",
           .body = {.description = R"({"texto"})", .max_bytes = 8192, .schema = schemas::ref("ComentarioWikiNovo")},
           .answer_status = 201, .answer_schema = schemas::ref("ComentarioWiki"), .handler = service::scoped(w, &WikiMap::comment)});
}

}  // namespace cadastre::platform
