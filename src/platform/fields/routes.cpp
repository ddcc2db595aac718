// /campos: the fields of platform forms. Creating or changing one asks for the admin role
// on its form's layer (a field's rules are the layer's structure). The type of a field
// changes only through the converter, which rewrites every stored value.
//
// GET /campos/:id/converter is a GET that writes (the spec's choice): without
// confirmar=true it is a dry run that changes nothing; with it, and only when every value
// converts, it applies the conversion in one transaction. With failures it answers 409 with
// the same report and changes nothing.
#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "platform/app.hpp"
#include "platform/fields/input.hpp"
#include "platform/fields/store.hpp"
#include "platform/guard/guard.hpp"
#include "platform/schemas.hpp"

namespace cadastre::platform::fields {
namespace {

using http::Request;
using http::Response;

constexpr const char* kTag = "Campos";

// The members of a conversion's report (answered alone, or with a refusal's error).
void write_report(JsonWriter& w, const service::Scope& s, const Converted& c, bool split) {
  w.key("total").value(static_cast<std::int64_t>(c.plan.total));
  w.key("convertidos").value(static_cast<std::int64_t>(c.plan.converted()));
  w.key("totalFalhas").value(static_cast<std::int64_t>(c.plan.failed));
  w.key("falhas").begin_array();  // the first field_values::kKeptFailures
  for (const field_values::Failure& f : c.plan.failures) {
    w.begin_object().key("idValor").value(f.valor).key("idGeometria").value(f.geometria);
    w.key("valor").raw(f.json).key("motivo").value(f.motivo).end_object();
  }
  w.end_array().key("aplicado").value(c.applied);
  // What the field becomes (or the new fields of a split): planned, or as stored once applied.
  w.key("campos").begin_array();
  if (c.applied) {
    for (std::int64_t id : c.fields) w.raw(one(*s.db, id));
  } else {
    for (const field_values::Definition& d : c.plan.campos)
      w.begin_object().key("chave").value(d.def.chave).key("nome").value(d.def.nome).key("tipo").value(d.def.tipo).end_object();
  }
  w.end_array().key("divisao").value(split);
}

std::string report_json(const service::Scope& s, const Converted& c, bool split) {
  JsonWriter w;
  w.begin_object();
  write_report(w, s, c, split);
  return std::move(w.end_object()).str();
}

struct Fields {
  Response list(const service::Scope& s, Request& req) const {
    auto form = query_id(req, "idFormulario");
    if (form) guard::require(s, "formulario", *form, "leitura");
    return Response::json(fields::list(s, form));
  }
  Response create(const service::Scope& s, Request& req) const {
    NewField n = parse_new(req.body);
    return Response::json(one(*s.db, fields::create(s, n)), 201);
  }
  Response read(const service::Scope& s, Request&) const { return Response::json(one(*s.db, s.grant().id)); }
  Response change(const service::Scope& s, Request& req) const {
    update(s, s.grant().id, parse_change(req.body));
    return Response::json(one(*s.db, s.grant().id));
  }
  Response summary(const service::Scope& s, Request& req) const {
    auto layer = query_id(req, "idCamada");
    auto form = query_id(req, "idFormulario");
    if (!layer && !form)
      throw Error(errc::missing_field, "informe idCamada ou idFormulario", "idCamada");
    std::int64_t camada = layer ? guard::require(s, "camada", *layer, "leitura").layer_id : 0;
    if (form) {
      service::Grant g = guard::require(s, "formulario", *form, "leitura");
      if (layer && g.layer_id != camada)
        throw Error(errc::invalid_argument, "idFormulario não é um formulário da camada idCamada", "idFormulario");
      camada = g.layer_id;
    }
    return Response::json(fields::summary(*s.db, camada, form));
  }
  Response formly(const service::Scope& s, Request&) const { return Response::json(fields::formly(s, s.grant().id)); }
  Response convert(const service::Scope& s, Request& req) const {
    Conversion c = parse_conversion(req);
    Converted out = convert_values(s, s.grant().id, c);
    bool refused = c.confirmar && out.plan.failed > 0;
    if (!refused) return Response::json(report_json(s, out, c.split.has_value()));
    // The shared error shape, carrying the report: what failed and why.
    return Response::json(
        http::error_body(errc::conflict,
                         std::to_string(out.plan.failed) + " valores não convertem: nada foi alterado",
                         [&](JsonWriter& w) { write_report(w, s, out, c.split.has_value()); }),
        409);
  }
  Response valuation(const service::Scope& s, Request& req) const {
    // Another tenant's id names nothing here (as a record of another tenant would not).
    std::int64_t tenant = query::parse_integer(req.param("idTenant"), "idTenant", 1, INT64_MAX);
    if (tenant != s.tenant.id) throw Error(errc::not_found, "município " + std::to_string(tenant) + " não encontrado", "idTenant");
    return Response::json(fields::valuation(s, s.grant().id));
  }
  Response page_v2(const service::Scope& s, Request& req) const {
    auto form = query_id(req, "idFormulario");
    auto layer = query_id(req, "idCamada");
    if (form) guard::require(s, "formulario", *form, "leitura");
    if (layer) guard::require(s, "camada", *layer, "leitura");
    Page p = parse_page(req, "ordem");
    return Response::json(page_json(page(s, form, layer, p), p));
  }
  Response read_v2(const service::Scope& s, Request&) const { return Response::json(one(*s.db, s.grant().id, true)); }
};

}  // namespace
}  // namespace cadastre::platform::fields

