// /usuarios: a tenant's administrators manage its users; platform administrators list
// every user (/usuarios/all). A new user gets no password: a link to create one goes to
// their e-mail, as for "gerar-senha", so no password ever travels in an answer.
// Inactivating a user ends their sessions at once (and closes their sockets). Only platform
// administrators change, inactivate or send links to a platform administrator.
#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "platform/common/links.hpp"
#include "platform/accounts/store.hpp"
#include "platform/app.hpp"
#include "platform/schemas.hpp"
#include "platform/users/input.hpp"
#include "platform/users/store.hpp"

namespace cadastre::platform::users {
namespace {

using http::Request;
using http::Response;

constexpr const char* kTag = "Usuários";

struct Users {
  common::Links links;
  store::Identity* identity;

  store::Pool& db() const { return *links.platform; }

  Response everyone(const service::Scope&, Request& req) const {
    Page page = parse_page(req, "id");
    return Response::json(page_json(all(db(), page, parse_active_filter(req)), page));
  }
  Response of_tenant(const service::Scope& s, Request& req) const {
    Page page = parse_page(req, "id");
    return Response::json(page_json(list(db(), s.tenant.id, page, parse_active_filter(req)), page));
  }
  Response read(const service::Scope& s, Request&) const {
    return Response::json(one(db(), s.tenant.id, s.grant().id));
  }
  Response create(const service::Scope& s, Request& req) const {
    Fields f = parse_fields(req.body, true);
    std::int64_t id = users::create(db(), s.tenant.id, f);
    bool sent = links.mailer->enabled();
    try {  // the user exists now: a mail that fails is reported, and gerar-senha sends it again
      if (sent) links.send_password_reset({id, *f.email, *f.nome});
    } catch (const Error&) {
      sent = false;
    }
    JsonWriter w;
    w.begin_object().key("usuario").raw(one(db(), s.tenant.id, id)).key("linkDeSenhaEnviado").value(sent);
    w.end_object();
    return Response::json(std::move(w).str(), 201);
  }
  Response change(const service::Scope& s, Request& req) const {
    std::int64_t id = s.grant().id;
    Fields f = parse_fields(req.body, false);
    if (id == s.user.user_id && f.adm && !*f.adm)
      throw Error(errc::conflict, "um administrador não tira de si mesmo a administração", "adm");
    update(db(), s.tenant.id, id, f);
    identity->reload();  // layer rules and flags, at once
    return Response::json(one(db(), s.tenant.id, id));
  }
  Response deactivate(const service::Scope& s, Request&) const {
    std::int64_t id = s.grant().id;
    if (id == s.user.user_id) throw Error(errc::conflict, "um administrador não inativa a si mesmo", "id");
    users::deactivate(db(), s.tenant.id, id);
    identity->revoke_user_sessions(id, "inativacao");
    return Response::json(one(db(), s.tenant.id, id));
  }
  Response new_password(const service::Scope& s, Request&) const {
    std::int64_t id = s.grant().id;
    auto who = accounts::contact_in_tenant(db(), id, s.tenant.id);
    if (!who) throw Error(errc::not_found, "usuário ativo não encontrado", "id");
    links.send_password_reset(*who);
    JsonWriter w;
    w.begin_object().key("mensagem").value("link para criar nova senha enviado ao e-mail do usuário").end_object();
    return Response::json(std::move(w).str(), 202);
  }
};

}  // namespace
}  // namespace cadastre::platform::users

namespace cadastre::platform {

void add_user_routes(App& app) {
  using namespace users;
  auto u = std::make_shared<const Users>(Users{common::links_of(app), &app.identity()});
  std::vector<http::Param> list_params = page_params(kOrderColumns);
  list_params.push_back({.name = "ativo", .type = "boolean", .description = "só ativos ou só inativos",
                         .values = {"true", "false"}});
  const std::string fields = R"({"nome", "email", "telefone"?, "cargo"?, "adm"?, "usuarioPublico"?, )"
                             R"("permissoes"?: ["camada:r", "camada:rw", "*:r"...]})";
  auto& srv = app.server();
  srv.add({.method = "GET", .pattern = "/usuarios/all", .auth = "sessao", .access = http::platform_admins(),
           .tag = kTag, .summary = "Todos os usuários da plataforma, paginados", .params = list_params,
           .answer_schema = schemas::page_of("Usuario"), .handler = service::scoped(u, &Users::everyone)});
  srv.add({.method = "GET", .pattern = "/usuarios", .auth = "sessao", .access = http::admins(), .tag = kTag,
           .summary = "Os usuários do município, paginados", .params = list_params,
           .answer_schema = schemas::page_of("Usuario"), .handler = service::scoped(u, &Users::of_tenant)});
  srv.add({.method = "POST", .pattern = "/usuarios", .auth = "sessao", .access = http::admins(), .tag = kTag,
           .summary = "Cria um usuário (dentro da cota da licença) e envia a ele o link para criar a senha",
           .body = {.description = fields, .max_bytes = 65536, .schema = schemas::ref("UsuarioNovo")},
           .answer_status = 201, .answer_schema = schemas::ref("UsuarioCriado"), .handler = service::scoped(u, &Users::create)});
  srv.add({.method = "GET", .pattern = "/usuarios/{id}", .auth = "sessao",
           .access = http::on("usuario", "{id}", "proprio"), .tag = kTag,
           .summary = "Um usuário do município com suas permissões (administradores; ou o próprio usuário)",
           .answer_schema = schemas::ref("Usuario"), .handler = service::scoped(u, &Users::read)});
  srv.add({.method = "PUT", .pattern = "/usuarios/{id}", .auth = "sessao",
           .access = http::on("usuario", "{id}", "admin"), .tag = kTag,
           .summary = "Altera um usuário do município (permissoes substitui todas as regras)",
           .body = {.description = "os campos a alterar: " + fields, .max_bytes = 65536,
                    .schema = schemas::ref("UsuarioCampos")},
           .answer_schema = schemas::ref("Usuario"), .handler = service::scoped(u, &Users::change)});
  srv.add({.method = "PUT", .pattern = "/usuarios/{id}/inativar", .auth = "sessao",
           .access = http::on("usuario", "{id}", "admin"),
           .tag = kTag, .summary = "Inativa um usuário e encerra na hora as suas sessões",
           .answer_schema = schemas::ref("Usuario"), .handler = service::scoped(u, &Users::deactivate)});
  srv.add({.method = "POST", .pattern = "/usuarios/{id}/gerar-senha", .auth = "sessao",
           .access = http::on("usuario", "{id}", "admin"),
           .tag = kTag, .summary = "Envia ao usuário um link para criar nova senha (a senha nunca vem na resposta)",
           .answer_status = 202, .answer_schema = schemas::ref("Mensagem"), .handler = service::scoped(u, &Users::new_password)});
}

}  // namespace cadastre::platform
