// Files and media (/midia): base64 and multipart uploads into the storage backend
// (server/media/store.hpp), media records (midia.arquivo) per tenant, and the download of
// stored files by key.
//
// Access: the tenant routes are governed as the layer "midia" (rule "midia", else the
// user's "*"): uploads and record writes need write, reads need read. POST
// /midia/storage-form is not given an auth scheme by the spec; it takes the main bearer
// and stores in the caller's own tenant. POST /midia/storage needs no credential: it
// writes to the separate area "_publico" with the smaller MediaOptions::public_max_bytes
// and creates no record. GET /midia/get needs no credential either: a key carries 256
// random bits, and it serves only keys the store issued (strict key syntax, path computed
// from the key, O_NOFOLLOW below the root); a tenant key is served only while its record
// exists, so deleting the record revokes the link.
//
// Input is checked first (400), then the permission (403), then storage and records.
//
// Every upload and record change is one transaction with its audit row (tabela
// "midia.arquivo"); a file is written before its record and removed again when the record
// cannot be stored, and removed after the commit of a record's deletion.
#include <soci/soci.h>

#include <cctype>
#include <memory>

#include "cadastre/json.hpp"
#include "server/app.hpp"
#include "server/media/content.hpp"
#include "server/media/input.hpp"
#include "server/media/layout.hpp"
#include "server/media/store.hpp"
#include "store/audit.hpp"
#include "store/sql.hpp"

