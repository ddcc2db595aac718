// Raster layers: GeoTIFF imports as jobs, upload credentials, pixel values.
//
// POST /importar/tiff takes the GeoTIFF (multipart `file`) for a project the caller
// administers, checks it at once (400 naming why) and answers 202 with the import job
// (jobs.hpp, tipo 'tiff'; importer.hpp does the work). GET /importar/tiff/credentials hands
// out a signed link for the same upload without a session (a client that uploads from
// elsewhere, or a large file from a browser): PUT /importar/tiff/envio?... with the raw
// bytes, good once and for kLinkSeconds. A file larger than one request may be (kMaxUpload)
// goes in parts, up to kMaxSigned in all: parte=1, 2, ... appended to a partial file, and
// ultima=true on the last, which checks the whole and submits the job. The signature is
// files/signing.hpp's HMAC over the tenant, the credential's key and the expiry; the
// credential's row (what to create, for whom, the parts received) makes it single-use.
// /importacoes-tiff* read the caller's tiff jobs, rename the created layer, hide a finished
// job or cancel one (jobs::Runner::cancel).
// GET /valorPixel/:idTiff answers each band's value at a lon/lat point.

#include <chrono>

#include "cadastre/json.hpp"
#include "platform/app.hpp"
#include "platform/files/signing.hpp"
#include "platform/guard/guard.hpp"
#include "platform/jobs/jobs.hpp"
#include "platform/common/files.hpp"
#include "platform/layers/store.hpp"
#include "platform/licenses/store.hpp"
#include "platform/rasters/importer.hpp"
#include "platform/rasters/input.hpp"
#include "platform/rasters/store.hpp"
#include "platform/rasters/tiff.hpp"
#include "platform/schemas.hpp"
#include "store/crypto.hpp"

namespace cadastre::platform::rasters {
namespace {

using http::Request;
using http::Response;

constexpr const char* kTag = "Rasters";
constexpr std::int64_t kLinkSeconds = 60 * 60;
/// The largest GeoTIFF taken in one request, and so the largest part of a signed upload (the
/// platform's request limit, AppOptions::http.payload_max, bounds it too).
constexpr std::size_t kMaxUpload = 32u << 20;
/// The largest GeoTIFF a signed upload takes in parts (a classic TIFF's own limit; the
/// license's storage quota usually comes first).
constexpr std::int64_t kMaxSigned = std::int64_t{4} << 30;
const std::vector<std::string> kJobOrder = {"id", "criadoEm", "estado", "tipo"};

std::int64_t now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string signed_key(const std::string& chave) { return "tiff:" + chave; }

// A tiff job of the caller, parsed: 404 for another user's, another type's or an unknown id.
struct JobView {
  std::string json, estado;
  std::optional<std::int64_t> camada;
};

// A signed upload link the scheme "link_tiff" verified: what it says, and its municipality.
struct SignedLink {
  Signed sg;
  store::Tenant tenant;
};

struct Rasters {
  std::shared_ptr<jobs::Runner> runner;
  common::FileStore files;
  std::string secret;
  store::Pool* platform;                    // the licenses the storage quota reads
  const service::Tenancy* tenancy;          // the tenant a signed upload link names
  std::function<std::string()> public_url;  // of the service, known once it listens
  limits::RasterLimits raster_limits;       // what a GeoTIFF may declare

  Response import(const service::Scope& s, Request& req) const {
    ImportQuery q = parse_import_query(req);
    const http::FilePart& f = file_part(req);
    Upload up{q.projeto, q.nome, f.filename, q.codigo, raster_limits};
    // What the license limits (its end, its storage quota), as for any upload, at the door;
    // the job reserves the layer's file again before it writes.
    licenses::require_storage(*platform, {*s.db, files, s.tenant.slug}, s.tenant.id,
                              static_cast<std::int64_t>(f.content.size()));
    return Response::json(submit(*runner, files, s, up, f.content), 202);
  }

  Response credentials(const service::Scope& s, Request& req) const {
    ImportQuery q = parse_import_query(req);
    if (!files.enabled()) throw Error(errc::unavailable, "armazenamento de arquivos não configurado");
    std::string chave = cadastre::store::random_token();
    std::int64_t expira = now_seconds() + kLinkSeconds;
    issue(s, chave, q.projeto, q.nome, expira);
    std::string path = "/importar/tiff/envio?municipio=" + s.tenant.slug + "&chave=" + chave + "&expira=" +
                       std::to_string(expira) + "&assinatura=" + files::sign(secret, s.tenant.id, signed_key(chave), expira);
    JsonWriter w;
    w.begin_object().key("url").value(public_url() + path).key("caminho").value(path).key("metodo").value("PUT");
    w.key("tipoConteudo").value("image/tiff").key("tamanhoMaximo").value(static_cast<std::int64_t>(kMaxUpload));
    w.key("tamanhoMaximoEmPartes").value(kMaxSigned);
    w.key("expira").value(expira).key("idProjeto").value(q.projeto).key("nomeCamada").value(q.nome).end_object();
    return Response::json(std::move(w).str());
  }

