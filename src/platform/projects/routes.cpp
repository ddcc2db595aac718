// /projetos: a tenant's geographic projects, their states, notes, extent, copies, versions,
// transfer to another tenant, and who shares them. Every route on a project declares the
// role it needs (http::on) and the guard resolves it before the handler runs: unknown,
// another tenant's or invisible ids are 404, a weaker role 403, an edit on an inactive or
// superseded project 409. Projects named in a body go through guard::require.
#include <iostream>

#include "cadastre/html.hpp"
#include "cadastre/json.hpp"
#include "platform/app.hpp"
#include "platform/guard/accounts.hpp"
#include "platform/guard/guard.hpp"
#include "platform/projects/input.hpp"
#include "platform/projects/store_shares.hpp"
#include "platform/projects/store.hpp"
#include "platform/projects/store_catalog.hpp"
#include "platform/projects/store_transfer.hpp"
#include "platform/projects/store_versions.hpp"
#include "platform/schemas.hpp"

namespace cadastre::platform::projects {
namespace {

using http::Request;
using http::Response;

constexpr const char* kTag = "Projetos";
// A transfer's prepared transactions younger than this may belong to a transfer another
// platform process is running right now: recovery leaves them alone.
constexpr std::chrono::seconds kOrphanAge{60};

struct Projects {
  const service::Tenancy* tenancy;
  store::Pool* platform;
  std::ostream* log_stream;  ///< the server's log stream (options.http.log, else std::cerr)
  common::FileStore files;   ///< the layers' files, which follow their rows

  store::Pool* pool_of(std::int64_t tenant_id) const {
    auto t = tenancy->identity().tenant_by_id(tenant_id);
    return t ? &tenancy->pool(*t) : nullptr;
  }
  PoolOf pools() const {
    return [this](std::int64_t id) { return pool_of(id); };
  }
  void log(const std::string& message) const {
    // One write of the whole line, so lines of concurrent requests do not interleave.
    *log_stream << ("{\"level\":\"warning\",\"area\":\"projetos\",\"message\":" + json_quote(message) + "}\n")
                << std::flush;
  }

  Response listed(const service::Scope& s, Request& req) const {
    return Response::json(list(s, parse_active(req)));
  }
  Response create(const service::Scope& s, Request& req) const {
    guard::require_not_public(*platform, s, "usuários públicos não criam projetos");
    ProjectFields f = parse_project(req.body, true);
    return Response::json(one(s, projects::create(s, f)), 201);
  }
  Response new_version(const service::Scope& s, Request& req) const {
    std::int64_t id = parse_project_ref(req.body);
    return Response::json(one(s, projects::new_version(s, id, files)), 201);
  }
  Response read(const service::Scope& s, Request& req) const {
    bool no_forms = req.query_value("noForms").value_or("false") == "true";
    return Response::json(detail(s, s.grant().id, no_forms ? Depth::layers : Depth::forms));
  }
  Response change(const service::Scope& s, Request& req) const {
    update(s, s.grant().id, parse_project(req.body, false));
    return Response::json(one(s, s.grant().id));
  }
  Response erase(const service::Scope& s, Request&) const {
    remove(s, s.grant().id, files);
    refresh_catalog(*platform, s);
    return Response::no_content();
  }
  Response bounds(const service::Scope& s, Request&) const {
    auto e = extent(s, s.grant().id);
    return e ? Response::json(*e) : Response::no_content();
  }
  Response read_notes(const service::Scope& s, Request&) const { return Response::json(notes(s, s.grant().id)); }
  Response write_notes(const service::Scope& s, Request& req) const {
    std::string clean = html::sanitize(parse_notes(req.body));
    // Escaping text can lengthen it: the stored notes keep to the same limit.
    if (clean.size() > kMaxNotes)
      throw Error(errc::payload_too_large, "notas passam de 200 kB depois de saneadas", "notas");
    return Response::json(set_notes(s, s.grant().id, clean));
  }
  Response activate(const service::Scope& s, Request&) const {
    set_active(s, s.grant().id, true);
    refresh_catalog(*platform, s);
    return Response::json(one(s, s.grant().id));
  }
  Response deactivate(const service::Scope& s, Request&) const {
    set_active(s, s.grant().id, false);
    refresh_catalog(*platform, s);
    return Response::json(one(s, s.grant().id));
  }
  Response publish(const service::Scope& s, Request&) const {
    set_published(s, s.grant().id, true);
    refresh_catalog(*platform, s);
    return Response::json(one(s, s.grant().id));
  }
  Response unpublish(const service::Scope& s, Request&) const {
    set_published(s, s.grant().id, false);
    refresh_catalog(*platform, s);
    return Response::json(one(s, s.grant().id));
  }
  Response copy(const service::Scope& s, Request& req) const {
    CopyRequest r = parse_copy(req.body);
    return Response::json(one(s, copy_project(s, r, files)), 201);
  }
  Response counts(const service::Scope& s, Request&) const { return Response::json(info(s, s.grant().id)); }