namespace cadastre::server {
namespace {

using http::Request;
using http::Response;
using media::Store;

constexpr const char* kLayer = "midia";
constexpr const char* kTable = "midia.arquivo";
// The record as the API answers it: every column plus the download link.
constexpr const char* kRecordJson =
    "(to_jsonb(a) || jsonb_build_object('link', '/midia/get?file_url=' || a.chave))::text";

const Context& allowed(App& app, const Request& req, bool write) {
  const Context& ctx = context(req);
  if (!store::layer_allowed(app.identity().permissions(ctx.user.user_id), kLayer, write,
                            ctx.user.admin))
    throw Error(errc::forbidden, std::string("sem permissão de ") +
                                     (write ? "escrita" : "leitura") +
                                     " nos arquivos de mídia (camada 'midia')");
  return ctx;
}

std::string path_id(const Request& req) {
  const std::string& id = req.param("id");
  if (id.empty() || id.size() > 18 || id.find_first_not_of("0123456789") != std::string::npos ||
      id[0] == '0')
    throw Error(errc::invalid_argument, "id de arquivo inválido: " + id, "id");
  return id;
}

void check_references(soci::session& s, const std::vector<media::Column>& columns) {
  for (const auto& c : columns) {
    if ((c.name != "lote_id" && c.name != "imobiliario_id") || !c.value) continue;
    store::Sql sql(c.name == "lote_id" ? "select 1 from cadastro.lote where id = "
                                       : "select 1 from cadastro.imobiliario where id = ");
    sql.bind(c.value, "integer");
    if (store::fetch(s, sql).empty())
      throw Error(
          errc::invalid_argument,
          (c.name == "lote_id" ? "lote " : "imóvel ") + *c.value + " não existe no cadastro",
          c.name);
  }
}

// Stores the file, then its record; the file goes away again if the record fails.
Response store_with_record(const Store& files, const Context& ctx, media::UploadInput in) {
  auto f = files.put(ctx.tenant.slug, std::move(in.nome), in.extensao, in.bytes,
                     files.options().max_bytes);
  std::string answer;
  try {
    store::Sql sql(
        "insert into midia.arquivo as a (chave, nome, extensao, content_type, tamanho, sha256, "
        "criado_por");
    for (const auto& c : in.columns) sql << ", " << c.name;
    sql << ") values (";
    for (const std::string& v : {f.key, f.nome, f.extensao, f.content_type}) sql.bind(v) << ", ";
    sql.bind(std::to_string(f.tamanho), "bigint") << ", ";
    sql.bind(f.sha256) << ", ";
    sql.bind(ctx.user.email);
    for (const auto& c : in.columns) {
      sql << ", ";
      sql.bind(c.value, c.cast);
    }
    sql << ") returning a.id::text, " << kRecordJson;
    ctx.db->run([&](soci::session& s) {
      store::in_transaction(s, [&] {
        check_references(s, in.columns);
        auto row = store::fetch(s, sql).at(0);
        answer = row.at(1).value();
        store::record_audit(s, kTable, row.at(0).value(), store::Operation::insert, ctx.user,
                            std::nullopt, answer);
      });
    });
  } catch (...) {
    files.remove(f.key);
    throw;
  }
  return Response::json(std::move(answer), 201);
}

Response upload(App& app, const Store& files, Request& req, bool record_fields) {
  auto in = media::parse_upload(req.body, files.options().max_bytes, record_fields);
  return store_with_record(files, allowed(app, req, true), std::move(in));
}

Response upload_form(App& app, const Store& files, Request& req) {
  auto in = media::parse_multipart(req);
  return store_with_record(files, allowed(app, req, true), std::move(in));
}

Response upload_public(const Store& files, Request& req) {
  auto in = media::parse_upload(req.body, files.options().public_max_bytes, false);
  auto f = files.put(cadastre::media::kPublicArea, std::move(in.nome), in.extensao, in.bytes,
                     files.options().public_max_bytes);
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

Response read(App& app, Request& req) {
  std::string id = path_id(req);
  const Context& ctx = allowed(app, req, false);
  store::Sql sql("select ");
  sql << kRecordJson << " from midia.arquivo a where a.id = ";
  sql.bind(id, "bigint");
  auto row = ctx.db->with([&](soci::session& s) { return store::fetch_value(s, sql); });
  if (!row) throw Error(errc::not_found, "arquivo " + id + " não encontrado", "id");
  return Response::json(std::move(*row));
}

Response update(App& app, Request& req) {
  std::string id = path_id(req);
  auto changes = media::parse_changes(req.body);
  const Context& ctx = allowed(app, req, true);
  store::Sql lock("select ");
  lock << kRecordJson << " from midia.arquivo a where a.id = ";
  lock.bind(id, "bigint") << " for update";
  store::Sql sql("update midia.arquivo a set ");
  for (std::size_t i = 0; i < changes.size(); ++i) {
    sql << (i ? ", " : "") << changes[i].name << " = ";
    sql.bind(changes[i].value, changes[i].cast);
  }
  sql << " where a.id = ";
  sql.bind(id, "bigint") << " returning " << kRecordJson;
  std::string answer;
  ctx.db->run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      auto before = store::fetch_value(s, lock);
      if (!before) throw Error(errc::not_found, "arquivo " + id + " não encontrado", "id");
      check_references(s, changes);
      answer = store::fetch_value(s, sql).value();
      store::record_audit(s, kTable, id, store::Operation::update, ctx.user, before, answer);
    });
  });
  return Response::json(std::move(answer));
}

Response remove(App& app, const Store& files, Request& req) {
  std::string id = path_id(req);
  const Context& ctx = allowed(app, req, true);
  store::Sql users(
      "select string_agg(agendamento_id::text, ', ' order by agendamento_id) from "
      "atendimento.vistoria "
      "where ");
  users.bind(id, "bigint") << " = any(fotos)";
  store::Sql sql("delete from midia.arquivo a where a.id = ");
  sql.bind(id, "bigint") << " returning a.chave, " << kRecordJson;
  store::Row row;
  ctx.db->run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      auto rows = store::fetch(s, sql);
      if (rows.empty()) throw Error(errc::not_found, "arquivo " + id + " não encontrado", "id");
      if (auto inspections = store::fetch_value(s, users))
        throw Error(errc::conflict,
                    "o arquivo " + id + " é foto das vistorias " + *inspections +
                        "; retire-o delas antes de excluir",
                    "id");
      row = rows[0];
      store::record_audit(s, kTable, id, store::Operation::remove, ctx.user, row.at(1),
                          std::nullopt);
    });
  });
  files.remove(row.at(0).value());  // after the commit: a failed delete keeps its file
  JsonWriter w;
  w.begin_object()
      .key("mensagem")
      .value("arquivo " + id + " excluído")
      .key("arquivo")
      .raw(row.at(1).value());
  w.end_object();
  return Response::json(std::move(w).str());
}

