// Files and media (/midia): base64 and multipart uploads into the storage backend
// (files.hpp), media records (midia.arquivo) per tenant (store.cpp), and the download of
// stored files by key.
//
// Access: the tenant routes are governed as the layer "midia": uploads and record writes
// need write, reads need read. POST /midia/storage-form is not given an auth scheme by the
// spec; it takes the main bearer and stores in the caller's own tenant. POST /midia/storage
// needs no credential: it writes to the separate area "_publico" with the smaller
// MediaOptions::public_max_bytes and creates no record. GET /midia/get needs no credential
// either: a key carries 256 random bits, and it serves only keys the backend issued
// (strict key syntax, path computed from the key, O_NOFOLLOW below the root); a tenant key
// is served only while its record exists, so deleting the record revokes the link.
//
// A file is written before its record and removed again when the record cannot be stored,
// and removed after the commit of a record's deletion.
#include <memory>

#include "cadastre/json.hpp"
#include "server/app.hpp"
#include "server/media/content.hpp"
#include "server/media/files.hpp"
#include "server/media/input.hpp"
#include "file_store/keys.hpp"
#include "server/media/store.hpp"

namespace cadastre::server {
namespace {

using http::Request;
using http::Response;
using media::Files;
using service::Scope;

// Stores the file, then its record; the file goes away again if the record fails.
std::string store_with_record(const Files& files, const Scope& s, media::UploadInput in) {
  auto f = files.put(s.tenant.slug, std::move(in.nome), in.extensao, in.bytes,
                     files.options().max_bytes);
  try {
    return media::create_record(*s.db, s.user, f, in.columns);
  } catch (...) {
    files.remove(f.key);
    throw;
  }
}

// The name and type a key is served with; 404 for a tenant key without its record.
// The key is the credential of GET /midia/get: its area names the tenant whose record it needs.
media::Served served(const service::Tenancy& tenants, const std::string& key) {
  auto k = cadastre::media::parse_key(key).value();
  if (k.area == cadastre::media::kPublicArea) return {key, media::content_type_of(k.extension)};
  auto tenant = tenants.active(k.area);
  store::Pool* pool = tenant ? &tenants.pool(*tenant) : nullptr;
  auto out = pool ? media::served_file(*pool, key) : std::nullopt;
  if (!out) throw Error(errc::not_found, "arquivo não encontrado", "file_url");
  return *out;
}

// filename (ASCII fallback) and filename* (RFC 5987) of Content-Disposition.
std::string disposition(std::string_view type, const std::string& nome) {
  bool inline_type =
      type.substr(0, 6) == "image/" || type.substr(0, 6) == "video/" || type == "application/pdf";
  std::string ascii;
  for (unsigned char c : nome)
    ascii += c >= 0x20 && c < 0x7f && c != '"' && c != '\\' ? static_cast<char>(c) : '_';
  return std::string(inline_type ? "inline" : "attachment") + "; filename=\"" + ascii +
         "\"; filename*=UTF-8''" + http::percent_encode(nome);
}

Response upload(const Files& files, const Scope& s, Request& req, bool record_fields) {
  auto in = media::parse_upload(req.body, files.options().max_bytes, record_fields);
  return Response::json(store_with_record(files, s, std::move(in)), 201);
}

Response upload_form(const Files& files, const Scope& s, Request& req) {
  auto in = media::parse_multipart(req);
  return Response::json(store_with_record(files, s, std::move(in)), 201);
}

Response upload_public(const Files& files, Request& req) {
  const std::size_t limit = files.options().public_max_bytes;
  auto in = media::parse_upload(req.body, limit, false);
  auto f =
      files.put(cadastre::media::kPublicArea, std::move(in.nome), in.extensao, in.bytes, limit);
  JsonWriter w;
  w.begin_object().key("chave").value(f.key).key("link").value(cadastre::media::link(f.key));
  w.key("nome")
      .value(f.nome)
      .key("extensao")
      .value(f.extensao)
      .key("content_type")
      .value(f.content_type);
  w.key("tamanho")
      .value(static_cast<std::int64_t>(f.tamanho))
      .key("sha256")
      .value(f.sha256)
      .end_object();
  return Response::json(std::move(w).str(), 201);
}

Response read(const Scope& s, Request& req) {
  std::string id = media::parse_record_id(req);
  return Response::json(media::read_record(*s.db, id));
}

Response update(const Scope& s, Request& req) {
  std::string id = media::parse_record_id(req);
  auto changes = media::parse_changes(req.body);
  return Response::json(media::update_record(*s.db, s.user, id, changes));
}

Response remove(const Files& files, const Scope& s, Request& req) {
  std::string id = media::parse_record_id(req);
  auto removed = media::delete_record(*s.db, s.user, id);
  files.remove(removed.key);  // after the commit: a failed delete keeps its file
  JsonWriter w;
  w.begin_object()
      .key("mensagem")
      .value("arquivo " + id + " excluído")
      .key("arquivo")
      .raw(removed.record);
  w.end_object();
  return Response::json(std::move(w).str());
}

Response download(const Files& files, const service::Tenancy& tenants, Request& req) {
  std::string key = media::parse_file_key(req);
  media::Served how = served(tenants, key);
  auto content = files.read(key);
  if (!content) throw Error(errc::not_found, "arquivo não encontrado", "file_url");
  Response r = Response::text(std::move(*content), how.content_type);
  r.headers.set("Content-Disposition", disposition(how.content_type, how.nome));
  r.headers.set("X-Content-Type-Options", "nosniff");
  r.headers.set("Cache-Control", "private, no-cache");
  return r;
}

}  // namespace

void add_media_routes(App& app) {
  auto& srv = app.server();
  auto files = std::make_shared<const Files>(app.options().media);
  const std::string tag = "Mídia";
  const auto& o = app.options().media;
  std::string extensions;
  for (const auto& e : o.extensions) extensions += (extensions.empty() ? "" : ", ") + e;
  const std::string checks = " Limite de " + std::to_string(o.max_bytes) +
                             " bytes (413 acima); extensões aceitas: " + extensions +
                             " (outra → 415); o conteúdo deve corresponder à extensão (415).";
  const std::string audited = " Grava auditoria (midia.arquivo).";
  const std::string upload_body =
      "{\"arquivo\": \"<base64>\", \"nome\": \"fachada.png\", \"extensao\": \".png\"}";
  srv.add(
      {.method = "POST",
       .pattern = "/midia/{municipio}/storage",
       .auth = "bearer",
       .access = http::writes("midia"),
       .tag = tag,
       .summary =
           "Envia um arquivo em base64 e cria seu registro: responde 201 com o registro e o link "
           "/midia/get?file_url=<chave>." +
           checks + audited,
       .body = {.description = upload_body},
       .handler = service::scoped(
           [files](const Scope& s, Request& r) { return upload(*files, s, r, false); })});
  srv.add({.method = "POST",
           .pattern = "/midia/storage",
           .auth = "none",
           .tag = tag,
           .summary = "Envio sem credencial (ex.: fotos do cidadão): mesmo corpo, limite menor (" +
                      std::to_string(o.public_max_bytes) +
                      " bytes), área própria (_publico), sem registro. Responde 201 com chave, "
                      "link, tamanho e "
                      "sha256.",
           // Its limit in base64 (4 characters per 3 bytes) plus room for the JSON around it,
           // so a larger upload is refused from its Content-Length, before it is read.
           .body = {.description = upload_body, .max_bytes = (o.public_max_bytes + 2) / 3 * 4 + (64u << 10)},
           .handler = [files](Request& r) { return upload_public(*files, r); }});
  srv.add(
      {.method = "POST",
       .pattern = "/midia/{municipio}/arquivos",
       .auth = "bearer",
       .access = http::writes("midia"),
       .tag = tag,
       .summary =
           "Cria um registro de mídia com seu arquivo (base64) e os dados do registro: descricao, "
           "lote_id, imobiliario_id, bucket. Lote ou imóvel inexistente → 400. Responde 201." +
           checks + audited,
       .body = {.description =
                    "{\"arquivo\": \"<base64>\", \"nome\": \"...\", \"extensao\": \".jpg\", "
                    "\"descricao\"?: \"...\", \"lote_id\"?: int, \"imobiliario_id\"?: int, "
                    "\"bucket\"?: \"...\"}"},
       .handler = service::scoped(
           [files](const Scope& s, Request& r) { return upload(*files, s, r, true); })});
  srv.add({.method = "GET",
           .pattern = "/midia/{municipio}/arquivos/{id}",
           .auth = "bearer",
           .access = http::reads("midia"),
           .tag = tag,
           .summary = "O registro de mídia {id} com o link do arquivo. Inexistente (ou de outro "
                      "município) → 404.",
           .handler = service::scoped(&read)});
  srv.add(
      {.method = "PUT",
       .pattern = "/midia/{municipio}/arquivos/{id}",
       .auth = "bearer",
       .access = http::writes("midia"),
       .tag = tag,
       .summary = "Altera nome, descricao, lote_id, imobiliario_id ou bucket do registro {id}; "
                  "outros campos "
                  "→ 400 (o arquivo não muda). Inexistente → 404." +
                  audited,
       .body = {.description = "{\"descricao\"?: \"...\", \"nome\"?: \"...\", \"lote_id\"?: int, "
                               "\"imobiliario_id\"?: int, \"bucket\"?: \"...\"}"},
       .handler = service::scoped(&update)});
  srv.add({.method = "DELETE",
           .pattern = "/midia/{municipio}/arquivos/{id}",
           .auth = "bearer",
           .access = http::writes("midia"),
           .tag = tag,
           .summary = "Exclui o registro {id} e seu arquivo (o link deixa de funcionar). Foto de "
                      "vistoria → 409. "
                      "Inexistente → 404." +
                      audited,
           .handler = service::scoped(
               [files](const Scope& s, Request& r) { return remove(*files, s, r); })});
  srv.add(
      {.method = "POST",
       .pattern = "/midia/storage-form",
       .auth = "bearer",
       .access = http::writes("midia"),
       .tag = tag,
       .summary =
           "Envio multipart/form-data: parte 'file' (o nome do arquivo dá a extensão) e parte "
           "opcional "
           "'bucket'. A especificação não diz a credencial: exige o bearer principal e grava no "
           "município do usuário, criando o registro. Responde 201 como POST "
           "/midia/{municipio}/storage." +
           checks + audited,
       .body = {.description = "multipart/form-data: file (arquivo), bucket (texto, opcional)",
                .content_type = "multipart/form-data"},
       .handler = service::scoped(
           [files](const Scope& s, Request& r) { return upload_form(*files, s, r); })});
  srv.add(
      {.method = "GET",
       .pattern = "/midia/get",
       .auth = "none",
       .tag = tag,
       .summary =
           "Baixa um arquivo pela chave emitida no envio (sem credencial: a chave tem 256 bits "
           "aleatórios). Serve só chaves do armazenamento, nunca caminhos: chave malformada → 400, "
           "inexistente ou registro excluído → 404. Responde com Content-Type, Content-Disposition "
           "e "
           "X-Content-Type-Options: nosniff.",
       .params = {{"file_url", "query", "string", true,
                   "chave do arquivo (o link devolvido no envio)"}},
       .answers = "application/octet-stream",
       .handler = [files, &tenants = app.tenancy()](Request& r) {
         return download(*files, tenants, r);
       }});
}

}  // namespace cadastre::server