  // The auth scheme "link_tiff": the signed link's own check, before the handler. Its
  // municipality must be active and its signature valid and current (403 otherwise); the
  // handler receives both, resolved.
  void verify_link(Request& req) const {
    Signed sg = parse_signed(req);
    auto tenant = tenancy->active(sg.municipio);
    if (!tenant || !files::verify(secret, tenant->id, signed_key(sg.chave), sg.expira, sg.assinatura, now_seconds()))
      throw Error(errc::forbidden, "link assinado inválido ou expirado");
    req.tenant = tenant->slug;
    req.auth = SignedLink{std::move(sg), std::move(*tenant)};
  }

  // The upload through a signed link: no session; the link stands for its issuer. The whole
  // file in this request, or one part of it (see the header).
  Response signed_upload(Request& req) const {
    const auto* link = std::any_cast<SignedLink>(&req.auth);
    if (!link) throw std::logic_error("envio sem o esquema link_tiff");
    const Signed& sg = link->sg;
    const store::Tenant* tenant = &link->tenant;
    if (req.body.empty()) throw Error(errc::invalid_argument, "o corpo (o GeoTIFF) está vazio", "file");
    store::Pool& db = tenancy->pool(*tenant);
    const auto size = static_cast<std::int64_t>(req.body.size());
    // What the license limits, before anything is stored (the total again on the last part).
    if (!sg.parte) {
      auto reservation = licenses::reserve_storage(*platform, {db, files, tenant->slug}, tenant->id, size);
      // Checked before the link is spent, so a wrong file does not waste it.
      check_file(tenant->slug, req.body);
      auto cred = consume(db, sg.chave);
      if (!cred) throw Error(errc::forbidden, "link assinado já usado ou expirado");
      service::Scope s = issuer_scope(*tenant, *cred);
      Upload up{cred->projeto, cred->nome, "envio-assinado.tif", std::nullopt, raster_limits};
      return Response::json(submit(*runner, files, s, up, req.body), 202);
    }

    licenses::require_storage(*platform, {db, files, tenant->slug}, tenant->id, size);
    const std::string partial = staging_folder(files, tenant->slug) + "/envio-" + sg.chave + ".parte";
    Received got = receive_part(db, sg.chave, *sg.parte, size, kMaxSigned, [&](std::int64_t offset) {
      if (!files.store().write_at(partial, static_cast<std::uintmax_t>(offset), req.body))
        throw Error(errc::conflict, "as partes já enviadas se perderam no servidor; peça outro link", "parte");
    });
    if (!sg.ultima) {
      JsonWriter w;
      w.begin_object().key("parte").value(got.partes).key("recebidos").value(got.recebidos);
      w.key("proximaParte").value(got.partes + 1).end_object();
      return Response::json(std::move(w).str());
    }
    // The whole file is checked before the link is spent: a wrong last part may be sent again.
    auto whole = licenses::reserve_storage(*platform, {db, files, tenant->slug}, tenant->id, got.recebidos);
    inspect(files.store().path(partial).string(), raster_limits);
    auto cred = consume(db, sg.chave);
    if (!cred) throw Error(errc::forbidden, "link assinado já usado ou expirado");
    service::Scope s = issuer_scope(*tenant, *cred);
    Upload up{cred->projeto, cred->nome, "envio-assinado.tif", std::nullopt, raster_limits};
    return Response::json(submit_file(*runner, files, s, up, partial), 202);
  }

  // The link stands for its issuer, who must still administer the project.
  service::Scope issuer_scope(const store::Tenant& tenant, const Credential& cred) const {
    store::Principal who;
    who.user_id = cred.usuario;
    who.tenant_id = tenant.id;
    who.tenant_slug = tenant.slug;
    who.admin = cred.admin;
    service::Scope s = tenancy->scope(std::move(who), tenant);
    guard::require(s, "projeto", cred.projeto, "admin", "idProjeto");
    return s;
  }

  // The GeoTIFF check alone (the same as the job's first step), on a scratch copy.
  void check_file(const std::string& slug, const std::string& bytes) const {
    file_store::Store::Scratch copy = files.store().scratch(slug + "/importacoes/tiff", ".verificar.tif");
    copy.write(bytes);
    inspect(copy.path().string(), raster_limits);
  }

  JobView job(const service::Scope& s, std::int64_t id) const {
    auto status = runner->status(s, id);
    auto json = status && status->tipo == "tiff" ? runner->find(s, id) : std::nullopt;
    if (!json) throw Error(errc::not_found, "importação de tiff " + std::to_string(id) + " não encontrada", "id");
    return {*json, status->estado, status->camada};
  }