// filename (ASCII fallback) and filename* (RFC 5987) of Content-Disposition.
std::string disposition(std::string_view type, const std::string& nome) {
  bool inline_type =
      type.substr(0, 6) == "image/" || type.substr(0, 6) == "video/" || type == "application/pdf";
  std::string ascii, encoded;
  static constexpr char hex[] = "0123456789ABCDEF";
  for (unsigned char c : nome) {
    ascii += c >= 0x20 && c < 0x7f && c != '"' && c != '\\' ? static_cast<char>(c) : '_';
    if (std::isalnum(c) || c == '.' || c == '-' || c == '_' || c == '~') {
      encoded += static_cast<char>(c);
    } else {
      encoded += '%';
      encoded += hex[c >> 4];
      encoded += hex[c & 15];
    }
  }
  return std::string(inline_type ? "inline" : "attachment") + "; filename=\"" + ascii +
         "\"; filename*=UTF-8''" + encoded;
}

Response download(App& app, const Store& files, Request& req) {
  auto key = req.query_value("file_url");
  if (!key || key->empty())
    throw Error(errc::missing_field, "informe ?file_url=<chave do arquivo>", "file_url");
  auto k = cadastre::media::parse_key(*key);
  if (!k)
    throw Error(errc::invalid_argument,
                "file_url não é uma chave de arquivo emitida por este serviço", "file_url");
  const std::string not_found = "arquivo não encontrado";
  std::string nome = *key, type = media::content_type_of(k->extension);
  if (k->area != cadastre::media::kPublicArea) {
    auto tenant = app.identity().tenant(k->area);
    if (!tenant || !tenant->ativo) throw Error(errc::not_found, not_found, "file_url");
    store::Sql sql("select nome, extensao, content_type from midia.arquivo where chave = ");
    sql.bind(*key);
    auto rows =
        app.tenants().pool(*tenant).with([&](soci::session& s) { return store::fetch(s, sql); });
    if (rows.empty()) throw Error(errc::not_found, not_found, "file_url");
    nome = rows[0].at(0).value();
    const std::string& ext = rows[0].at(1).value();
    if (nome.size() < ext.size() || nome.compare(nome.size() - ext.size(), ext.size(), ext) != 0)
      nome += ext;
    type = rows[0].at(2).value();
  }
  auto content = files.read(*key);
  if (!content) throw Error(errc::not_found, not_found, "file_url");
  Response r = Response::text(std::move(*content), type);
  r.headers.set("Content-Disposition", disposition(type, nome));
  r.headers.set("X-Content-Type-Options", "nosniff");
  r.headers.set("Cache-Control", "private, no-cache");
  return r;
}

}  // namespace

