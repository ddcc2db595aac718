// /camadas: the layers of the platform's projects. A layer is seen with the caller's role
// on it (projeto.papel_camada: project share, per-user right, privacy); lists show only the
// layers the caller sees, active ones unless ativo=false. Vector layers hold geometries;
// tiff, dxf and wms layers (made by the imports) point at a file of the tenant's file store
// or at a service, and their files go with their rows (files.hpp). Every write bumps the
// layer's generation, the tiles' ETag, and is announced on the live socket once committed
// (events.hpp: to the sessions that may see the layer only).
#include "cadastre/query.hpp"
#include "platform/app.hpp"
#include "cadastre/palette.hpp"
#include "platform/layers/events.hpp"
#include "platform/common/files.hpp"
#include "platform/layers/store_check.hpp"
#include "platform/layers/input.hpp"
#include "platform/layers/raster.hpp"
#include "platform/layers/store.hpp"
#include "platform/schemas.hpp"

namespace cadastre::platform::layers {
namespace {

using common::FileStore;
using common::files_json;
using common::layer_files;
using common::SetAside;
using http::Request;
using http::Response;

constexpr const char* kTag = "Camadas";

int limit_param(const Request& req, const char* name, int fallback, int max) {
  auto v = req.query_value(name);
  return v ? static_cast<int>(query::parse_integer(*v, name, 1, max)) : fallback;
}

struct Layers {
  FileStore files;
  Announcer events;

  Response listed(const service::Scope& s, Request& req) const {
    return Response::json(list(s, parse_filter(req), false));
  }
  Response everywhere(const service::Scope& s, Request& req) const {
    return Response::json(list(s, parse_filter(req), true));
  }
  Response by_property(const service::Scope& s, Request& req) const {
    ListFilter f = parse_filter(req);
    if (!f.prop) throw Error(errc::missing_field, "informe prop", "prop");
    if (!f.valor) throw Error(errc::missing_field, "informe valor", "valor");
    return Response::json(list(s, f, false));
  }
  Response picker(const service::Scope& s, Request& req) const {
    return Response::json(preview(s, parse_filter(req), limit_param(req, "limite", 50, 200)));
  }
  Response paged(const service::Scope& s, Request& req) const {
    Page pg = parse_page(req, "ordem");
    return Response::json(page_json(page(s, parse_filter(req), pg), pg));
  }

  Response create(const service::Scope& s, Request& req) const {
    LayerFields f = parse_new_layer(req.body);
    std::int64_t id = layers::create(s, f);
    events.changed(s, "criar", id);
    return Response::json(one(s, id), 201);
  }
  Response read(const service::Scope& s, Request&) const { return Response::json(one(s, s.grant().id)); }
  Response read_nested(const service::Scope& s, Request&) const {
    return Response::json(one_nested(s, s.grant().id));
  }
  Response change(const service::Scope& s, Request& req) const {
    std::int64_t id = s.grant().id;
    LayerFields f = parse_layer_change(req.body);
    // Only a change of privacy can hide the layer from users who saw it.
    std::vector<std::int64_t> before = f.privada ? events.audience(s, id) : std::vector<std::int64_t>{};
    update(s, id, f);
    events.changed(s, "alterar", id, before);
    return Response::json(one(s, id));
  }
  Response erase(const service::Scope& s, Request&) const {
    erase_with_files(s, s.grant().id, kind_of(s, s.grant().id));
    return Response::no_content();
  }
  Response deactivate(const service::Scope& s, Request&) const {
    set_active(s, s.grant().id, false);
    events.changed(s, "alterar", s.grant().id);
    return Response::json(one(s, s.grant().id));
  }
  Response activate(const service::Scope& s, Request&) const {
    set_active(s, s.grant().id, true);
    events.changed(s, "alterar", s.grant().id);
    return Response::json(one(s, s.grant().id));
  }
  Response privacy(const service::Scope& s, Request& req) const {
    std::int64_t id = s.grant().id;
    bool privada = parse_private(req.body);
    std::vector<std::int64_t> before = events.audience(s, id);
    set_private(s, id, privada);
    events.changed(s, "alterar", id, before);
    return Response::json(one(s, id));
  }

  Response bounds(const service::Scope& s, Request&) const {
    std::int64_t id = s.grant().id;
    Extent e = extent(s, id);
    if (!e.bbox && e.tipo == "tiff" && e.arquivo) e.bbox = raster_extent(s, *e.arquivo);
    return Response::json(extent_json(id, e.tipo, e.bbox));
  }
  Response check(const service::Scope& s, Request& req) const {
    return Response::json(check_report(s, s.grant().id, limit_param(req, "limite", 100, 1000)));
  }
  Response attached(const service::Scope& s, Request&) const {
    std::int64_t id = s.grant().id;
    return Response::json(files_json(id, layer_files(files, s.tenant.slug, id, kind_of(s, id).arquivo)));
  }