  Response jobs_list(const service::Scope& s, Request& req) const {
    Page pg = parse_page(req, "id", true);
    return Response::json(page_json(runner->list(s, {"tiff"}, pg), pg));
  }
  Response job_one(const service::Scope& s, Request& req) const {
    return Response::json(job(s, path_id(req, "id")).json);
  }
  Response job_change(const service::Scope& s, Request& req) const {
    std::int64_t id = path_id(req, "id");
    JobChange c = parse_job_change(req.body);
    JobView v = job(s, id);
    if (c.cancelar) runner->cancel(s, id);  // 409 naming the state once the job has ended
    if (c.nome) {
      if (v.estado != "concluida" || !v.camada)
        throw Error(errc::invalid_transition,
                    "a importação não foi concluída (estado: " + v.estado + "): ainda não há camada a renomear",
                    "nomeCamada");
      guard::require(s, "camada", *v.camada, "admin", "nomeCamada");
      rename_layer(s, *v.camada, *c.nome);
    }
    if (c.ocultar) runner->hide(s, id);
    return Response::json(job(s, id).json);
  }

  Response pixel_value(const service::Scope& s, Request& req) const {
    Point p = parse_point(req);
    std::int64_t id = s.grant().id;
    layers::Kind k = layers::kind_of(s, id);
    if (k.tipo != "tiff")
      throw Error(errc::conflict, "a camada " + std::to_string(id) + " é do tipo " + k.tipo + "; esta rota é para camadas tiff",
                  "idTiff");
    if (!k.arquivo) throw Error(errc::conflict, "a camada não tem arquivo no armazenamento", "idTiff");
    Pixel px = pixel(files.resolve(s.tenant.slug, *k.arquivo).string(), p.x, p.y);
    JsonWriter w;
    w.begin_object().key("idCamada").value(id).key("x").value(p.x).key("y").value(p.y).key("crs").value(px.crs);
    w.key("xRaster").value(px.x).key("yRaster").value(px.y).key("coluna").value(px.coluna).key("linha").value(px.linha);
    w.key("valores").begin_array();
    for (std::size_t b = 0; b < px.valores.size(); ++b) {
      w.begin_object().key("banda").value(static_cast<std::int64_t>(b + 1)).key("valor");
      if (px.valores[b]) w.value(*px.valores[b]);
      else w.null();
      w.end_object();
    }
    w.end_array().end_object();
    return Response::json(std::move(w).str());
  }
};

}  // namespace
}  // namespace cadastre::platform::rasters

