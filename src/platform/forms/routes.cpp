// /formularios: the forms of a platform layer. Creating or changing one asks for the admin
// role on its layer; activating, deactivating and deleting ask for gestao (allowed on an
// inactive form). A form is deleted only when nothing depends on it: GET pode-excluir says
// why not, and DELETE refuses with the same reasons (409).
#include "cadastre/json.hpp"
#include "platform/app.hpp"
#include "platform/forms/input.hpp"
#include "platform/forms/store.hpp"
#include "platform/guard/guard.hpp"
#include "platform/schemas.hpp"

namespace cadastre::platform::forms {
namespace {

using http::Request;
using http::Response;

constexpr const char* kTag = "Formulários";

// The members of pode-excluir's answer, also carried by the refusal of a delete.
void write_reasons(JsonWriter& w, const std::vector<Reason>& why) {
  w.key("podeExcluir").value(why.empty()).key("motivos").begin_array();
  for (const auto& r : why)
    w.begin_object().key("codigo").value(r.codigo).key("mensagem").value(r.mensagem).key("quantidade").value(r.quantidade).end_object();
  w.end_array();
}

std::string reasons_json(const std::vector<Reason>& why) {
  JsonWriter w;
  w.begin_object();
  write_reasons(w, why);
  return std::move(w.end_object()).str();
}

// The 409 of a refused delete: the shared error shape with the reasons of pode-excluir.
Response refusal(std::int64_t id, const std::vector<Reason>& why) {
  std::string message = "o formulário " + std::to_string(id) + " não pode ser excluído:";
  for (std::size_t i = 0; i < why.size(); ++i) message += (i ? "; " : " ") + why[i].mensagem;
  return Response::json(http::error_body(errc::conflict, message, [&](JsonWriter& w) { write_reasons(w, why); }), 409);
}

struct Forms {
  Response list(const service::Scope& s, Request& req) const {
    auto camada = query_id(req, "idCamada");
    if (camada) guard::require(s, "camada", *camada, "leitura");
    return Response::json(forms::list(s, camada, query_active(req)));
  }
  Response create(const service::Scope& s, Request& req) const {
    NewForm n = parse_new(req.body);
    return Response::json(one(*s.db, forms::create(*s.db, n.camada, n.fields)), 201);
  }
  Response read(const service::Scope& s, Request&) const { return Response::json(one(*s.db, s.grant().id)); }
  Response change(const service::Scope& s, Request& req) const {
    update(*s.db, s.grant().id, parse_change(req.body));
    return Response::json(one(*s.db, s.grant().id));
  }
  Response erase(const service::Scope& s, Request&) const {
    std::vector<Reason> why = remove(*s.db, s.grant().id);
    return why.empty() ? Response::no_content() : refusal(s.grant().id, why);
  }
  Response deletable(const service::Scope& s, Request&) const {
    return Response::json(reasons_json(reasons(*s.db, s.grant().id)));
  }
  Response deactivate(const service::Scope& s, Request&) const {
    set_active(*s.db, s.grant().id, false);
    return Response::json(one(*s.db, s.grant().id));
  }
  Response activate(const service::Scope& s, Request&) const {
    set_active(*s.db, s.grant().id, true);
    return Response::json(one(*s.db, s.grant().id));
  }
  Response page_v2(const service::Scope& s, Request& req) const {
    auto camada = query_id(req, "idCamada");
    if (camada) guard::require(s, "camada", *camada, "leitura");
    Page p = parse_page(req, "ordem");
    return Response::json(page_json(page(s, camada, query_active(req), p), p));
  }
  Response read_v2(const service::Scope& s, Request&) const { return Response::json(one(*s.db, s.grant().id, true)); }
};

}  // namespace
}  // namespace cadastre::platform::forms

