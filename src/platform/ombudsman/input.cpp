#include "platform/ombudsman/input.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <regex>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"
#include "platform/files/sniff.hpp"
#include "platform/rules.hpp"
#include "store/crypto.hpp"

namespace cadastre::platform::ombudsman {
namespace {

const std::regex kSlug("[a-z][a-z0-9_]{1,62}");
const std::regex kProtocol("OUV-[0-9]{4}-[0-9]{6,12}");
const std::regex kCode("[A-Za-z0-9_.-]{1,64}");
const std::regex kPhone("[0-9 ()+.-]{8,40}");

std::string bounded(std::string text, std::size_t max, const std::string& field, bool allow_empty = false) {
  // Trim blanks: a description of spaces is no description.
  auto first = text.find_first_not_of(" \t\r\n");
  text = first == std::string::npos ? "" : text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
  if (!allow_empty && text.empty()) throw Error(errc::invalid_argument, field + " não pode ser vazio", field);
  if (text.size() > max)
    throw Error(errc::invalid_argument, field + " longo demais (até " + std::to_string(max) + " caracteres)", field);
  return text;
}

double in_range(double v, bool parsed, const std::string& field, double limit) {
  if (!parsed || !std::isfinite(v) || std::abs(v) > limit)
    throw Error(errc::invalid_argument, field + " deve ser um número entre -" + std::to_string(int(limit)) + " e " +
                                            std::to_string(int(limit)), field);
  return v;
}

double coordinate(std::string_view text, const std::string& field, double limit) {
  std::string t(text);
  char* end = nullptr;
  double v = std::strtod(t.c_str(), &end);
  return in_range(v, !t.empty() && end == t.c_str() + t.size(), field, limit);
}

// One field of the report, from a JSON value or a multipart part; `value` is its text.
void set_field(Report& r, const std::string& k, const std::string& value) {
  if (k == "descricao") r.descricao = bounded(value, 4000, k);
  else if (k == "categoria") r.categoria = bounded(value, 40, k);
  else if (k == "longitude") r.longitude = coordinate(value, k, 180);
  else if (k == "latitude") r.latitude = coordinate(value, k, 90);
  else if (k == "nome") r.nome = bounded(value, 200, k);
  else if (k == "email") r.email = normalize_email(value, "email");
  else if (k == "telefone") {
    r.telefone = bounded(value, 40, k);
    if (!std::regex_match(*r.telefone, kPhone))
      throw Error(errc::invalid_argument, "telefone: use dígitos, espaços, ( ) + - (8 a 40)", k);
  } else {
    throw body::unknown_member(k);
  }
}

void set_photo(Report& r, std::string bytes) {
  if (bytes.empty()) throw Error(errc::invalid_argument, "foto vazia", "foto");
  if (bytes.size() > kMaxPhotoBytes)
    throw Error(errc::payload_too_large, "foto grande demais (até " + std::to_string(kMaxPhotoBytes) + " bytes)", "foto");
  r.foto_tipo = files::require_kind(bytes, true, "foto").media_type;  // the bytes decide, never the name
  r.foto = std::move(bytes);
}

void check_complete(const Report& r, bool has_lon, bool has_lat) {
  if (r.descricao.empty()) throw Error(errc::missing_field, "informe descricao", "descricao");
  if (r.categoria.empty()) throw Error(errc::missing_field, "informe categoria", "categoria");
  if (!has_lon) throw Error(errc::missing_field, "informe longitude", "longitude");
  if (!has_lat) throw Error(errc::missing_field, "informe latitude", "latitude");
}

Report from_json(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  // An unknown member is refused even when null (a known one that is null is absent).
  body::only_members(root, {"descricao", "categoria", "longitude", "latitude", "nome", "email", "telefone", "foto"});
  Report r;
  bool lon = false, lat = false;
  for (auto [key, value] : root) {
    std::string k(key);
    if (value.is_null()) continue;
    if (k == "foto") {
      std::string text = jsonin::to_string(value, k);
      if (text.size() > kMaxPhotoBytes / 3 * 4 + 8)
        throw Error(errc::payload_too_large, "foto grande demais (até " + std::to_string(kMaxPhotoBytes) + " bytes)", k);
      std::string bytes;
      try {
        bytes = store::base64_decode(text);
      } catch (const Error&) {
        throw Error(errc::invalid_argument, "foto: base64 inválido", k);
      }
      set_photo(r, std::move(bytes));
    } else if (k == "longitude" || k == "latitude") {
      bool is_lon = k == "longitude";
      double v = in_range(value.is_number() ? jsonin::to_number(value, k) : 0, value.is_number(), k, is_lon ? 180 : 90);
      (is_lon ? r.longitude : r.latitude) = v;
      (is_lon ? lon : lat) = true;
    } else {
      set_field(r, k, jsonin::to_string(value, k));
    }
  }
  check_complete(r, lon, lat);
  return r;
}

Report from_multipart(const http::Request& req) {
  Report r;
  bool lon = false, lat = false;
  std::vector<std::string> seen;
  for (const auto& part : req.files) {
    if (std::find(seen.begin(), seen.end(), part.name) != seen.end())
      throw Error(errc::invalid_argument, "parte repetida: " + part.name, part.name);
    seen.push_back(part.name);
    if (part.name == "foto") {
      // The name is not kept (the bytes decide the type), but a path in it is an attack.
      if (part.filename.find("..") != std::string::npos || part.filename.find_first_of("/\\") != std::string::npos)
        throw Error(errc::invalid_argument, "foto: nome de arquivo inválido", "foto");
      set_photo(r, part.content);
      continue;
    }
    if (!part.filename.empty()) throw Error(errc::invalid_argument, "somente a parte foto é um arquivo", part.name);
    set_field(r, part.name, part.content);
    if (part.name == "longitude") lon = true;
    if (part.name == "latitude") lat = true;
  }
  check_complete(r, lon, lat);
  return r;
}

}  // namespace

Report parse_report(const http::Request& req) {
  const std::string* type = req.header("Content-Type");
  if (type && http::lower_ascii(*type).rfind("multipart/form-data", 0) == 0) return from_multipart(req);
  return from_json(req.body);
}

FollowUp parse_follow_up(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  FollowUp f;
  for (auto [key, value] : root) {
    std::string k(key);
    if (k == "token") f.token = jsonin::to_string(value, k);
    else if (k == "mensagem") {
      if (!value.is_null()) f.mensagem = bounded(jsonin::to_string(value, k), 2000, k);
    } else {
      throw body::unknown_member(k);
    }
  }
  if (f.token.empty()) throw Error(errc::missing_field, "informe token (o de acompanhamento do protocolo)", "token");
  if (f.token.size() != 64 || f.token.find_first_not_of("0123456789abcdef") != std::string::npos)
    throw Error(errc::invalid_argument, "token inválido", "token");
  return f;
}

RequestKey parse_request_key(const std::string& text) {
  RequestKey key;
  if (!text.empty() && text.size() <= 18 && text.find_first_not_of("0123456789") == std::string::npos) {
    key.id = query::parse_integer(text, "id", 1, INT64_MAX);
  } else if (std::regex_match(text, kProtocol)) {
    key.protocolo = text;
  } else {
    throw Error(errc::invalid_argument, "id: informe o protocolo (OUV-aaaa-nnnnnn) ou o número do pedido", "id");
  }
  return key;
}

std::string city_param(const http::Request& req) {
  auto c = req.query_value("cidade");
  if (!c || c->empty()) throw Error(errc::missing_field, "informe cidade (o município, como em /ouv/cidades)", "cidade");
  if (!std::regex_match(*c, kSlug)) throw Error(errc::invalid_argument, "cidade inválida", "cidade");
  return *c;
}

ImportParams parse_import(const http::Request& req) {
  ImportParams p;
  auto codigo = req.query_value("codigo");
  if (!codigo || codigo->empty()) throw Error(errc::missing_field, "informe codigo (o código desta importação)", "codigo");
  if (!std::regex_match(*codigo, kCode))
    throw Error(errc::invalid_argument, "codigo: até 64 letras, dígitos, '.', '_' ou '-'", "codigo");
  p.codigo = *codigo;
  auto xdzs = req.query_value("xdzs");
  if (!xdzs || xdzs->empty())
    throw Error(errc::missing_field, "informe xdzs (os status a copiar, separados por vírgula, ou todos)", "xdzs");
  if (*xdzs == "todos") {
    p.statuses = kStatuses;
    return p;
  }
  for (std::size_t i = 0; i <= xdzs->size();) {
    std::size_t j = std::min(xdzs->find(',', i), xdzs->size());
    std::string s = xdzs->substr(i, j - i);
    if (std::find(kStatuses.begin(), kStatuses.end(), s) == kStatuses.end())
      throw Error(errc::invalid_argument, "xdzs: status desconhecido '" + s.substr(0, 40) +
                                              "' (aberto, em_analise, em_atendimento, concluido, recusado ou todos)",
                  "xdzs");
    if (std::find(p.statuses.begin(), p.statuses.end(), s) == p.statuses.end()) p.statuses.push_back(s);
    i = j + 1;
  }
  return p;
}

bool ombudsman_enabled(std::string_view config_json) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  simdjson::dom::array modules;
  simdjson::padded_string text(config_json);
  if (parser.parse(text).get(root) || root["modulos"].get(modules)) return false;
  for (auto m : modules) {
    std::string_view name;
    if (!m.get(name) && name == "ouvidoria") return true;
  }
  return false;
}