  // GET /camadas/tiff/:id/extent and /camadas/dxf/:id/extent.
  Response kind_bounds(const service::Scope& s, const std::string& tipo) const {
    std::int64_t id = s.grant().id;
    Extent e = extent(s, id);
    require_kind(id, e.tipo, tipo);
    if (!e.bbox && tipo == "tiff" && e.arquivo) e.bbox = raster_extent(s, *e.arquivo);
    return Response::json(extent_json(id, e.tipo, e.bbox));
  }
  // DELETE /camadas/tiff/:id, /dxf/:id, /wms/:id.
  Response kind_erase(const service::Scope& s, const std::string& tipo) const {
    std::int64_t id = s.grant().id;
    Kind k = kind_of(s, id);
    require_kind(id, k.tipo, tipo);
    erase_with_files(s, id, k);
    return Response::no_content();
  }

  Response styled_raster(const service::Scope& s, Request& req) const {
    raster::Style style = parse_raster_style(req);
    std::int64_t id = s.grant().id;
    Kind k = kind_of(s, id);
    require_kind(id, k.tipo, "tiff");
    Response r = Response::text(raster::render_png(stored_file(s, k.arquivo), style), "image/png");
    r.headers.set("Cache-Control", "private, max-age=60");
    return r;
  }

  static void require_kind(std::int64_t id, const std::string& is, const std::string& wanted) {
    if (is != wanted)
      throw Error(errc::conflict,
                  "a camada " + std::to_string(id) + " é do tipo " + is + "; esta rota é para camadas " + wanted, "id");
  }

  std::string stored_file(const service::Scope& s, const std::optional<std::string>& arquivo) const {
    if (!arquivo) throw Error(errc::conflict, "a camada não tem arquivo no armazenamento", "id");
    std::filesystem::path p = files.resolve(s.tenant.slug, *arquivo);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(p, ec))
      throw Error(errc::conflict, "o arquivo da camada não está no armazenamento: " + *arquivo, "id");
    return p.string();
  }

  std::optional<std::array<double, 4>> raster_extent(const service::Scope& s, const std::string& arquivo) const {
    auto box = raster::extent(stored_file(s, arquivo));
    if (!box) return std::nullopt;
    return std::array<double, 4>{box->minx, box->miny, box->maxx, box->maxy};
  }

  // The row and its files go together: the files are set aside, the row deleted, and only
  // then the files erased; a failed deletion puts them back. Those who saw the layer hear
  // of its deletion (after it, they no longer can be told apart).
  void erase_with_files(const service::Scope& s, std::int64_t id, const Kind& k) const {
    std::vector<std::int64_t> before = events.audience(s, id);
    SetAside aside(files, s.tenant.slug, id, k.arquivo);
    remove(s, id);
    aside.commit();
    events.deleted(s, id, s.grant().project_id, before);
  }
};

}  // namespace
}  // namespace cadastre::platform::layers

