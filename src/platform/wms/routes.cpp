// WMS: layers from capabilities, the capabilities proxy and the WMS sources (/fonteswms).
// Every call to a WMS service goes through the outbound client under the platform's
// allow-list (AppOptions::outbound; client.hpp), and every document it answers is parsed by
// capabilities.hpp (no DTDs, no entities). Sources are the tenant's: any user of the tenant
// reads them and asks for their maps; only the tenant's administrators register, change or
// remove them. A wms layer belongs to a project: creating one needs admin on the project.
#include "cadastre/json.hpp"
#include "platform/layers/store.hpp"
#include "platform/app.hpp"
#include "platform/schemas.hpp"
#include "platform/wms/client.hpp"
#include "platform/wms/input.hpp"
#include "platform/wms/store.hpp"

namespace cadastre::platform::wms {
namespace {

using http::Request;
using http::Response;

constexpr const char* kTag = "WMS";

// The capabilities at `url` with the GetMap base they name (or the URL's own base).
Read read_source(const outbound::Policy& policy, const std::string& url) {
  Read r{url, "", read_capabilities(policy, url)};
  r.url_mapa = r.caps.url_mapa.empty() ? service_base(url) : service_base(r.caps.url_mapa);
  try {
    check_url(r.url_mapa);
  } catch (const Error&) {
    r.url_mapa = service_base(url);  // an unusable OnlineResource: the service's own URL
  }
  return r;
}

bool has(const std::vector<std::string>& list, const std::string& item) {
  for (const std::string& s : list)
    if (http::equal_ignoring_case(s, item)) return true;
  return false;
}

struct Wms {
  const AppOptions* options;

  const outbound::Policy& policy() const { return options->outbound; }

  Response capabilities(const service::Scope&, Request& req) const {
    return Response::json(to_json(read_capabilities(policy(), parse_url_query(req))));
  }

  Response import(const service::Scope& s, Request& req) const {
    WmsImport in = parse_import(req.body);
    Read r = read_source(policy(), in.url);
    const Layer* l = r.caps.find(in.camada);
    if (!l) throw Error(errc::invalid_argument, "o serviço WMS não oferece a camada " + in.camada, "camada");
    std::string formato = in.formato.value_or(has(r.caps.formatos, "image/png") || r.caps.formatos.empty()
                                                  ? "image/png"
                                                  : r.caps.formatos.front());
    if (!r.caps.formatos.empty() && !has(r.caps.formatos, formato))
      throw Error(errc::invalid_argument, "o serviço WMS não oferece o formato " + formato, "formato");
    JsonWriter props;
    props.begin_object().key("wms").begin_object().key("versao").value(r.caps.versao).key("formato").value(formato);
    props.key("titulo").value(l->titulo).key("crs").raw(strings_json(l->crs)).key("capacidades").value(in.url);
    props.end_object().end_object();
    std::string nome = in.nome.value_or(l->titulo.empty() ? l->nome : l->titulo.substr(0, 200));
    std::int64_t id = create_layer(s, in.projeto, nome, r.url_mapa, l->nome, l->bbox, std::move(props).str());
    return Response::json(layers::one(s, id), 201);
  }

  Response sources(const service::Scope& s, Request&) const { return Response::json(list(s)); }
  Response source_one(const service::Scope& s, Request& req) const { return Response::json(one(s, path_id(req))); }
  Response source_create(const service::Scope& s, Request& req) const {
    SourceFields f = parse_source(req.body, true);
    std::int64_t id = create(s, f, read_source(policy(), *f.url));
    return Response::json(one(s, id), 201);
  }
  Response source_change(const service::Scope& s, Request& req) const {
    std::int64_t id = path_id(req);
    SourceFields f = parse_source(req.body, false);
    std::string current = url_of(s, id);
    std::optional<Read> read;
    if ((f.url && *f.url != current) || f.recarregar) read = read_source(policy(), f.url.value_or(current));
    update(s, id, f, read);
    return Response::json(one(s, id));
  }
  Response source_delete(const service::Scope& s, Request& req) const {
    remove(s, path_id(req));
    return Response::no_content();
  }

  Response image(const service::Scope& s, Request& req) const {
    std::int64_t id = path_id(req);
    MapParams m = parse_map(req.body);
    Source src = source(s, id);
    for (const std::string& name : m.camadas) {
      const Layer* l = nullptr;
      for (const Layer& c : src.camadas)
        if (c.nome == name) l = &c;
      if (!l) throw Error(errc::invalid_argument, "camadas: a fonte não oferece a camada " + name, "camadas");
      if (!l->crs.empty() && !has(l->crs, m.crs))
        throw Error(errc::invalid_argument, "crs: a camada " + name + " não oferece o sistema " + m.crs, "crs");
    }
    if (!src.formatos.empty() && !has(src.formatos, m.formato))
      throw Error(errc::invalid_argument, "a fonte não oferece o formato " + m.formato, "formato");
    MapRequest r{.base = src.url_mapa, .versao = src.versao, .camadas = m.camadas, .estilos = m.estilos,
                 .crs = m.crs, .bbox = m.bbox, .width = m.width, .height = m.height, .formato = m.formato,
                 .transparente = m.transparente};
    Image img = get_map(policy(), r);
    Response out = Response::text(std::move(img.bytes), img.content_type);
    // An outside server's bytes served from the platform's origin: never run as a page.
    out.headers.set("Content-Security-Policy", "sandbox");
    out.headers.set("X-Content-Type-Options", "nosniff");
    out.headers.set("Cache-Control", "private, max-age=60");
    return out;
  }
};

}  // namespace
}  // namespace cadastre::platform::wms