  Response move(const service::Scope& s, Request& req) const {
    TransferRequest t = parse_transfer(req);
    bool by_id = t.tenant.find_first_not_of("0123456789") == std::string::npos;
    auto target = by_id ? tenancy->identity().tenant_by_id(std::stoll(t.tenant)) : tenancy->identity().tenant(t.tenant);
    if (!target || !target->ativo) throw Error(errc::not_found, "município " + t.tenant + " não encontrado", "tenant");
    if (target->id == s.tenant.id)
      throw Error(errc::conflict, "o projeto já está no município " + target->slug, "tenant");
    if (!is_active_user(*platform, target->id, t.user))
      throw Error(errc::not_found, "usuário " + std::to_string(t.user) + " não encontrado entre os ativos de " + target->slug,
                  "idUsuario");
    guard::require(s, "projeto", t.id, "gestao");
    store::Pool& to = tenancy->pool(*target);
    // Leftovers of a crashed transfer on either server are settled first.
    auto note = [this](const std::string& m) { log(m); };
    recover_orphans(*s.db, pools(), kOrphanAge, note);
    recover_orphans(to, pools(), kOrphanAge, note);
    Transferred done = transfer(s, t.id, *target, to, t.user, pools(), files, note);
    JsonWriter w;
    w.begin_object().key("transferencia").value(done.token);
    w.key("origem").begin_object().key("idTenant").value(s.tenant.id).key("tenant").value(s.tenant.slug);
    w.key("idProjeto").value(t.id).end_object();
    w.key("destino").begin_object().key("idTenant").value(target->id).key("tenant").value(target->slug);
    w.key("idProjeto").value(done.id).key("idUsuario").value(t.user).end_object().end_object();
    return Response::json(std::move(w).str());
  }
  Response of_domain(const service::Scope& s, Request& req) const {
    std::string domain = parse_domain(req);
    guard::require_administers_a_project(s, "só quem administra um projeto (ou o município) consulta os usuários por domínio");
    return Response::json(users_of_domain(s, *platform, domain));
  }
  Response paged(const service::Scope& s, Request& req) const {
    Page pg = parse_page(req, "nome");
    return Response::json(page_json(page(s, pg, parse_active(req)), pg));
  }
  Response nested(const service::Scope& s, Request&) const {
    return Response::json(detail(s, s.grant().id, Depth::fields));
  }

  Response shared_with(const service::Scope& s, Request&) const {
    return Response::json(shares(s, *platform, s.grant().id));
  }
  Response share(const service::Scope& s, Request& req) const {
    Share sh = parse_share(req.body);
    auto [created, row] = upsert_share(s, *platform, sh);
    return Response::json(row, created ? 201 : 200);
  }
  Response unshare(const service::Scope& s, Request& req) const {
    remove_share(s, s.grant().id, path_id(req, "idUsuario"));
    return Response::no_content();
  }
};

}  // namespace
}  // namespace cadastre::platform::projects