namespace cadastre::platform {

void add_field_routes(App& app) {
  using namespace fields;
  auto f = std::make_shared<const Fields>();
  const http::Param form{.name = "idFormulario", .type = "integer", .description = "só os campos deste formulário"};
  const http::Param layer{.name = "idCamada", .type = "integer", .description = "só os campos desta camada"};
  std::vector<http::Param> paged = page_params(kOrderColumns);
  paged.push_back(form);
  paged.push_back(layer);
  std::vector<std::string> targets = {"texto", "texto_longo", "inteiro", "decimal", "data", "booleano", "lista", "multipla"};
  const std::string body =
      R"({"nome", "chave", "tipo", "obrigatorio"?, "unico"?, "minimo"?, "maximo"?, "padrao"?, "opcoes"?, )"
      R"("dominio"?, "formula"?, "avaliacao"?, "ajuda"?, "ordem"?, "ativo"?})";
  auto& srv = app.server();
  srv.add({.method = "GET", .pattern = "/campos", .auth = "sessao", .access = http::members("só os campos das camadas que o usuário vê"), .tag = kTag,
           .summary = "Os campos dos formulários das camadas que o usuário vê", .params = {form},
           .answer_schema = schemas::list_of("Campo"), .handler = service::scoped(f, &Fields::list)});
  srv.add({.method = "POST", .pattern = "/campos", .auth = "sessao", .access = http::on("formulario", "corpo.idFormulario", "admin"), .tag = kTag,
           .summary = "Cria um campo num formulário (papel admin na camada; chave única na camada)",
           .body = {.description = R"({"idFormulario", )" + body.substr(1), .max_bytes = 262144,
                    .schema = schemas::ref("CampoNovo")},
           .answer_status = 201, .answer_schema = schemas::ref("Campo"), .handler = service::scoped(f, &Fields::create)});
  srv.add({.method = "GET", .pattern = "/campos/resumo", .auth = "sessao", .access = http::members("leitura na camada idCamada ou no formulário idFormulario (verificada pelo guarda)"), .tag = kTag,
           .summary = "Resumo dos valores de cada campo de uma camada ou formulário: quantidade, preenchidos, "
                      "distintos; mínimo, máximo e média dos números",
           .params = {layer, form}, .answer_schema = schemas::ref("ResumoCampos"), .handler = service::scoped(f, &Fields::summary)});
  srv.add({.method = "GET", .pattern = "/campos/parse-formly/{camada}", .auth = "sessao",
           .access = http::on("camada", "{camada}", "leitura"), .tag = kTag,
           .summary = "Os formulários ativos da camada como definição de formulário Formly (FormlyFieldConfig[])",
           .answer_schema = schemas::list_of("CampoFormly"), .handler = service::scoped(f, &Fields::formly)});
  srv.add({.method = "GET", .pattern = "/campos/avaliacao/{idTenant}/{idProjeto}", .auth = "sessao",
           .access = http::on("projeto", "{idProjeto}", "leitura"), .tag = kTag,
           .summary = "Os campos do projeto marcados como variáveis de avaliação (idTenant: o município da sessão)",
           .answer_schema = schemas::list_of("VariavelAvaliacao"), .handler = service::scoped(f, &Fields::valuation)});
  srv.add({.method = "GET", .pattern = "/campos/v2", .auth = "sessao", .access = http::members("só os campos das camadas que o usuário vê"), .tag = kTag,
           .summary = "Os campos que o usuário vê, paginados, com camada, projeto e quantidade de valores",
           .params = paged, .answer_schema = schemas::page_of("CampoV2"), .handler = service::scoped(f, &Fields::page_v2)});
  srv.add({.method = "GET", .pattern = "/campos/v2/{id}", .auth = "sessao",
           .access = http::on("campo", "{id}", "leitura"), .tag = kTag,
           .summary = "Um campo com camada, projeto e quantidade de valores", .answer_schema = schemas::ref("CampoV2"),
           .handler = service::scoped(f, &Fields::read_v2)});
  srv.add({.method = "GET", .pattern = "/campos/{id}/converter", .auth = "sessao",
           .access = http::on("campo", "{id}", "admin"), .tag = kTag,
           .summary = "Converte o tipo do campo e todos os seus valores (ou divide um texto em campos novos com "
                      "split). Sem confirmar=true é só simulação e nada muda; com confirmar=true aplica tudo numa "
                      "transação se nenhum valor falhar, e responde 409 com as falhas se algum falhar",
           .params = {{.name = "tipo", .required = true, .description = "o tipo de destino", .values = targets},
                      {.name = "split", .description = "separador: divide o texto em campos chave_1, chave_2..."},
                      {.name = "confirmar", .type = "boolean", .description = "true aplica; ausente ou false simula",
                       .values = {"true", "false"}}},
           .answer_schema = schemas::ref("Conversao"), .handler = service::scoped(f, &Fields::convert)});
  srv.add({.method = "GET", .pattern = "/campos/{id}", .auth = "sessao", .access = http::on("campo", "{id}", "leitura"),
           .tag = kTag, .summary = "Um campo", .answer_schema = schemas::ref("Campo"), .handler = service::scoped(f, &Fields::read)});
  srv.add({.method = "PUT", .pattern = "/campos/{id}", .auth = "sessao", .access = http::on("campo", "{id}", "admin"),
           .tag = kTag, .summary = "Altera as regras de um campo (o tipo muda pelo conversor; null apaga uma regra)",
           .body = {.description = "os campos a alterar: " + body, .max_bytes = 262144,
                    .schema = schemas::ref("CampoAlteracao")},
           .answer_schema = schemas::ref("Campo"), .handler = service::scoped(f, &Fields::change)});
}

}  // namespace cadastre::platform
