#include "server/media/input.hpp"

#include <simdjson.h>

#include <cctype>

#include "core/json_in.hpp"
#include "server/media/content.hpp"
#include "file_store/keys.hpp"
#include "store/crypto.hpp"

namespace cadastre::server::media {
namespace {

using simdjson::dom::element;

std::string text(element e, const std::string& field) {
  if (!e.is_string())
    throw Error(errc::invalid_argument, "o campo '" + field + "' deve ser texto", field);
  return std::string(std::string_view(e.get_string().value()));
}

store::Value optional_text(element e, const std::string& field, std::size_t max) {
  if (e.is_null()) return std::nullopt;
  std::string v = text(e, field);
  if (v.size() > max)
    throw Error(errc::invalid_argument,
                "o campo '" + field + "' excede " + std::to_string(max) + " bytes", field);
  return v;
}

store::Value optional_id(element e, const std::string& field) {
  if (e.is_null()) return std::nullopt;
  std::int64_t v = 0;
  if (e.get_int64().get(v) || v < 1 || v > 2147483647)
    throw Error(errc::invalid_argument, "o campo '" + field + "' deve ser um id inteiro positivo",
                field);
  return std::to_string(v);
}

// A bucket is a label of the record (e.g. "fachadas"), not a place on disk.
store::Value bucket_value(store::Value v) {
  if (!v) return v;
  bool ok = !v->empty() && v->size() <= 63 && std::isalnum(static_cast<unsigned char>((*v)[0]));
  for (char c : *v)
    ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-');
  if (!ok)
    throw Error(errc::invalid_argument,
                "bucket inválido: use até 63 letras, dígitos, '.', '_' ou '-'", "bucket");
  return v;
}

// The record fields shared by the upload with record and the changes; false when `k` is none.
bool record_field(const std::string& k, element v, std::vector<Column>& out) {
  if (k == "descricao")
    out.push_back({k, optional_text(v, k, 4000), ""});
  else if (k == "lote_id" || k == "imobiliario_id")
    out.push_back({k, optional_id(v, k), "integer"});
  else if (k == "bucket")
    out.push_back({k, bucket_value(optional_text(v, k, 63)), ""});
  else
    return false;
  return true;
}

std::string decode(std::string_view encoded, std::size_t limit) {
  if (encoded.substr(0, 5) == "data:") {
    auto comma = encoded.find(";base64,");
    if (comma == std::string_view::npos)
      throw Error(errc::invalid_argument, "arquivo em data URL precisa de ';base64,'", "arquivo");
    encoded.remove_prefix(comma + 8);
  }
  std::size_t chars = 0;
  for (char c : encoded) chars += c != '\n' && c != '\r' && c != ' ';
  // Every 4 base64 characters carry 3 bytes: refuse before spending memory on decoding.
  if (chars / 4 * 3 > limit + 3)
    throw Error(errc::payload_too_large,
                "arquivo excede o limite de " + std::to_string(limit) + " bytes (" +
                    std::to_string(chars) + " caracteres base64)",
                "arquivo");
  std::string bytes = store::base64_decode(encoded);
  if (bytes.empty()) throw Error(errc::invalid_argument, "arquivo vazio", "arquivo");
  return bytes;
}

}  // namespace

UploadInput parse_upload(std::string_view body, std::size_t limit, bool with_record_fields) {
  simdjson::dom::parser p;
  auto obj = jsonin::as_object(jsonin::parse(p, body), "corpo");
  UploadInput in;
  bool has_file = false, has_name = false, has_ext = false;
  for (auto [key, v] : obj) {
    std::string k(key);
    if (k == "arquivo") {
      if (!v.is_string())
        throw Error(errc::invalid_argument, "o campo 'arquivo' deve ser texto base64", k);
      in.bytes = decode(std::string_view(v.get_string().value()), limit);
      has_file = true;
    } else if (k == "nome") {
      in.nome = clean_name(text(v, k), k);
      has_name = true;
    } else if (k == "extensao") {
      in.extensao = normalize_extension(text(v, k), k);
      has_ext = true;
    } else if (!with_record_fields || !record_field(k, v, in.columns)) {
      throw Error(errc::unknown_field,
                  "campo desconhecido: '" + k + "' (use arquivo, nome, extensao" +
                      (with_record_fields ? ", descricao, lote_id, imobiliario_id, bucket)" : ")"),
                  k);
    }
  }
  if (!has_file)
    throw Error(errc::missing_field, "informe o conteúdo em base64 (arquivo)", "arquivo");
  if (!has_name) throw Error(errc::missing_field, "informe o nome do arquivo (nome)", "nome");
  if (!has_ext)
    throw Error(errc::missing_field, "informe a extensão com o ponto inicial (extensao, ex.: .png)",
                "extensao");
  return in;
}

UploadInput parse_multipart(const http::Request& req) {
  UploadInput in;
  const http::FilePart* file = nullptr;
  for (const auto& part : req.files) {
    if (part.name == "file" && !file) {
      file = &part;
    } else if (part.name == "bucket" && part.filename.empty()) {
      in.columns.push_back({"bucket", bucket_value(part.content), ""});
    } else {
      throw Error(errc::unknown_field,
                  "parte desconhecida ou repetida: '" + part.name + "' (use file e bucket)",
                  part.name);
    }
  }
  if (!file || file->filename.empty())
    throw Error(errc::missing_field,
                "envie multipart/form-data com a parte 'file' (com nome de arquivo)", "file");
  if (file->content.empty()) throw Error(errc::invalid_argument, "arquivo vazio", "file");
  in.nome = clean_name(file->filename, "file");
  auto dot = in.nome.rfind('.');
  if (dot == std::string::npos || dot == 0)
    throw Error(errc::unsupported_media_type,
                "o nome do arquivo precisa de extensão (ex.: foto.png)", "file");
  in.extensao = normalize_extension(std::string_view(in.nome).substr(dot), "file");
  in.bytes = file->content;
  return in;
}

std::string parse_record_id(const http::Request& req) {
  const std::string& id = req.param("id");
  if (id.empty() || id.size() > 18 || id.find_first_not_of("0123456789") != std::string::npos ||
      id[0] == '0')
    throw Error(errc::invalid_argument, "id de arquivo inválido: " + id, "id");
  return id;
}

std::string parse_file_key(const http::Request& req) {
  auto key = req.query_value("file_url");
  if (!key || key->empty())
    throw Error(errc::missing_field, "informe ?file_url=<chave do arquivo>", "file_url");
  if (!cadastre::media::parse_key(*key))
    throw Error(errc::invalid_argument,
                "file_url não é uma chave de arquivo emitida por este serviço", "file_url");
  return *key;
}

std::vector<Column> parse_changes(std::string_view body) {
  simdjson::dom::parser p;
  auto obj = jsonin::as_object(jsonin::parse(p, body), "corpo");
  std::vector<Column> out;
  for (auto [key, v] : obj) {
    std::string k(key);
    if (k == "nome") {
      out.push_back({k, clean_name(text(v, k), k), ""});
    } else if (!record_field(k, v, out)) {
      throw Error(
          errc::unknown_field,
          "campo não editável: '" + k + "' (use nome, descricao, lote_id, imobiliario_id, bucket)",
          k);
    }
  }
  if (out.empty())
    throw Error(errc::missing_field,
                "nada a alterar: informe nome, descricao, lote_id, imobiliario_id ou bucket");
  return out;
}

}  // namespace cadastre::server::media
