// Files and photos: uploads attached to a project, a layer or a geometry (projeto.arquivos,
// tenant migration 0022), photos of geometries, a company's logo and a user's photo, their
// records, downloads, thumbnails and presigned links; and the templates offered to new
// projects.
//
// Every upload is multipart/form-data with the part `file` and follows the cadastre's media
// rules (storage.hpp): the route declares its body limit, so a larger Content-Length gets
// 413 before the body is read; the type is read from the bytes (415 when not accepted;
// photos, logos and user photos take images only); the SHA-256 is stored with the record;
// the file is written under a temporary name and renamed into place, and removed again
// when its record cannot be stored. Deleting removes the record, then (after the commit)
// the file.
//
// Access: a file attached to a geometry, a layer or a project is governed by the guard on
// that record (leitura to read, edicao to upload, change or delete). Logos and user photos
// are the tenant's: any session of the tenant reads them; a logo is written by an
// administrator of the company's tenant, a user's photo by that user (or an administrator).
// Files of another tenant, or attached to what the caller may not see, are unknown (404).
//
// GET /arquivos/fotos serves a file by its key under the auth scheme "link_arquivo": a
// presigned link (signing.hpp, from GET /arquivos/fotos/presigned-url) is verified by the
// scheme, which resolves the key's municipality (tampered or expired → 403); without one,
// the scheme is "sessao" (no session → 401) and the handler asks the guard for leitura on
// the key's record.
#include <any>
#include <chrono>
#include <memory>

#include "cadastre/json.hpp"
#include "platform/app.hpp"
#include "platform/files/input.hpp"
#include "platform/files/signing.hpp"
#include "platform/files/storage.hpp"
#include "platform/files/store.hpp"
#include "platform/files/thumbnail.hpp"
#include "platform/guard/guard.hpp"
#include "platform/jobs/jobs.hpp"
#include "platform/jobs/parameters.hpp"
#include "platform/licenses/store.hpp"
#include "platform/schemas.hpp"
#include "store/crypto.hpp"