namespace cadastre::platform {

void add_layer_routes(App& app) {
  using namespace layers;
  auto l = std::make_shared<const Layers>(
      Layers{FileStore(app.options().files_dir), Announcer(app.platform())});
  auto of_kind = [l](Response (Layers::*fn)(const service::Scope&, const std::string&) const, std::string tipo) {
    return service::scoped([l, fn, tipo](const service::Scope& s, Request&) { return ((*l).*fn)(s, tipo); });
  };
  const http::Param ativo{.name = "ativo", .type = "boolean",
                          .description = "false: as camadas inativas (ou de projetos inativos) em vez das ativas",
                          .values = {"true", "false"}};
  const http::Param projeto{.name = "idProjeto", .type = "integer", .description = "só as camadas deste projeto"};
  const std::string fields =
      R"({"nome", "descricao"?, "geometria"?: "ponto|linha|poligono|qualquer", "privada"?, "moduloId"?, )"
      R"("propriedades"?: {...}, "estilo"?: {...}, "ordem"?})";
  const http::Body no_body{};
  auto& srv = app.server();

  srv.add({.method = "GET", .pattern = "/camadas", .auth = "sessao", .access = http::members("só as camadas que o usuário vê"), .tag = kTag,
           .summary = "As camadas que o usuário vê, por projeto e ordem (só as ativas, salvo ativo=false)",
           .params = {{.name = "prop", .description = "só as camadas com esta chave em propriedades"},
                      {.name = "moduloId", .type = "integer", .description = "só as camadas deste módulo"},
                      {.name = "id_camadas", .description = "só estas camadas: ids separados por vírgula (até 1000)"},
                      projeto, ativo},
           .answer_schema = schemas::list_of("Camada"), .handler = service::scoped(l, &Layers::listed)});
  srv.add({.method = "GET", .pattern = "/camadas/all", .auth = "sessao", .access = http::members("só as camadas que o usuário vê"), .tag = kTag,
           .summary = "Todas as camadas que o usuário vê, de todos os projetos, com o nome do projeto",
           .params = {ativo}, .answer_schema = schemas::list_of("CamadaComProjeto"),
           .handler = service::scoped(l, &Layers::everywhere)});
  srv.add({.method = "GET", .pattern = "/camadas/prop-valor", .auth = "sessao", .access = http::members("só as camadas que o usuário vê"), .tag = kTag,
           .summary = "As camadas cujas propriedades têm prop igual a valor",
           .params = {{.name = "prop", .required = true, .description = "a chave (letras, dígitos e _)"},
                      {.name = "valor", .required = true, .description = "o valor, comparado como texto"},
                      ativo},
           .answer_schema = schemas::list_of("Camada"), .handler = service::scoped(l, &Layers::by_property)});
  srv.add({.method = "GET", .pattern = "/camadas/previa", .auth = "sessao", .access = http::members("só as camadas que o usuário vê"), .tag = kTag,
           .summary = "Lista leve para escolher camadas: id, nome, geometria, tipo, número de geometrias e "
                      "extensão (só camadas ativas de projetos ativos)",
           .params = {projeto, {.name = "nome", .description = "parte do nome (sem diferenciar maiúsculas)"},
                      {.name = "limite", .type = "integer", .description = "no máximo (padrão 50, até 200)"}},
           .answer_schema = schemas::list_of("CamadaPrevia"), .handler = service::scoped(l, &Layers::picker)});
  std::vector<http::Param> v2_params = page_params(kOrderColumns);
  v2_params.push_back(projeto);
  v2_params.push_back(ativo);
  srv.add({.method = "GET", .pattern = "/camadas/v2", .auth = "sessao", .access = http::members("só as camadas que o usuário vê"), .tag = kTag,
           .summary = "As camadas que o usuário vê, paginadas (padrão: pela ordem)", .params = v2_params,
           .answer_schema = schemas::page_of("Camada"), .handler = service::scoped(l, &Layers::paged)});
  srv.add({.method = "GET", .pattern = "/camadas/v2/{id}", .auth = "sessao", .access = http::on("camada", "{id}", "leitura"),
           .tag = kTag, .summary = "Uma camada com seus formulários e os campos de cada um",
           .answer_schema = schemas::ref("CamadaV2"), .handler = service::scoped(l, &Layers::read_nested)});

  srv.add({.method = "POST", .pattern = "/camadas", .auth = "sessao", .access = http::on("projeto", "corpo.idProjeto", "admin"), .tag = kTag,
           .summary = "Cria uma camada vetorial num projeto (administrador do projeto)",
           .body = {.description = R"({"idProjeto", )" + fields.substr(1), .max_bytes = 512 * 1024,
                    .schema = schemas::ref("CamadaNova")},
           .answer_status = 201, .answer_schema = schemas::ref("Camada"), .handler = service::scoped(l, &Layers::create)});
  srv.add({.method = "GET", .pattern = "/camadas/{id}", .auth = "sessao", .access = http::on("camada", "{id}", "leitura"),
           .tag = kTag, .summary = "Uma camada, com estilo, rótulo e categorias",
           .answer_schema = schemas::ref("Camada"), .handler = service::scoped(l, &Layers::read)});
  srv.add({.method = "PUT", .pattern = "/camadas/{id}", .auth = "sessao", .access = http::on("camada", "{id}", "admin"),
           .tag = kTag, .summary = "Altera uma camada (rotulo: null e categorias: null os removem)",
           .body = {.description = "os campos a alterar: " + fields + R"(, "rotulo"?: null, "categorias"?: null)",
                    .max_bytes = 512 * 1024, .schema = schemas::ref("CamadaAlteracao")},
           .answer_schema = schemas::ref("Camada"), .handler = service::scoped(l, &Layers::change)});
  srv.add({.method = "DELETE", .pattern = "/camadas/{id}", .auth = "sessao", .access = http::on("camada", "{id}", "gestao"),
           .tag = kTag, .summary = "Exclui uma camada com formulários, geometrias, valores e arquivos",
           .answers = "", .answer_status = 204, .handler = service::scoped(l, &Layers::erase)});
  srv.add({.method = "GET", .pattern = "/camadas/{id}/extent", .auth = "sessao",
           .access = http::on("camada", "{id}", "leitura"), .tag = kTag,
           .summary = "A extensão da camada em longitude/latitude (das geometrias; a registrada para tiff, dxf e wms)",
           .answer_schema = schemas::ref("ExtensaoCamada"), .handler = service::scoped(l, &Layers::bounds)});
  srv.add({.method = "GET", .pattern = "/camadas/{id}/check", .auth = "sessao",
           .access = http::on("camada", "{id}", "leitura"), .tag = kTag,
           .summary = "Relatório de validade das geometrias: inválidas (motivo do GEOS), vazias, vértices repetidos, "
                      "SRID e tipo errados",
           .params = {{.name = "limite", .type = "integer", .description = "exemplos por problema (padrão 100, até 1000)"}},
           .answer_schema = schemas::ref("VerificacaoCamada"), .handler = service::scoped(l, &Layers::check)});
  srv.add({.method = "GET", .pattern = "/camadas/arquivos/{id}", .auth = "sessao",
           .access = http::on("camada", "{id}", "leitura"), .tag = kTag,
           .summary = "Os arquivos da camada no armazenamento: nome, tamanho, sha256 e tipo",
           .answer_schema = schemas::ref("ArquivosCamada"), .handler = service::scoped(l, &Layers::attached)});
  srv.add({.method = "POST", .pattern = "/camadas/inativar/{id}", .auth = "sessao",
           .access = http::on("camada", "{id}", "gestao"), .tag = kTag,
           .summary = "Inativa uma camada (some das listas e recusa edições)", .body = no_body,
           .answer_schema = schemas::ref("Camada"), .handler = service::scoped(l, &Layers::deactivate)});
  srv.add({.method = "POST", .pattern = "/camadas/ativar/{id}", .auth = "sessao",
           .access = http::on("camada", "{id}", "gestao"), .tag = kTag, .summary = "Ativa uma camada inativa",
           .body = no_body, .answer_schema = schemas::ref("Camada"), .handler = service::scoped(l, &Layers::activate)});
  srv.add({.method = "PUT", .pattern = "/camadas/privada/{id}", .auth = "sessao",
           .access = http::on("camada", "{id}", "admin"), .tag = kTag,
           .summary = "Torna a camada privada (só quem tem direito nela a vê) ou pública no projeto",
           .body = {.description = R"({"privada": true|false})", .max_bytes = 1024, .schema = schemas::ref("Privacidade")},
           .answer_schema = schemas::ref("Camada"), .handler = service::scoped(l, &Layers::privacy)});

  for (const std::string tipo : {"tiff", "dxf"})
    srv.add({.method = "GET", .pattern = "/camadas/" + tipo + "/{id}/extent", .auth = "sessao",
             .access = http::on("camada", "{id}", "leitura"), .tag = kTag,
             .summary = "A extensão de uma camada " + tipo + " em longitude/latitude (409 para outro tipo)",
             .answer_schema = schemas::ref("ExtensaoCamada"), .handler = of_kind(&Layers::kind_bounds, tipo)});
  for (const std::string tipo : {"dxf", "wms", "tiff"})
    srv.add({.method = "DELETE", .pattern = "/camadas/" + tipo + "/{id}", .auth = "sessao",
             .access = http::on("camada", "{id}", "gestao"), .tag = kTag,
             .summary = "Exclui uma camada " + tipo + " com seus arquivos (409 para outro tipo)", .answers = "",
             .answer_status = 204, .handler = of_kind(&Layers::kind_erase, tipo)});

  srv.add({.method = "GET", .pattern = "/estilizarRaster/{id}", .auth = "sessao",
           .access = http::on("camada", "{id}", "leitura"), .tag = kTag,
           .summary = "Uma janela de uma camada tiff colorida por uma rampa, como PNG (transparente sem dados)",
           .params = {{.name = "bbox", .required = true, .description = "minx,miny,maxx,maxy em longitude/latitude"},
                      {.name = "width", .type = "integer", .description = "largura em pixels (padrão 256, até 4096)"},
                      {.name = "height", .type = "integer", .description = "altura em pixels (padrão 256, até 4096)"},
                      {.name = "ramp", .description = "rampa de cores (padrão cinza)", .values = palette::ramp_names()},
                      {.name = "classes", .type = "integer", .description = "número de classes (2 a 32); sem ele, contínua"},
                      {.name = "opacity", .type = "number", .description = "opacidade de 0 a 1 (padrão 1)"},
                      {.name = "banda", .type = "integer", .description = "a banda colorida (padrão 1)"},
                      {.name = "min", .type = "number", .description = "o valor do início da rampa (padrão: o mínimo da banda)"},
                      {.name = "max", .type = "number", .description = "o valor do fim da rampa (padrão: o máximo da banda)"}},
           .answers = "image/png", .handler = service::scoped(l, &Layers::styled_raster)});
}

}  // namespace cadastre::platform