namespace cadastre::platform {

void add_form_routes(App& app) {
  using namespace forms;
  auto f = std::make_shared<const Forms>();
  const http::Param layer{.name = "idCamada", .type = "integer", .description = "só os formulários desta camada"};
  const http::Param active{.name = "ativo", .type = "boolean", .description = "só ativos ou só inativos",
                           .values = {"true", "false"}};
  std::vector<http::Param> paged = page_params(kOrderColumns);
  paged.push_back(layer);
  paged.push_back(active);
  const std::string body = R"({"nome", "descricao"?, "ordem"?})";
  auto& srv = app.server();
  srv.add({.method = "GET", .pattern = "/formularios", .auth = "sessao", .access = http::members("só os formulários das camadas que o usuário vê"), .tag = kTag,
           .summary = "Os formulários das camadas que o usuário vê", .params = {layer, active},
           .answer_schema = schemas::list_of("Formulario"), .handler = service::scoped(f, &Forms::list)});
  srv.add({.method = "POST", .pattern = "/formularios", .auth = "sessao", .access = http::on("camada", "corpo.idCamada", "admin"), .tag = kTag,
           .summary = "Cria um formulário numa camada (papel admin na camada)",
           .body = {.description = R"({"idCamada", "nome", "descricao"?, "ordem"?})", .max_bytes = 16384,
                    .schema = schemas::ref("FormularioNovo")},
           .answer_status = 201, .answer_schema = schemas::ref("Formulario"), .handler = service::scoped(f, &Forms::create)});
  srv.add({.method = "GET", .pattern = "/formularios/v2", .auth = "sessao", .access = http::members("só os formulários das camadas que o usuário vê"), .tag = kTag,
           .summary = "Os formulários que o usuário vê, paginados, cada um com seus campos", .params = paged,
           .answer_schema = schemas::page_of("FormularioComCampos"), .handler = service::scoped(f, &Forms::page_v2)});
  srv.add({.method = "GET", .pattern = "/formularios/v2/{id}", .auth = "sessao",
           .access = http::on("formulario", "{id}", "leitura"), .tag = kTag,
           .summary = "Um formulário com seus campos", .answer_schema = schemas::ref("FormularioComCampos"),
           .handler = service::scoped(f, &Forms::read_v2)});
  srv.add({.method = "GET", .pattern = "/formularios/pode-excluir/{id}", .auth = "sessao",
           .access = http::on("formulario", "{id}", "leitura"), .tag = kTag,
           .summary = "Se o formulário pode ser excluído e, se não, por quê (valores, variáveis de avaliação, "
                      "rótulo ou categorização da camada, fórmulas de outros formulários)",
           .answer_schema = schemas::ref("PodeExcluir"), .handler = service::scoped(f, &Forms::deletable)});
  srv.add({.method = "POST", .pattern = "/formularios/inativar/{id}", .auth = "sessao",
           .access = http::on("formulario", "{id}", "gestao"), .tag = kTag,
           .summary = "Inativa um formulário (409 se já inativo)", .answer_schema = schemas::ref("Formulario"),
           .handler = service::scoped(f, &Forms::deactivate)});
  srv.add({.method = "POST", .pattern = "/formularios/ativar/{id}", .auth = "sessao",
           .access = http::on("formulario", "{id}", "gestao"), .tag = kTag,
           .summary = "Ativa um formulário (409 se já ativo)", .answer_schema = schemas::ref("Formulario"),
           .handler = service::scoped(f, &Forms::activate)});
  srv.add({.method = "GET", .pattern = "/formularios/{id}", .auth = "sessao",
           .access = http::on("formulario", "{id}", "leitura"), .tag = kTag, .summary = "Um formulário",
           .answer_schema = schemas::ref("Formulario"), .handler = service::scoped(f, &Forms::read)});
  srv.add({.method = "PUT", .pattern = "/formularios/{id}", .auth = "sessao",
           .access = http::on("formulario", "{id}", "admin"), .tag = kTag,
           .summary = "Altera nome, descrição ou ordem de um formulário",
           .body = {.description = "os campos a alterar: " + body, .max_bytes = 16384,
                    .schema = schemas::ref("FormularioAlteracao")},
           .answer_schema = schemas::ref("Formulario"), .handler = service::scoped(f, &Forms::change)});
  srv.add({.method = "DELETE", .pattern = "/formularios/{id}", .auth = "sessao",
           .access = http::on("formulario", "{id}", "gestao"), .tag = kTag,
           .summary = "Exclui um formulário e seus campos; 409 com os motivos de pode-excluir quando algo depende dele",
           .answers = "", .answer_status = 204, .handler = service::scoped(f, &Forms::erase)});
}

}  // namespace cadastre::platform