namespace cadastre::platform {

void add_project_routes(App& app) {
  using namespace projects;
  auto p = std::make_shared<const Projects>(Projects{&app.tenancy(), &app.platform(),
                                                          app.options().http.log ? app.options().http.log : &std::cerr,
                                                          common::FileStore(app.options().files_dir)});
  // A transfer interrupted by a crash left prepared transactions on any server the
  // municipalities live on: settle them now. A server that does not answer only delays it
  // to the next start or transfer.
  try {
    recover_orphans_everywhere(app.platform(), app.options().platform_dsn, app.tenancy().identity().tenants(),
                               p->pools(), kOrphanAge, [p](const std::string& m) { p->log(m); });
  } catch (const std::exception& e) {
    p->log(std::string("recuperação de transferências adiada: ") + e.what());
  }

  const http::Param active{.name = "ativo", .type = "boolean",
                           .description = "true (padrão): os ativos; false: os inativos", .values = {"true", "false"}};
  std::vector<http::Param> page_ps = page_params(kOrderColumns);
  page_ps.push_back(active);
  const std::string ref_body = R"({"idProjeto": n})";
  const std::string nested = schemas::ref("ProjetoDetalhe");
  // The notes as stored (the body that writes them is NotasProjetoAlteracao).
  const std::string notes_answer = schemas::ref("NotasProjeto");
  auto& srv = app.server();
  srv.add({.method = "GET", .pattern = "/projetos/listar", .auth = "sessao", .access = http::members("só os projetos que o usuário vê"), .tag = kTag,
           .summary = "Os projetos que o usuário vê (os inativos só com ativo=false)", .params = {active},
           .answer_schema = schemas::list_of("Projeto"), .handler = service::scoped(p, &Projects::listed)});
  srv.add({.method = "POST", .pattern = "/projetos", .auth = "sessao", .access = http::members("um projeto novo, do qual quem cria é o administrador (usuários públicos não criam; verificado pelo guarda)"), .tag = kTag,
           .summary = "Cria um projeto; quem cria é o seu administrador (usuários públicos não criam)",
           .body = {.description = R"({"nome", "descricao"?, "tipo"?: "geral"|"cadastro_imobiliario"})",
                    .max_bytes = 16384, .schema = schemas::ref("ProjetoNovo")},
           .answer_status = 201, .answer_schema = schemas::ref("Projeto"), .handler = service::scoped(p, &Projects::create)});
  srv.add({.method = "POST", .pattern = "/projetos/cadastro-imobiliario/nova-versao", .auth = "sessao", .access = http::on("projeto", "corpo.idProjeto", "admin"), .tag = kTag,
           .summary = "Nova versão de um projeto de cadastro imobiliário: cópia completa (estrutura, geometrias, "
                      "valores, compartilhamentos); a anterior fica somente leitura",
           .body = {.description = ref_body, .max_bytes = 1024, .schema = schemas::ref("ReferenciaProjeto")},
           .answer_status = 201, .answer_schema = schemas::ref("Projeto"), .handler = service::scoped(p, &Projects::new_version)});
  srv.add({.method = "GET", .pattern = "/projetos/{id}", .auth = "sessao", .access = http::on("projeto", "{id}", "leitura"),
           .tag = kTag, .summary = "O projeto com as camadas que o usuário vê e os formulários de cada uma",
           .params = {{.name = "noForms", .type = "boolean", .description = "true: sem os formulários",
                       .values = {"true", "false"}}},
           .answer_schema = nested, .handler = service::scoped(p, &Projects::read)});
  srv.add({.method = "PUT", .pattern = "/projetos/{id}", .auth = "sessao", .access = http::on("projeto", "{id}", "admin"),
           .tag = kTag, .summary = "Altera nome e descrição do projeto (estado e tipo têm rotas próprias)",
           .body = {.description = R"({"nome"?, "descricao"?})", .max_bytes = 16384,
                    .schema = schemas::ref("ProjetoAlteracao")},
           .answer_schema = schemas::ref("Projeto"), .handler = service::scoped(p, &Projects::change)});
  srv.add({.method = "DELETE", .pattern = "/projetos/{id}", .auth = "sessao",
           .access = http::on("projeto", "{id}", "gestao"), .tag = kTag,
           .summary = "Exclui o projeto com tudo o que há nele (camadas, formulários, geometrias, valores)",
           .answers = "", .answer_status = 204, .handler = service::scoped(p, &Projects::erase)});
  srv.add({.method = "GET", .pattern = "/projetos/{id}/extent", .auth = "sessao",
           .access = http::on("projeto", "{id}", "leitura"), .tag = kTag,
           .summary = "Extensão (lon/lat, SIRGAS 2000) das camadas visíveis do projeto; 204 quando não há nada",
           .answer_schema = schemas::ref("Extensao"), .handler = service::scoped(p, &Projects::bounds)});
  srv.add({.method = "GET", .pattern = "/projetos/{id}/notas", .auth = "sessao",
           .access = http::on("projeto", "{id}", "leitura"), .tag = kTag, .summary = "As notas (HTML saneado) do projeto",
           .answer_schema = notes_answer, .handler = service::scoped(p, &Projects::read_notes)});
  srv.add({.method = "PUT", .pattern = "/projetos/{id}/notas", .auth = "sessao",
           .access = http::on("projeto", "{id}", "admin"), .tag = kTag,
           .summary = "Grava as notas do projeto: HTML saneado por lista de permissões (p, br, b, strong, i, em, u, "
                      "ul, ol, li, h1-h4, blockquote, a com href http/https/mailto); até 200 kB",
           .body = {.description = R"({"notas": "<p>...</p>"})", .max_bytes = 1 << 20,
                    .schema = schemas::ref("NotasProjetoAlteracao")},
           .answer_schema = notes_answer, .handler = service::scoped(p, &Projects::write_notes)});
  srv.add({.method = "POST", .pattern = "/projetos/inativar/{id}", .auth = "sessao",
           .access = http::on("projeto", "{id}", "gestao"), .tag = kTag,
           .summary = "Inativa o projeto (some das listas e recusa edições); 409 se já inativo",
           .answer_schema = schemas::ref("Projeto"), .handler = service::scoped(p, &Projects::deactivate)});
  srv.add({.method = "POST", .pattern = "/projetos/ativar/{id}", .auth = "sessao",
           .access = http::on("projeto", "{id}", "gestao"), .tag = kTag, .summary = "Ativa o projeto; 409 se já ativo",
           .answer_schema = schemas::ref("Projeto"), .handler = service::scoped(p, &Projects::activate)});
  srv.add({.method = "POST", .pattern = "/projetos/copiar-projeto", .auth = "sessao", .access = http::on("projeto", "corpo.idProjeto", "leitura"), .tag = kTag,
           .summary = "Copia o projeto (camadas visíveis, formulários, campos, estilos e, se pedido, geometrias e "
                      "valores) num projeto novo do usuário, numa só transação",
           .body = {.description = R"({"idProjeto", "nome", "geometrias"?: bool, "valores"?: bool})", .max_bytes = 4096,
                    .schema = schemas::ref("CopiaProjeto")},
           .answer_status = 201, .answer_schema = schemas::ref("Projeto"), .handler = service::scoped(p, &Projects::copy)});
  srv.add({.method = "GET", .pattern = "/projetos/info/{idProjeto}", .auth = "sessao",
           .access = http::on("projeto", "{idProjeto}", "leitura"), .tag = kTag,
           .summary = "Contagens do projeto: camadas, formulários, campos, geometrias, valores, compartilhamentos e "
                      "última alteração",
           .answer_schema = schemas::ref("ProjetoInfo"), .handler = service::scoped(p, &Projects::counts)});
  srv.add({.method = "GET", .pattern = "/projetos/transferir", .auth = "sessao", .access = http::platform_admins(),
           .tag = kTag,
           .summary = "Transfere o projeto, com tudo o que há nele, para o banco de outro município (tudo ou nada, "
                      "por confirmação em duas fases); administradores da plataforma",
           .params = {{.name = "id", .type = "integer", .required = true, .description = "o projeto, no município da sessão"},
                      {.name = "tenant", .required = true, .description = "o município de destino: nome (slug) ou id"},
                      {.name = "idUsuario", .type = "integer", .required = true,
                       .description = "o novo dono, usuário ativo do município de destino"}},
           .answer_schema = schemas::ref("Transferencia"), .handler = service::scoped(p, &Projects::move)});
  srv.add({.method = "GET", .pattern = "/projetos/usuariospvgeo", .auth = "sessao", .access = http::members("quem administra algum projeto ou o município (verificado pelo guarda)"), .tag = kTag,
           .summary = "Usuários ativos do município com e-mail no domínio, com o papel de cada um nos projetos que "
                      "o usuário administra",
           .params = {{.name = "dominio", .required = true, .description = "domínio de e-mail, como prefeitura.gov.br"}},
           .answer_schema = schemas::list_of("UsuarioDoDominio"), .handler = service::scoped(p, &Projects::of_domain)});
  srv.add({.method = "GET", .pattern = "/projetos/v2", .auth = "sessao", .access = http::members("só os projetos que o usuário vê"), .tag = kTag,
           .summary = "Os projetos que o usuário vê, paginados, com o resumo das camadas", .params = page_ps,
           .answer_schema = schemas::page_of("ProjetoComCamadas"), .handler = service::scoped(p, &Projects::paged)});
  srv.add({.method = "GET", .pattern = "/projetos/v2/{id}", .auth = "sessao",
           .access = http::on("projeto", "{id}", "leitura"), .tag = kTag,
           .summary = "O projeto com as camadas visíveis, seus formulários e os campos de cada formulário",
           .answer_schema = nested, .handler = service::scoped(p, &Projects::nested)});

  const std::string share_body = R"({"idProjeto", "idUsuario", "papel": "leitura"|"edicao"|"admin"})";
  srv.add({.method = "GET", .pattern = "/projetos/{idProjeto}/usuarios", .auth = "sessao",
           .access = http::on("projeto", "{idProjeto}", "gestao"), .tag = kTag,
           .summary = "Os compartilhamentos do projeto, com nome e e-mail de cada usuário (administradores do projeto)",
           .answer_schema = schemas::list_of("Compartilhamento"), .handler = service::scoped(p, &Projects::shared_with)});
  srv.add({.method = "POST", .pattern = "/projetos/usuarios", .auth = "sessao", .access = http::on("projeto", "corpo.idProjeto", "admin"), .tag = kTag,
           .summary = "Compartilha o projeto com um usuário ativo do município, ou muda o seu papel (auditado)",
           .body = {.description = share_body, .max_bytes = 4096, .schema = schemas::ref("CompartilhamentoNovo")},
           .answer_status = 201, .answer_schema = schemas::ref("Compartilhamento"), .handler = service::scoped(p, &Projects::share)});
  srv.add({.method = "DELETE", .pattern = "/projetos/{idProjeto}/usuarios/{idUsuario}", .auth = "sessao",
           .access = http::on("projeto", "{idProjeto}", "admin"), .tag = kTag,
           .summary = "Desfaz o compartilhamento do projeto com o usuário (auditado)", .answers = "",
           .answer_status = 204, .handler = service::scoped(p, &Projects::unshare)});
  srv.add({.method = "POST", .pattern = "/projetos/{idProjeto}/publicar", .auth = "sessao",
           .access = http::on("projeto", "{idProjeto}", "gestao"), .tag = kTag,
           .summary = "Publica o projeto (leitura para todo o município); 409 se já publicado ou inativo",
           .answer_schema = schemas::ref("Projeto"), .handler = service::scoped(p, &Projects::publish)});
  srv.add({.method = "POST", .pattern = "/projetos/{idProjeto}/despublicar", .auth = "sessao",
           .access = http::on("projeto", "{idProjeto}", "gestao"), .tag = kTag,
           .summary = "Despublica o projeto; 409 se não está publicado",
           .answer_schema = schemas::ref("Projeto"), .handler = service::scoped(p, &Projects::unpublish)});
}

}  // namespace cadastre::platform