namespace cadastre::platform::files {
namespace {

using http::Request;
using http::Response;
using service::Scope;

constexpr const char* kTag = "Arquivos";
constexpr std::int64_t kLinkSeconds = 15 * 60;

struct Context {
  Storage storage;
  std::string secret;
  std::size_t max_bytes;
  store::Pool* platform;                  // logos and user photos are linked from the platform database
  const service::Tenancy* tenancy;        // the tenant a signed link names
  std::function<std::string()> public_url;  // of the service, known once it listens
  common::FileStore layer_files;          // what the storage quota counts
  limits::RasterLimits image_limits;      // what a photo may declare to be made a thumbnail
  std::shared_ptr<jobs::Runner> previews;  // the lane that makes images' previews
};

// How long an upload (or the first thumbnail of an image stored before previews existed)
// waits for its preview's job before answering anyway: a photo's preview takes well under
// a second, so a client shows its thumbnail at once; past that, thumbnails answer 503 with
// Retry-After until the job is done.
constexpr auto kPreviewWait = std::chrono::seconds(3);

std::string link_of(const std::string& key) { return "/arquivos/fotos?url=" + key; }

std::int64_t now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// The caller's right on a file found by its key: the guard's, on the file (see the kind
// "arquivo" in guard/store.cpp: the record it is attached to, or the tenant's own).
void check(const Scope& s, const Record& r, bool write) { guard::require(s, "arquivo", r.id, write ? "edicao" : "leitura"); }

// The file the route's permission named (the guard found it and checked the caller's role);
// `photos_only`: a file that is not a photo is not found.
Record named(const Scope& s, bool photos_only = false) {
  auto r = find(*s.db, s.grant().id);
  if (!r || (photos_only && r->finalidade != "foto"))
    throw Error(errc::not_found, std::string(photos_only ? "foto" : "arquivo") + " não encontrado", "id");
  return *r;
}

bool thumbnailable(const std::string& media_type) {
  return media_type.rfind("image/", 0) == 0 && media_type != "image/tiff";
}

struct PreviewJob {
  jobs::Submitted submitted;
  bool done = false;  // the job ran to its end within kPreviewWait
};

// Queues the stored image's preview (thumbnail.hpp) on the previews lane, once per user,
// image and attempt (codigo), and waits for it up to kPreviewWait. The job reads the
// stored image and keeps its preview; an image over the limits, unreadable or missing is
// still stored (an attachment may be a large scan): the job keeps why it has no preview
// instead, and ends concluida. So a preview job that failed met something passing (its
// process stopped, the database went away) and is worth another attempt.
PreviewJob queue_preview(const Context& c, const Scope& s, const Folder& folder, const std::string& key,
                         const std::string& codigo) {
  JsonWriter p;
  p.begin_object().key("chave").value(key);
  if (folder.camada) p.key("idCamada").value(*folder.camada);
  if (folder.projeto) p.key("idProjeto").value(*folder.projeto);
  p.end_object();
  jobs::Job job{.tipo = "previa", .handler = {}, .parametros = std::move(p).str(), .codigo = codigo,
                .projeto = std::nullopt, .entrada = std::nullopt};
  auto sub = c.previews->submit(s, std::move(job));
  return {sub, sub.novo && c.previews->wait(s, sub.id, kPreviewWait)};
}

// The preview's job, on whichever instance claimed it: the stored image read, its preview
// (or why there is none) kept beside it.
void make_preview(const Storage& storage, const limits::RasterLimits& limits, jobs::Context& ctx) {
  const jobs::Parameters par(ctx.parametros());
  const std::string key = par.required_text("chave");
  const std::string& slug = ctx.tenant_slug();
  const Folder folder{par.integer("idCamada"), par.integer("idProjeto")};
  if (storage.read_preview(slug, folder, key) || storage.read_no_preview(slug, folder, key)) return;
  auto original = storage.read(slug, folder, key);
  if (!original) {
    storage.put_no_preview(slug, folder, key, {errc::not_found, "o arquivo não está no armazenamento"});
    return;
  }
  std::string png;
  try {
    png = thumbnail(*original, kPreviewSide, limits);
  } catch (const Error& e) {
    storage.put_no_preview(slug, folder, key, {e.code(), e.what()});
    return;
  }
  storage.put_preview(slug, folder, key, png);
}

std::optional<std::string> kept_preview(const Context& c, const Scope& s, const Folder& folder, const std::string& key) {
  if (auto png = c.storage.read_preview(s.tenant.slug, folder, key)) return png;
  if (auto why = c.storage.read_no_preview(s.tenant.slug, folder, key))
    throw Error(why->code, "a imagem não tem miniatura: " + why->message, "id");
  return std::nullopt;
}

// The image's preview, as its job left it: the preview, or its job's refusal (413, 422,
// 404); while the job has not run, 503 with Retry-After. An image stored before previews
// existed gets its job now; a job that failed gets another, up to kPreviewAttempts. A
// request never decodes the image itself.
constexpr int kPreviewAttempts = 3;

std::string preview_of(const Context& c, const Scope& s, const Record& r) {
  const Folder folder = r.folder();
  if (auto png = kept_preview(c, s, folder, r.chave)) return *png;
  std::string codigo = "previa:" + r.chave;
  for (int attempt = 0; attempt < kPreviewAttempts; ++attempt) {
    PreviewJob job = queue_preview(c, s, folder, r.chave, codigo);
    auto status = job.done ? std::optional<jobs::Status>() : c.previews->status(s, job.submitted.id);
    if (job.done || (status && status->estado == "concluida")) {
      if (auto png = kept_preview(c, s, folder, r.chave)) return *png;
    } else if (!status || status->estado == "pendente" || status->estado == "executando") {
      throw RetryLater(errc::unavailable, "a miniatura está sendo preparada; tente de novo em instantes", 1);
    }
    codigo = "previa:" + r.chave + ":" + std::to_string(job.submitted.id);  // the next attempt
  }
  throw Error(errc::unprocessable, "a miniatura não pôde ser feita; tente de novo mais tarde", "id");
}

struct Saved {
  std::string json, key;
};

// Stores the bytes, then the record; the file goes away again when the record fails.
Saved save(const Context& c, const Scope& s, const Upload& up, NewRecord rec, bool images_only,
                  const std::optional<std::string>& format = std::nullopt) {
  if (format && up.bytes->size() <= c.max_bytes) {
    auto k = sniff(*up.bytes);
    if (k && k->image && k->media_type != "image/" + *format)
      throw Error(errc::unsupported_media_type, "o conteúdo do arquivo não é " + *format, "file");
  }
  // The license limits storage: ended, suspended or full → 403 before any byte is kept.
  // Reserved until the record has committed (or the write failed).
  auto reservation = licenses::reserve_storage(*c.platform, {*s.db, c.layer_files, s.tenant.slug}, s.tenant.id,
                                               static_cast<std::int64_t>(up.bytes->size()));
  rec.file = c.storage.put(s.tenant.slug, Folder{rec.camada, rec.projeto}, *up.bytes, c.max_bytes, images_only, "file");
  rec.nome = up.nome;
  rec.descricao = up.descricao;
  rec.criado_por = s.user.user_id;
  Saved saved;
  try {
    saved = {create(*s.db, rec), rec.file.key};
  } catch (...) {
    c.storage.remove(s.tenant.slug, Folder{rec.camada, rec.projeto}, rec.file.key);
    throw;
  }
  if (thumbnailable(rec.file.media_type))
    queue_preview(c, s, Folder{rec.camada, rec.projeto}, rec.file.key, "previa:" + rec.file.key);
  return saved;
}

NewRecord attached(const char* finalidade, const service::Grant& g, bool geometry) {
  NewRecord r;
  r.finalidade = finalidade;
  r.projeto = g.project_id;
  if (g.layer_id) r.camada = g.layer_id;
  if (geometry) r.geometria = g.id;
  return r;
}

Response upload_to(const Context& c, const Scope& s, Request& req) {
  std::string tipo = parse_target(req);
  std::int64_t id = path_id(req, "id");
  service::Grant g = guard::require(s, tipo, id, "edicao", "id");
  Upload up = parse_upload(req);
  return Response::json(save(c, s, up, attached("arquivo", g, tipo == "geometria"), false).json, 201);
}

Response upload_to_project(const Context& c, const Scope& s, Request& req) {
  Upload up = parse_upload(req);
  NewRecord r;
  r.finalidade = "arquivo";
  r.projeto = s.grant().id;
  return Response::json(save(c, s, up, std::move(r), false).json, 201);
}

Response upload_photo(const Context& c, const Scope& s, Request& req) {
  Upload up = parse_upload(req, "idGeometria");
  service::Grant g = guard::require(s, "geometria", up.id, "edicao", "idGeometria");
  return Response::json(save(c, s, up, attached("foto", g, true), true).json, 201);
}

// The logo or user photo `old` (a link) replaced by a new one: its record and file go.
void drop_replaced(const Context& c, const Scope& s, const std::optional<std::string>& old) {
  if (!old) return;
  auto at = old->rfind("url=");
  std::string key = at == std::string::npos ? "" : old->substr(at + 4);
  if (!valid_key(key, s.tenant.slug)) return;  // another tenant's, or not one of ours
  auto r = find_by_key(*s.db, key);
  if (!r) return;
  remove(*s.db, r->id);
  c.storage.remove(s.tenant.slug, r->folder(), key);
}

// A logo or a user's photo: the record in the tenant, the link in the platform database.
Response platform_image(const Context& c, const Scope& s, Request& req, NewRecord rec, bool logo) {
  auto format = parse_image_format(req);
  Upload up = parse_upload(req);
  Saved saved = save(c, s, up, rec, true, format);
  std::string link = link_of(saved.key);
  std::optional<std::string> old;
  try {
    old = logo ? set_logo(*c.platform, *rec.empresa, link) : set_user_photo(*c.platform, *rec.usuario, link);
  } catch (...) {
    remove_by_key(*s.db, saved.key);
    c.storage.remove(s.tenant.slug, Folder{}, saved.key);
    throw;
  }
  drop_replaced(c, s, old);
  return Response::json(std::move(saved.json), 201);
}

Response upload_logo(const Context& c, const Scope& s, Request& req) {
  std::int64_t empresa = path_id(req, "id");
  auto tenant = company_tenant(*c.platform, empresa);
  // A company of another tenant is out of sight (the route's permission: administrators).
  if (!tenant || *tenant != std::optional<std::int64_t>(s.tenant.id))
    throw Error(errc::not_found, "empresa não encontrada", "id");
  NewRecord r;
  r.finalidade = "logo";
  r.empresa = empresa;
  return platform_image(c, s, req, std::move(r), true);
}

Response upload_user_photo(const Context& c, const Scope& s, Request& req) {
  NewRecord r;
  r.finalidade = "foto_usuario";
  r.usuario = s.user.user_id;
  return platform_image(c, s, req, std::move(r), false);
}

Response read(const Scope& s, Request&) {
  return Response::json(json(*s.db, named(s).id));
}

Response change(const Scope& s, Request& req) {
  std::int64_t id = s.grant().id;
  Changes ch = parse_changes(req.body);
  return Response::json(update(*s.db, id, ch.nome, ch.descricao));
}

Response erase(const Context& c, const Scope& s, const Record& r) {
  if (!remove(*s.db, r.id)) throw Error(errc::not_found, "arquivo não encontrado", "id");
  c.storage.remove(s.tenant.slug, r.folder(), r.chave);  // after the commit: a failed delete keeps it
  if (r.finalidade == "logo" || r.finalidade == "foto_usuario") clear_platform_link(*c.platform, link_of(r.chave));
  return Response::no_content();
}

// The file, or (side > 0, with the caller's scope) its thumbnail scaled from its preview.
Response serve(const Context& c, const std::string& slug, const Record& r, int side, const Scope* s = nullptr) {
  std::string type = r.tipo_midia;
  std::optional<std::string> bytes;
  if (side > 0 && s) {
    if (!thumbnailable(type))
      throw Error(errc::unsupported_media_type, "miniaturas só de fotos (PNG, JPEG, GIF, WebP)", "miniatura");
    std::string preview = preview_of(c, *s, r);
    bytes = side >= kPreviewSide ? std::move(preview) : thumbnail(preview, side, c.image_limits);
    type = "image/png";
  } else {
    bytes = c.storage.read(slug, r.folder(), r.chave);
    if (!bytes) throw Error(errc::not_found, "o arquivo não está no armazenamento", "url");
  }
  Response out = Response::text(std::move(*bytes), type);
  std::string ascii;
  for (unsigned char ch : r.nome) ascii += ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\' ? char(ch) : '_';
  out.headers.set("Content-Disposition", std::string(type.rfind("image/", 0) == 0 || type == "application/pdf"
                                                         ? "inline"
                                                         : "attachment") +
                                             "; filename=\"" + ascii + "\"; filename*=UTF-8''" +
                                             http::percent_encode(r.nome));
  out.headers.set("X-Content-Type-Options", "nosniff");
  out.headers.set("Cache-Control", "private, no-cache");
  return out;
}

Response photo(const Context& c, const Scope& s, Request& req) {
  int side = parse_thumbnail_side(req);
  Record r = named(s);
  if (r.tipo_midia.rfind("image/", 0) != 0) throw Error(errc::not_found, "o arquivo não é uma foto", "id");
  return serve(c, s.tenant.slug, r, side, &s);
}

// A presigned link the scheme "link_arquivo" verified: the key and its municipality.
struct SignedFile {
  std::string key;
  store::Tenant tenant;
};

// The scheme "link_arquivo" (see the header): a signed link is checked here, before the
// handler; any other request is the session scheme's.
void verify_link(const Context& c, const http::AuthHook& session, Request& req, const http::Route& route) {
  auto signature = parse_signature(req);
  if (!signature) return session(req, route);
  std::string key = parse_key_query(req, "url");
  auto tenant = c.tenancy->active(key.substr(0, key.find('.')));
  if (!tenant || !verify(c.secret, tenant->id, key, signature->expira, signature->assinatura, now_seconds()))
    throw Error(errc::forbidden, "link assinado inválido ou expirado");
  req.tenant = tenant->slug;
  req.auth = SignedFile{std::move(key), std::move(*tenant)};
}

// By key: through the link the scheme verified, or a session with leitura on the record.
Response by_key(const Context& c, Request& req) {
  if (const auto* link = std::any_cast<SignedFile>(&req.auth)) {
    auto r = find_by_key(c.tenancy->pool(link->tenant), link->key);
    if (!r) throw Error(errc::not_found, "arquivo não encontrado", "url");
    return serve(c, link->tenant.slug, *r, 0);
  }
  const Scope& s = service::scope(req);
  std::string key = parse_key_query(req, "url");
  if (!valid_key(key, s.tenant.slug)) throw Error(errc::not_found, "arquivo não encontrado", "url");
  auto r = find_by_key(*s.db, key);
  if (!r) throw Error(errc::not_found, "arquivo não encontrado", "url");
  check(s, *r, false);
  return serve(c, s.tenant.slug, *r, 0);
}

Response presign(const Context& c, const Scope& s, Request& req) {
  std::string key = parse_key_query(req, "url");
  if (!valid_key(key, s.tenant.slug)) throw Error(errc::not_found, "arquivo não encontrado", "url");
  auto r = find_by_key(*s.db, key);
  if (!r) throw Error(errc::not_found, "arquivo não encontrado", "url");
  check(s, *r, false);
  std::int64_t expira = now_seconds() + kLinkSeconds;
  std::string path = link_of(key) + "&expira=" + std::to_string(expira) + "&assinatura=" +
                     sign(c.secret, s.tenant.id, key, expira);
  JsonWriter w;
  w.begin_object().key("url").value(c.public_url() + path).key("caminho").value(path);
  w.key("expira").value(expira).end_object();
  return Response::json(std::move(w).str());
}

}  // namespace
}  // namespace cadastre::platform::files

