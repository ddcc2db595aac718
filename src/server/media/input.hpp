// Requests of /midia, read and checked before any SQL or disk access: the base64 upload
// (`arquivo`, `nome`, `extensao`, plus the record fields on POST .../arquivos), the record
// changes of PUT .../arquivos/{id}, the multipart upload (`file`, `bucket`), the record {id}
// and the file key of a download.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "http/http.hpp"
#include "store/sql.hpp"

namespace cadastre::server::media {

/// A column of midia.arquivo set by the client: name, value (nullopt = null), SQL cast.
struct Column {
  std::string name;
  store::Value value;
  std::string cast;
};

struct UploadInput {
  std::string nome, extensao, bytes;  ///< display name, normalized extension, decoded content
  std::vector<Column> columns;        ///< descricao, lote_id, imobiliario_id, bucket when given
};

/// The base64 upload. Its encoded length is checked against `limit` before decoding
/// (413); a "data:…;base64," prefix is accepted. `with_record_fields` admits descricao,
/// lote_id, imobiliario_id and bucket; any other member → 400 campo_desconhecido.
UploadInput parse_upload(std::string_view body, std::size_t limit, bool with_record_fields);

/// The multipart upload: part `file` (required, with a filename naming the extension) and
/// optional text part `bucket`; other parts → 400.
UploadInput parse_multipart(const http::Request& req);

/// The record {id} of the path: a positive integer (400 otherwise).
std::string parse_record_id(const http::Request& req);

/// The key of GET /midia/get?file_url=<key>: missing → 400, not a key this service issues → 400.
std::string parse_file_key(const http::Request& req);

/// The changes of PUT .../arquivos/{id}: nome, descricao, lote_id, imobiliario_id, bucket.
/// Anything else (chave, sha256, tamanho...) → 400; no change at all → 400.
std::vector<Column> parse_changes(std::string_view body);

}  // namespace cadastre::server::media