namespace cadastre::platform {

void add_wms_routes(App& app) {
  using namespace wms;
  auto w = std::make_shared<const Wms>(Wms{&app.options()});
  auto& srv = app.server();
  const std::string source_body =
      R"~({"nome", "url": "http(s) do serviço, na lista de permitidos", "descricao"?})~";

  srv.add({.method = "GET", .pattern = "/proxy/wms/capabilities", .auth = "sessao", .access = http::members("um serviço WMS da lista de permitidos"), .tag = kTag,
           .summary = "Lê as capacidades de um serviço WMS pela lista de permitidos e responde as camadas (nome, "
                      "título, sistemas, extensão) e os formatos; url fora da lista ou interna → 400",
           .params = {{.name = "url", .required = true, .description = "URL http(s) do serviço WMS"}},
           .answer_schema = schemas::ref("CapacidadesWms"), .handler = service::scoped(w, &Wms::capabilities)});
  srv.add({.method = "POST", .pattern = "/importar/wms", .auth = "sessao", .access = http::on("projeto", "corpo.idProjeto", "admin"), .tag = kTag,
           .summary = "Cria uma camada wms num projeto a partir das capacidades de um serviço e do nome de uma de "
                      "suas camadas (administrador do projeto)",
           .body = {.description = R"({"idProjeto", "url": "capacidades", "camada": "nome no WMS", "nome"?, "formato"?})",
                    .max_bytes = 16 * 1024, .schema = schemas::ref("ImportacaoWms")},
           .answer_status = 201, .answer_schema = schemas::ref("Camada"), .handler = service::scoped(w, &Wms::import)});

  srv.add({.method = "GET", .pattern = "/fonteswms", .auth = "sessao", .access = http::members("as fontes WMS do próprio município"), .tag = kTag,
           .summary = "As fontes WMS do município, com as camadas e formatos lidos das capacidades",
           .answer_schema = schemas::list_of("FonteWms"), .handler = service::scoped(w, &Wms::sources)});
  srv.add({.method = "POST", .pattern = "/fonteswms", .auth = "sessao", .access = http::admins(), .tag = kTag,
           .summary = "Registra uma fonte WMS: lê suas capacidades pela lista de permitidos (administradores)",
           .body = {.description = source_body, .max_bytes = 16 * 1024, .schema = schemas::ref("FonteWmsNova")},
           .answer_status = 201, .answer_schema = schemas::ref("FonteWms"), .handler = service::scoped(w, &Wms::source_create)});
  srv.add({.method = "GET", .pattern = "/fonteswms/{id}", .auth = "sessao", .access = http::members("as fontes WMS do próprio município"), .tag = kTag, .summary = "Uma fonte WMS",
           .answer_schema = schemas::ref("FonteWms"), .handler = service::scoped(w, &Wms::source_one)});
  srv.add({.method = "PUT", .pattern = "/fonteswms/{id}", .auth = "sessao", .access = http::admins(), .tag = kTag,
           .summary = "Altera uma fonte WMS; uma nova url (ou recarregar: true) lê as capacidades de novo "
                      "(administradores)",
           .body = {.description = R"({"nome"?, "url"?, "descricao"?, "recarregar"?: true})", .max_bytes = 16 * 1024,
                    .schema = schemas::ref("FonteWmsAlteracao")},
           .answer_schema = schemas::ref("FonteWms"), .handler = service::scoped(w, &Wms::source_change)});
  srv.add({.method = "DELETE", .pattern = "/fonteswms/{id}", .auth = "sessao", .access = http::admins(), .tag = kTag,
           .summary = "Exclui uma fonte WMS (administradores)", .answers = "", .answer_status = 204,
           .handler = service::scoped(w, &Wms::source_delete)});
  srv.add({.method = "POST", .pattern = "/fonteswms/{id}/imagem", .auth = "sessao", .access = http::members("as fontes WMS do próprio município"), .tag = kTag,
           .summary = "Busca no serviço uma imagem GetMap de camadas da fonte (até " + std::to_string(kMaxSide) +
                      " pixels por lado e " + std::to_string(kMaxImageBytes >> 20) +
                      " MB, no tempo limite das chamadas externas) e a responde com o tipo verificado",
           .body = {.description = R"({"bbox": [minx, miny, maxx, maxy], "camadas": ["..."], "width"?, "height"?, )"
                                   R"("formato"?: "image/png", "crs"?: "EPSG:4674", "estilos"?: [...], "transparente"?})",
                    .max_bytes = 16 * 1024, .schema = schemas::ref("ImagemWms")},
           .answers = "image/*", .handler = service::scoped(w, &Wms::image)});
}

}  // namespace cadastre::platform