void add_media_routes(App& app) {
  auto& srv = app.server();
  auto files = std::make_shared<const Store>(app.options().media);
  const std::string tag = "Mídia";
  const auto& o = app.options().media;
  std::string extensions;
  for (const auto& e : o.extensions) extensions += (extensions.empty() ? "" : ", ") + e;
  const std::string checks = " Limite de " + std::to_string(o.max_bytes) +
                             " bytes (413 acima); extensões aceitas: " + extensions +
                             " (outra → 415); o conteúdo deve corresponder à extensão (415).";
  const std::string write = " Requer escrita na camada 'midia'; grava auditoria (midia.arquivo).";
  const std::string read_access = " Requer leitura na camada 'midia'.";
  const std::string upload_body =
      "{\"arquivo\": \"<base64>\", \"nome\": \"fachada.png\", \"extensao\": \".png\"}";
  srv.add(
      {.method = "POST",
       .pattern = "/midia/{municipio}/storage",
       .auth = "bearer",
       .tag = tag,
       .summary =
           "Envia um arquivo em base64 e cria seu registro: responde 201 com o registro e o link "
           "/midia/get?file_url=<chave>." +
           checks + write,
       .body = {.description = upload_body},
       .handler = [&app, files](Request& r) { return upload(app, *files, r, false); }});
  srv.add({.method = "POST",
           .pattern = "/midia/storage",
           .auth = "none",
           .tag = tag,
           .summary = "Envio sem credencial (ex.: fotos do cidadão): mesmo corpo, limite menor (" +
                      std::to_string(o.public_max_bytes) +
                      " bytes), área própria (_publico), sem registro. Responde 201 com chave, "
                      "link, tamanho e sha256.",
           .body = {.description = upload_body},
           .handler = [files](Request& r) { return upload_public(*files, r); }});
  srv.add({.method = "POST",
           .pattern = "/midia/{municipio}/arquivos",
           .auth = "bearer",
           .tag = tag,
           .summary = "Cria um registro de mídia com seu arquivo (base64) e os dados do registro: "
                      "descricao, lote_id, "
                      "imobiliario_id, bucket. Lote ou imóvel inexistente → 400. Responde 201." +
                      checks + write,
           .body = {.description =
                        "{\"arquivo\": \"<base64>\", \"nome\": \"...\", \"extensao\": \".jpg\", "
                        "\"descricao\"?: \"...\", "
                        "\"lote_id\"?: int, \"imobiliario_id\"?: int, \"bucket\"?: \"...\"}"},
           .handler = [&app, files](Request& r) { return upload(app, *files, r, true); }});
  srv.add({.method = "GET",
           .pattern = "/midia/{municipio}/arquivos/{id}",
           .auth = "bearer",
           .tag = tag,
           .summary = "O registro de mídia {id} com o link do arquivo. Inexistente (ou de outro "
                      "município) → 404." +
                      read_access,
           .handler = [&app](Request& r) { return read(app, r); }});
  srv.add({.method = "PUT",
           .pattern = "/midia/{municipio}/arquivos/{id}",
           .auth = "bearer",
           .tag = tag,
           .summary = "Altera nome, descricao, lote_id, imobiliario_id ou bucket do registro {id}; "
                      "outros campos → 400 (o "
                      "arquivo não muda). Inexistente → 404." +
                      write,
           .body = {.description = "{\"descricao\"?: \"...\", \"nome\"?: \"...\", \"lote_id\"?: "
                                   "int, \"imobiliario_id\"?: int, \"bucket\"?: \"...\"}"},
           .handler = [&app](Request& r) { return update(app, r); }});
  srv.add({.method = "DELETE",
           .pattern = "/midia/{municipio}/arquivos/{id}",
           .auth = "bearer",
           .tag = tag,
           .summary = "Exclui o registro {id} e seu arquivo (o link deixa de funcionar). Foto de "
                      "vistoria → 409. Inexistente → "
                      "404." +
                      write,
           .handler = [&app, files](Request& r) { return remove(app, *files, r); }});
  srv.add({.method = "POST",
           .pattern = "/midia/storage-form",
           .auth = "bearer",
           .tag = tag,
           .summary = "Envio multipart/form-data: parte 'file' (o nome do arquivo dá a extensão) e "
                      "parte opcional 'bucket'. A "
                      "especificação não diz a credencial: exige o bearer principal e grava no "
                      "município do usuário, criando o "
                      "registro. Responde 201 como POST /midia/{municipio}/storage." +
                      checks + write,
           .body = {.description = "multipart/form-data: file (arquivo), bucket (texto, opcional)",
                    .content_type = "multipart/form-data"},
           .handler = [&app, files](Request& r) { return upload_form(app, *files, r); }});
  srv.add({.method = "GET",
           .pattern = "/midia/get",
           .auth = "none",
           .tag = tag,
           .summary =
               "Baixa um arquivo pela chave emitida no envio (sem credencial: a chave tem 256 bits "
               "aleatórios). Serve só "
               "chaves do armazenamento, nunca caminhos: chave malformada → 400, inexistente ou "
               "registro excluído → 404. "
               "Responde com Content-Type, Content-Disposition e X-Content-Type-Options: nosniff.",
           .params = {{"file_url", "query", "string", true,
                       "chave do arquivo (o link devolvido no envio)"}},
           .answers = "application/octet-stream",
           .handler = [&app, files](Request& r) { return download(app, *files, r); }});
}

}  // namespace cadastre::server