namespace cadastre::platform {

void add_raster_routes(App& app) {
  using namespace rasters;
  auto r = std::make_shared<const Rasters>(Rasters{
      jobs::runner(app), common::FileStore(app.options().files_dir),
      app.options().files_secret.empty() ? cadastre::store::random_token() : app.options().files_secret,
      &app.platform(), &app.tenancy(),
      [url = app.options().public_url, srv = &app.server()] { return url.empty() ? srv->base_url() : url; },
      app.options().decode.raster});
  r->runner->handle("tiff", [files = r->files, platform = r->platform](jobs::Context& ctx) {
    run(ctx, files, *platform);
  });
  auto& srv = app.server();
  const std::vector<http::Param> import_params = {
      {.name = "idProjeto", .type = "integer", .required = true, .description = "o projeto da nova camada"},
      {.name = "nomeCamada", .required = true, .description = "o nome da camada tiff a criar"},
      {.name = "codigo", .description = "chave de idempotência: o mesmo codigo devolve a importação já feita"}};
  const std::string limit = std::to_string(kMaxUpload >> 20) + " MB";

  srv.add({.method = "POST", .pattern = "/importar/tiff", .auth = "sessao",
           .access = http::on("projeto", "idProjeto", "admin"), .tag = kTag,
           .summary = "Importa um GeoTIFF (com sistema de coordenadas) como camada tiff: verificado na hora (400 com "
                      "o motivo), convertido em Cloud Optimized GeoTIFF por uma importação (202)",
           .params = import_params,
           .body = {.description = "multipart/form-data: file (o GeoTIFF, até " + limit + ")",
                    .content_type = "multipart/form-data", .max_bytes = kMaxUpload + (64u << 10)},
           .answer_status = 202, .answer_schema = schemas::ref("ImportacaoTiff"), .handler = service::scoped(r, &Rasters::import)});
  srv.add({.method = "GET", .pattern = "/importar/tiff/credentials", .auth = "sessao",
           .access = http::on("projeto", "idProjeto", "admin"), .tag = kTag,
           .summary = "Um link assinado de envio de um GeoTIFF (PUT, sem sessão, uma vez, por " +
                      std::to_string(kLinkSeconds / 60) + " minutos) que cria a mesma importação",
           .params = {import_params[0], import_params[1]},
           .answer_schema = schemas::ref("CredencialTiff"), .handler = service::scoped(r, &Rasters::credentials)});
  srv.add_auth_scheme({"link_tiff",
                       R"({"type":"apiKey","in":"query","name":"assinatura","description":"o link assinado de GET /importar/tiff/credentials (municipio, chave, expira e assinatura); alterado ou vencido → 403"})",
                       [r](Request& q, const http::Route&) { r->verify_link(q); }});
  srv.add({.method = "PUT", .pattern = "/importar/tiff/envio", .auth = "link_tiff",
           .access = http::holders("um link assinado de GET /importar/tiff/credentials, que vale pelo usuário que o pediu"),
           .tag = kTag,
           .summary = "O envio por link assinado (GET /importar/tiff/credentials): o corpo é o GeoTIFF; link alterado, "
                      "vencido ou já usado → 403",
           .params = {{.name = "municipio", .required = true, .description = "do link"},
                      {.name = "chave", .required = true, .description = "do link"},
                      {.name = "expira", .type = "integer", .required = true, .description = "do link"},
                      {.name = "assinatura", .required = true, .description = "do link"},
                      {.name = "parte", .type = "integer",
                       .description = "envio em partes: o número desta parte (1, 2, ...; a última de novo a "
                                      "substitui); sem ele, o corpo é o arquivo inteiro"},
                      {.name = "ultima", .type = "boolean",
                       .description = "true na última parte: confere o arquivo inteiro e cria a importação (202)"}},
           .body = {.description = "o GeoTIFF (até " + limit + "), ou uma parte dele (até " + limit +
                                   " cada, " + std::to_string(kMaxSigned >> 30) + " GB no total); uma parte que "
                                   "não é a última responde 200 {\"parte\",\"recebidos\",\"proximaParte\"}",
                    .content_type = "image/tiff", .max_bytes = kMaxUpload},
           .answer_status = 202, .answer_schema = schemas::ref("ImportacaoTiff"),
           .handler = [r](Request& q) { return r->signed_upload(q); }});

  std::vector<http::Param> paging = page_params(kJobOrder);
  srv.add({.method = "GET", .pattern = "/importacoes-tiff", .auth = "sessao", .access = http::members("as importações do próprio usuário (do administrador do município: todas)"), .tag = kTag,
           .summary = "As importações de GeoTIFF do usuário (não ocultas), as mais novas primeiro", .params = paging,
           .answer_schema = schemas::page_of("ImportacaoTiff"), .handler = service::scoped(r, &Rasters::jobs_list)});
  srv.add({.method = "GET", .pattern = "/importacoes-tiff/{id}", .auth = "sessao", .access = http::members("uma importação do próprio usuário (do administrador do município: qualquer uma)"), .tag = kTag,
           .summary = "Uma importação de GeoTIFF do usuário: estado, progresso, erros e a camada criada",
           .answer_schema = schemas::ref("ImportacaoTiff"), .handler = service::scoped(r, &Rasters::job_one)});
  srv.add({.method = "PUT", .pattern = "/importacoes-tiff/{id}", .auth = "sessao", .access = http::members("uma importação do próprio usuário (do administrador do município: qualquer uma); renomear a camada pede admin nela (verificado pelo guarda)"), .tag = kTag,
           .summary = "Renomeia a camada de uma importação concluída (nomeCamada; 409 antes disso) e/ou oculta uma "
                      "importação terminada (oculta: true); ou, com cancelar: true sozinho, cancela uma importação "
                      "pendente (cancelada na hora) ou em execução (para no próximo passo sem gravar nada)",
           .body = {.description = R"({"nomeCamada"?, "oculta"?: true} ou {"cancelar": true})", .max_bytes = 4096,
                    .schema = schemas::ref("ImportacaoTiffAlteracao")},
           .answer_schema = schemas::ref("ImportacaoTiff"), .handler = service::scoped(r, &Rasters::job_change)});
  srv.add({.method = "GET", .pattern = "/valorPixel/{idTiff}", .auth = "sessao",
           .access = http::on("camada", "{idTiff}", "leitura"), .tag = kTag,
           .summary = "O valor de cada banda de uma camada tiff num ponto (longitude/latitude, EPSG:4674); sem dado → "
                      "null; fora do raster → 404",
           .params = {{.name = "x", .type = "number", .required = true, .description = "longitude"},
                      {.name = "y", .type = "number", .required = true, .description = "latitude"}},
           .answer_schema = schemas::ref("ValorPixel"), .handler = service::scoped(r, &Rasters::pixel_value)});
}

}  // namespace cadastre::platform
