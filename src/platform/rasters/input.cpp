#include "platform/rasters/input.hpp"

#include <simdjson.h>

#include <charconv>
#include <climits>
#include <cmath>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"

namespace cadastre::platform::rasters {
namespace {

std::string layer_name(const std::string& v, const std::string& field) {
  if (v.find_first_not_of(" \t\r\n") == std::string::npos)
    throw Error(errc::invalid_argument, field + " não pode ser vazio", field);
  if (v.size() > 200) throw Error(errc::invalid_argument, field + " longo demais (máximo 200)", field);
  for (unsigned char c : v)
    if (c < 0x20 || c == 0x7f) throw Error(errc::invalid_argument, field + " com caractere de controle", field);
  return v;
}

std::string required(const http::Request& req, const char* name) {
  auto v = req.query_value(name);
  if (!v || v->empty()) throw Error(errc::missing_field, std::string("informe ") + name, name);
  return *v;
}

double coordinate(const http::Request& req, const char* name, double limit) {
  std::string v = required(req, name);
  double d = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
  if (ec != std::errc() || end != v.data() + v.size() || !std::isfinite(d))
    throw Error(errc::invalid_argument, std::string(name) + " deve ser um número", name);
  if (d < -limit || d > limit)
    throw Error(errc::invalid_argument, std::string(name) + " fora de -" + std::to_string(int(limit)) + ".." +
                                            std::to_string(int(limit)) + " (graus, EPSG:4674)", name);
  return d;
}

bool hex(std::string_view s) {
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

}  // namespace

ImportQuery parse_import_query(const http::Request& req) {
  ImportQuery q;
  q.projeto = query::parse_integer(required(req, "idProjeto"), "idProjeto", 1, INT64_MAX);
  q.nome = layer_name(required(req, "nomeCamada"), "nomeCamada");
  if (auto c = req.query_value("codigo")) {
    if (c->empty() || c->size() > 100) throw Error(errc::invalid_argument, "codigo deve ter de 1 a 100 caracteres", "codigo");
    q.codigo = *c;
  }
  return q;
}

const http::FilePart& file_part(const http::Request& req) {
  for (const http::FilePart& p : req.files)
    if (p.name == "file") {
      if (p.content.empty()) throw Error(errc::invalid_argument, "o arquivo está vazio", "file");
      return p;
    }
  throw Error(errc::missing_field, "envie o GeoTIFF na parte file (multipart/form-data)", "file");
}

Signed parse_signed(const http::Request& req) {
  Signed s;
  s.municipio = required(req, "municipio");
  bool slug = s.municipio.size() <= 63 && s.municipio.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-") == std::string::npos;
  if (!slug) throw Error(errc::invalid_argument, "municipio inválido", "municipio");
  s.chave = required(req, "chave");
  if (s.chave.size() != 64 || !hex(s.chave)) throw Error(errc::invalid_argument, "chave inválida", "chave");
  s.assinatura = required(req, "assinatura");
  if (s.assinatura.size() != 64 || !hex(s.assinatura))
    throw Error(errc::invalid_argument, "assinatura inválida", "assinatura");
  s.expira = query::parse_integer(required(req, "expira"), "expira", 0, INT64_MAX);
  if (auto parte = req.query_value("parte"); parte && !parte->empty())
    s.parte = query::parse_integer(*parte, "parte", 1, kMaxParts);
  s.ultima = req.query_value("ultima").value_or("false") == "true";  // the route table checked true/false
  if (s.ultima && !s.parte) throw Error(errc::invalid_argument, "ultima só vale com parte", "ultima");
  return s;
}

Point parse_point(const http::Request& req) { return {coordinate(req, "x", 180), coordinate(req, "y", 90)}; }

JobChange parse_job_change(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  body::only_members(root, {"nomeCamada", "oculta", "cancelar"});
  JobChange c;
  for (auto [key, value] : root) {
    std::string k(key);
    if (k == "nomeCamada") {
      c.nome = layer_name(jsonin::to_string(value, k), k);
    } else if (k == "oculta") {
      bool b = false;
      if (value.get(b) || !b)
        throw Error(errc::invalid_argument, "oculta só aceita true (uma importação oculta não volta à lista)", k);
      c.ocultar = true;
    } else if (k == "cancelar") {
      bool b = false;
      if (value.get(b) || !b) throw Error(errc::invalid_argument, "cancelar só aceita true", k);
      c.cancelar = true;
    }
  }
  if (c.cancelar && (c.nome || c.ocultar))
    throw Error(errc::invalid_argument, "cancelar vai sozinho: renomeie ou oculte a importação noutro pedido", "cancelar");
  if (!c.nome && !c.ocultar && !c.cancelar)
    throw Error(errc::missing_field, "informe nomeCamada, oculta ou cancelar", "nomeCamada");
  return c;
}

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  // Renaming and hiding go together or alone (at least one); a cancellation goes alone.
  const std::string name = R"({"type":"string","minLength":1,"maxLength":200,"pattern":"[^ \\t\\r\\n]"})";
  const std::string only_true = R"({"type":"boolean","enum":[true]})";
  return {
      {"ImportacaoTiffAlteracao",
       R"({"oneOf":[{"type":"object","properties":{"nomeCamada":)" + name + R"(,"oculta":)" + only_true +
           R"(},"minProperties":1,"additionalProperties":false},)" + object({{"cancelar", only_true}}, {"cancelar"}, true) +
           "]}",
       R"({"nomeCamada":"Ortofoto 2024 - setor norte","oculta":true})",
       [](std::string_view body) { parse_job_change(body); }},
  };
}

}  // namespace cadastre::platform::rasters