std::string parse_search(const http::Request& req) {
  auto q = req.query_value("q");
  if (!q) return "";
  if (q->size() > 200) throw Error(errc::invalid_argument, "q longo demais (até 200 caracteres)", "q");
  return *q;
}

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  // Texts are trimmed; one of blanks only is refused.
  auto words = [](int max, bool nullable) {
    return R"({"type":"string","minLength":1,"maxLength":)" + std::to_string(max) +
           R"(,"pattern":"[^ \\t\\r\\n]")" + (nullable ? R"(,"nullable":true})" : "}");
  };
  const std::string email = R"({"type":"string","format":"email","maxLength":254,"nullable":true})";
  return {
      // Also multipart/form-data with the same parts (the photo as the file part "foto").
      {"PedidoOuvidoriaNovo",
       object({{"descricao", words(4000, false)},
               {"categoria", words(40, false)},
               {"longitude", R"({"type":"number","minimum":-180,"maximum":180})"},
               {"latitude", R"({"type":"number","minimum":-90,"maximum":90})"},
               {"nome", words(200, true)},
               {"email", email},
               {"telefone", R"({"type":"string","pattern":"^[ \\t\\r\\n]*[0-9 ()+.-]{8,40}[ \\t\\r\\n]*$","nullable":true})"},
               {"foto", R"({"type":"string","format":"byte","nullable":true,"description":"JPEG ou PNG em base64, até 2 MiB"})"}},
              {"descricao", "categoria", "longitude", "latitude"}, true),
       R"({"descricao":"Buraco grande na pista em frente ao número 120","categoria":"buraco",)"
       R"("longitude":-47.0616,"latitude":-22.9064,"nome":"José da Silva","email":"jose.silva@example.com",)"
       R"("telefone":"(19) 99876-5432","foto":null})",
       [](std::string_view body) { parse_report(common::json_request(body)); }},
      {"PedidoInformacaoOuvidoria",
       object({{"token", R"({"type":"string","pattern":"^[0-9a-f]{64}$","description":"o de acompanhamento do protocolo"})"},
               {"mensagem", words(2000, true)}},
              {"token"}, true),
       R"({"token":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",)"
       R"("mensagem":"Gostaria de saber a previsão para o conserto."})",
       [](std::string_view body) { parse_follow_up(body); }},
  };
}

}  // namespace cadastre::platform::ombudsman