namespace cadastre::platform {

void add_file_routes(App& app) {
  using namespace files;
  auto ctx = std::make_shared<const Context>(
      Context{Storage(app.options().files_dir),
              app.options().files_secret.empty() ? cadastre::store::random_token() : app.options().files_secret,
              app.options().files_max_bytes, &app.platform(), &app.tenancy(),
              [url = app.options().public_url, srv = &app.server()] { return url.empty() ? srv->base_url() : url; },
              common::FileStore(app.options().files_dir),
              app.options().decode.image, jobs::runner(app, jobs::Lane::previews)});
  ctx->previews->handle(
      "previa", [storage = ctx->storage, limits = ctx->image_limits](jobs::Context& job) { make_preview(storage, limits, job); },
      false);
  auto& srv = app.server();
  const std::string limit = " Limite de " + std::to_string(ctx->max_bytes) +
                            " bytes (413 acima, antes de ler o corpo); o tipo é lido do conteúdo, não do nome: ";
  const std::string any_type = limit + accepted(false) + " (outro → 415).";
  const std::string images = limit + accepted(true) + " (outro → 415).";
  // The multipart framing around the file part.
  const http::Body upload{.description = "multipart/form-data: file (o arquivo), descricao (texto, opcional)",
                          .content_type = "multipart/form-data",
                          .max_bytes = ctx->max_bytes + (64u << 10)};
  http::Body photo_upload = upload;
  photo_upload.description = "multipart/form-data: file (a foto), idGeometria (texto: o id), descricao (opcional)";
  const std::vector<http::Param> image_format = {
      {"tipo", "query", "string", false, "formato esperado da imagem (o conteúdo deve sê-lo: 415)",
       {"png", "jpeg", "jpg", "gif", "webp"}}};
  const std::string record = schemas::ref("Arquivo");

  srv.add_auth_scheme({"link_arquivo",
                       R"j({"type":"apiKey","in":"query","name":"assinatura","description":"o link assinado de GET /arquivos/fotos/presigned-url (url, expira e assinatura; alterado ou vencido → 403); sem ele, a sessão (X-AUTH-TOKEN e X-TN-TOKEN)"})j",
                       [ctx, session = srv.auth_hook("sessao")](Request& q, const http::Route& route) {
                         verify_link(*ctx, session, q, route);
                       }});
  srv.add({.method = "GET",
           .pattern = "/arquivos/fotos",
           .auth = "link_arquivo",
           .access = http::holders("a sessão do município da chave, com leitura no registro do arquivo (verificada pelo guarda), ou um link assinado válido"),
           .tag = kTag,
           .summary = "Baixa um arquivo pela chave (url): com a sessão do município da chave e leitura no registro "
                      "a que pertence, ou sem sessão com um link assinado válido (GET "
                      "/arquivos/fotos/presigned-url): assinatura alterada ou vencida → 403; nenhum dos dois → 401. "
                      "Chave malformada → 400; desconhecida → 404.",
           .params = {{"url", "query", "string", true, "chave do arquivo (ou o link devolvido no envio)"},
                      {"expira", "query", "integer", false, "link assinado: instante Unix em que vence"},
                      {"assinatura", "query", "string", false, "link assinado: HMAC-SHA256 (hex)"}},
           .answers = "application/octet-stream",
           .handler = [ctx](Request& r) { return by_key(*ctx, r); }});
  srv.add({.method = "GET",
           .pattern = "/arquivos/fotos/presigned-url",
           .auth = "sessao",
           .access = http::members("leitura no registro do arquivo da chave (verificada pelo guarda)"),
           .tag = kTag,
           .summary = "Um link assinado (HMAC-SHA256 sobre município, chave e validade) que serve o arquivo sem "
                      "sessão por " + std::to_string(kLinkSeconds / 60) +
                      " minutos. Exige leitura no registro do arquivo; outro município ou desconhecido → 404.",
           .params = {{"url", "query", "string", true, "chave do arquivo"}},
           .answer_schema = R"({"type":"object","properties":{"url":{"type":"string"},"caminho":{"type":"string"},"expira":{"type":"integer"}}})",
           .handler = service::scoped(ctx, &presign)});
  srv.add({.method = "GET",
           .pattern = "/arquivos/fotos/{id}",
           .auth = "sessao",
           .access = http::on("arquivo", "{id}", "leitura"),
           .tag = kTag,
           .summary = "A foto {id} (um arquivo de imagem; outro tipo → 404), ou sua miniatura PNG com "
                      "?miniatura=true (lado maior de 256 px) ou ?tamanho=16..1024. Exige leitura no registro.",
           .params = {{"miniatura", "query", "boolean", false, "true: miniatura de 256 px"},
                      {"tamanho", "query", "integer", false, "lado maior da miniatura, 16 a 1024 px"}},
           .answers = "image/*",
           .handler = service::scoped(ctx, [](const Context& c, const Scope& s, Request& r) { return photo(c, s, r); })});
  srv.add({.method = "GET",
           .pattern = "/arquivos/{id}",
           .auth = "sessao",
           .access = http::on("arquivo", "{id}", "leitura"),
           .tag = kTag,
           .summary = "O registro do arquivo {id} (metadados: nome, tipo, tamanho, sha256, a que pertence e o "
                      "link 'url' que serve o conteúdo). Exige leitura no registro a que pertence.",
           .answer_schema = record,
           .handler = service::scoped(&read)});
  srv.add({.method = "PUT",
           .pattern = "/arquivos/{id}",
           .auth = "sessao",
           .access = http::on("arquivo", "{id}", "edicao"),
           .tag = kTag,
           .summary = "Renomeia ou descreve o arquivo {id} (só metadados; o conteúdo não muda). Exige edição.",
           .body = {.description = "{\"nome\"?: \"...\", \"descricao\"?: \"...\" | null}", .max_bytes = 16u << 10,
                    .schema = schemas::ref("ArquivoAlteracao")},
           .answer_schema = record,
           .handler = service::scoped(&change)});
  srv.add({.method = "POST",
           .pattern = "/arquivos/{id}/files/upload",
           .auth = "sessao",
           .access = http::members("edição na camada ou geometria {id}, conforme tipo (verificada pelo guarda)"),
           .tag = kTag,
           .summary = "Anexa um arquivo à camada ({id} com tipo=camada) ou à geometria ({id} com tipo=geometria); "
                      "exige edição nela. Responde 201 com o registro." + any_type,
           .params = {{"tipo", "query", "string", true, "a que o arquivo pertence", {"camada", "geometria"}}},
           .body = upload,
           .answer_status = 201,
           .answer_schema = record,
           .handler = service::scoped(ctx, &upload_to)});
  srv.add({.method = "POST",
           .pattern = "/arquivos/projeto/{id}/files/upload",
           .auth = "sessao",
           .access = http::on("projeto", "{id}", "edicao"),
           .tag = kTag,
           .summary = "Anexa um arquivo ao projeto {id} (exige edição). Responde 201 com o registro." + any_type,
           .body = upload,
           .answer_status = 201,
           .answer_schema = record,
           .handler = service::scoped(ctx, &upload_to_project)});
  srv.add({.method = "POST",
           .pattern = "/arquivos/empresas/{id}/logo",
           .auth = "sessao",
           .access = http::admins(),
           .tag = kTag,
           .summary = "Troca o logotipo da empresa {id} (plataforma.empresas.logo passa a ser o link; o anterior é "
                      "excluído). Exige ser administrador do município da empresa; outra empresa → 404." + images,
           .params = image_format,
           .body = upload,
           .answer_status = 201,
           .answer_schema = record,
           .handler = service::scoped(ctx, &upload_logo)});
  srv.add({.method = "POST",
           .pattern = "/usuarios/foto",
           .auth = "sessao",
           .access = http::members("a foto do próprio usuário"),
           .tag = kTag,
           .summary = "Troca a foto do próprio usuário (o campo foto do perfil passa a ser o link; a anterior é "
                      "excluída)." + images,
           .params = image_format,
           .body = upload,
           .answer_status = 201,
           .answer_schema = record,
           .handler = service::scoped(ctx, &upload_user_photo)});
  srv.add({.method = "DELETE",
           .pattern = "/arquivos/{idArquivo}",
           .auth = "sessao",
           .access = http::on("arquivo", "{idArquivo}", "edicao"),
           .tag = kTag,
           .summary = "Exclui o arquivo e seu registro (o link deixa de funcionar). Exige edição no registro a que "
                      "pertence (logotipo: administrador; foto de usuário: o próprio). Responde 204.",
           .answers = "",
           .answer_status = 204,
           .handler = service::scoped(ctx, [](const Context& c, const Scope& s, Request&) {
             return erase(c, s, named(s));
           })});
  srv.add({.method = "POST",
           .pattern = "/fotos",
           .auth = "sessao",
           .access = http::members("edição na geometria idGeometria do formulário (verificada pelo guarda)"),
           .tag = kTag,
           .summary = "Anexa uma foto à geometria idGeometria (parte de texto do formulário; exige edição nela). "
                      "Responde 201 com o registro." + images,
           .body = photo_upload,
           .answer_status = 201,
           .answer_schema = record,
           .handler = service::scoped(ctx, &upload_photo)});
  srv.add({.method = "DELETE",
           .pattern = "/fotos/{midiaId}",
           .auth = "sessao",
           .access = http::on("arquivo", "{midiaId}", "edicao"),
           .tag = kTag,
           .summary = "Exclui a foto {midiaId} (de uma geometria; outro arquivo → 404) e seu registro. Exige "
                      "edição na geometria. Responde 204.",
           .answers = "",
           .answer_status = 204,
           .handler = service::scoped(ctx, [](const Context& c, const Scope& s, Request&) {
             return erase(c, s, named(s, true));
           })});
  srv.add({.method = "DELETE",
           .pattern = "/fotos/nome/{fileName*}",
           .auth = "sessao",
           .access = http::members("edição na geometria da foto do nome gravado (verificada pelo guarda)"),
           .tag = kTag,
           .summary = "Exclui a foto pelo nome gravado (a chave do arquivo; caminhos, separadores e '..' → 400). "
                      "Exige edição na geometria. Responde 204.",
           .answers = "",
           .answer_status = 204,
           .handler = service::scoped(ctx, [](const Context& c, const Scope& s, Request& r) {
             std::string key = parse_key_param(r, "fileName");
             auto rec = valid_key(key, s.tenant.slug) ? find_by_key(*s.db, key) : std::nullopt;
             if (!rec || rec->finalidade != "foto") throw Error(errc::not_found, "foto não encontrada", "fileName");
             check(s, *rec, true);
             return erase(c, s, *rec);
           })});
  srv.add({.method = "GET",
           .pattern = "/geometrias/arquivos/{id}",
           .auth = "sessao",
           .access = http::on("geometria", "{id}", "leitura"),
           .tag = kTag,
           .summary = "Os arquivos e fotos da geometria {id}, do mais antigo ao mais novo (exige leitura).",
           .answer_schema = schemas::list_of("Arquivo"),
           .handler = service::scoped([](const Scope& s, Request&) {
             return Response::json(of_geometry(*s.db, s.grant().id));
           })});
  srv.add({.method = "GET",
           .pattern = "/templates",
           .auth = "sessao",
           .access = http::members("os modelos oferecidos a todo usuário do município"),
           .tag = kTag,
           .summary = "Os modelos de formulário e de relatório oferecidos a novos projetos, com seus campos (no "
                      "formato de POST /campos).",
           .answer_schema = schemas::list_of("Template"),
           .handler = service::scoped([](const Scope& s, Request&) { return Response::json(templates(*s.db)); })});
}

}  // namespace cadastre::platform
