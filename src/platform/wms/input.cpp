#include "platform/wms/input.hpp"

#include <simdjson.h>

#include <climits>
#include <cmath>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"
#include "platform/wms/client.hpp"

namespace cadastre::platform::wms {
namespace {

std::string name_field(simdjson::dom::element v, const std::string& field, std::size_t max = 200) {
  std::string s = jsonin::to_string(v, field);
  if (s.find_first_not_of(" \t\r\n") == std::string::npos)
    throw Error(errc::invalid_argument, field + " não pode ser vazio", field);
  if (s.size() > max) throw Error(errc::invalid_argument, field + " longo demais (máximo " + std::to_string(max) + ")", field);
  return s;
}

// A WMS name (layer, style, CRS, format): printable ASCII without the separators of the
// GetMap query.
std::string token(simdjson::dom::element v, const std::string& field) {
  std::string s = jsonin::to_string(v, field);
  if (s.empty() || s.size() > 200) throw Error(errc::invalid_argument, field + " deve ter de 1 a 200 caracteres", field);
  for (unsigned char c : s)
    if (c <= 0x20 || c >= 0x7f || c == ',' || c == '&' || c == '#')
      throw Error(errc::invalid_argument, field + " com caractere não permitido", field);
  return s;
}

int side(simdjson::dom::object o, const char* field) {
  std::int64_t v = jsonin::integer(o, field);
  if (v < 1 || v > kMaxSide)
    throw Error(errc::invalid_argument, std::string(field) + " deve ser de 1 a " + std::to_string(kMaxSide), field);
  return static_cast<int>(v);
}

}  // namespace

SourceFields parse_source(std::string_view body, bool creating) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  SourceFields f;
  for (auto [key, value] : root) {
    std::string k(key);
    if (k == "nome") {
      f.nome = name_field(value, k);
    } else if (k == "url") {
      f.url = jsonin::to_string(value, k);
      check_url(*f.url);
    } else if (k == "descricao") {
      if (value.is_null()) f.descricao = std::optional<std::string>();
      else {
        std::string d = jsonin::to_string(value, k);
        if (d.size() > 4000) throw Error(errc::invalid_argument, "descricao longa demais (máximo 4000)", k);
        f.descricao = d;
      }
    } else if (k == "recarregar" && !creating) {
      bool b = false;
      if (value.get(b)) throw Error(errc::invalid_argument, "recarregar deve ser true ou false", k);
      f.recarregar = b;
    } else {
      throw body::unknown_member(k);
    }
  }
  if (creating && !f.nome) throw Error(errc::missing_field, "informe nome", "nome");
  if (creating && !f.url) throw Error(errc::missing_field, "informe url", "url");
  return f;
}

MapParams parse_map(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  MapParams m;
  bool has_bbox = false;
  for (auto [key, value] : root) {
    std::string k(key);
    if (k == "bbox") {
      auto a = jsonin::as_array(value, k);
      std::size_t i = 0;
      for (auto e : a) {
        if (i >= 4) break;
        m.bbox[i++] = jsonin::to_number(e, k);
      }
      if (i != 4 || a.size() != 4) throw Error(errc::invalid_argument, "bbox deve ter 4 números: minx, miny, maxx, maxy", k);
      for (double d : m.bbox)
        if (!std::isfinite(d)) throw Error(errc::invalid_argument, "bbox com número inválido", k);
      if (!(m.bbox[0] < m.bbox[2]) || !(m.bbox[1] < m.bbox[3]))
        throw Error(errc::invalid_argument, "bbox: minx < maxx e miny < maxy", k);
      has_bbox = true;
    } else if (k == "width" || k == "height") {
      (k == "width" ? m.width : m.height) = side(root, k.c_str());
    } else if (k == "camadas") {
      for (auto e : jsonin::as_array(value, k)) {
        m.camadas.push_back(token(e, k));
        if (m.camadas.size() > 50) throw Error(errc::invalid_argument, "camadas: no máximo 50", k);
      }
    } else if (k == "formato") {
      m.formato = token(value, k);
    } else if (k == "crs") {
      m.crs = token(value, k);
    } else if (k == "estilos") {
      std::string s;
      for (auto e : jsonin::as_array(value, k)) s += (s.empty() ? "" : ",") + token(e, k);
      m.estilos = s;
    } else if (k == "transparente") {
      bool b = true;
      if (value.get(b)) throw Error(errc::invalid_argument, "transparente deve ser true ou false", k);
      m.transparente = b;
    } else {
      throw body::unknown_member(k);
    }
  }
  if (!has_bbox) throw Error(errc::missing_field, "informe bbox", "bbox");
  if (m.camadas.empty()) throw Error(errc::missing_field, "informe camadas (ao menos uma)", "camadas");
  if (m.formato.rfind("image/", 0) != 0) throw Error(errc::invalid_argument, "formato deve ser image/...", "formato");
  return m;
}

WmsImport parse_import(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  WmsImport w;
  for (auto [key, value] : root) {
    std::string k(key);
    if (k == "idProjeto") {
      w.projeto = jsonin::integer(root, k);
      if (w.projeto < 1) throw Error(errc::invalid_argument, "idProjeto deve ser um id positivo", k);
    } else if (k == "url") {
      w.url = jsonin::to_string(value, k);
      check_url(w.url);
    } else if (k == "camada") {
      w.camada = token(value, k);
    } else if (k == "nome" || k == "nomeCamada") {
      w.nome = name_field(value, k);
    } else if (k == "formato") {
      w.formato = token(value, k);
    } else {
      throw body::unknown_member(k);
    }
  }
  if (!w.projeto) throw Error(errc::missing_field, "informe idProjeto", "idProjeto");
  if (w.url.empty()) throw Error(errc::missing_field, "informe url", "url");
  if (w.camada.empty()) throw Error(errc::missing_field, "informe camada (o nome da camada no WMS)", "camada");
  return w;
}

std::string parse_url_query(const http::Request& req) {
  auto v = req.query_value("url");
  if (!v || v->empty()) throw Error(errc::missing_field, "informe url", "url");
  check_url(*v);
  return *v;
}


std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  // A WMS name (token above): printable ASCII but for space, ',', '&' and '#'.
  const std::string wms_name = R"({"type":"string","pattern":"^[\\x21\\x22\\x24\\x25\\x27-\\x2b\\x2d-\\x7e]{1,200}$"})";
  const std::string name = R"({"type":"string","minLength":1,"maxLength":200,"pattern":"[^ \\t\\r\\n]"})";
  const std::string url = R"({"type":"string","minLength":1,"maxLength":2000,"pattern":"^[Hh][Tt][Tt][Pp][Ss]?://","description":"http(s), na lista de permitidos"})";
  const std::string description = R"({"type":"string","maxLength":4000,"nullable":true,"description":"null a apaga"})";
  const std::string side = R"({"type":"integer","minimum":1,"maximum":)" + std::to_string(kMaxSide) + R"(,"description":"256 quando omitido"})";
  return {
      {"ImportacaoWms",
       object({{"idProjeto", R"({"type":"integer","format":"int64","minimum":1})"}, {"url", url}, {"camada", wms_name},
               {"nome", name}, {"nomeCamada", R"({"allOf":[)" + name + R"(],"description":"o mesmo que nome"})"},
               {"formato", wms_name}},
              {"idProjeto", "url", "camada"}, true),
       R"~({"idProjeto":12,"url":"https://geoservicos.campinas.sp.gov.br/geoserver/wms?SERVICE=WMS&REQUEST=GetCapabilities","camada":"cadastro:quadras","nome":"Quadras (GeoServer)","formato":"image/png"})~",
       [](std::string_view body) { parse_import(body); }},
      {"FonteWmsNova", object({{"nome", name}, {"url", url}, {"descricao", description}}, {"nome", "url"}, true),
       R"({"nome":"GeoServer da prefeitura","url":"https://geoservicos.campinas.sp.gov.br/geoserver/wms","descricao":"Quadras, lotes e logradouros oficiais"})",
       [](std::string_view body) { parse_source(body, true); }},
      {"FonteWmsAlteracao",
       object({{"nome", name}, {"url", url}, {"descricao", description},
               {"recarregar", R"~({"type":"boolean","description":"lê as capacidades de novo (também quando url muda)"})~"}},
              {}, true),
       R"({"nome":"GeoServer municipal","descricao":null,"recarregar":true})",
       [](std::string_view body) { parse_source(body, false); }},
      {"ImagemWms",
       object({{"bbox", R"~({"type":"array","items":{"type":"number"},"minItems":4,"maxItems":4,"description":"minx, miny, maxx, maxy (minx < maxx, miny < maxy)"})~"},
               {"camadas", R"({"type":"array","items":)" + wms_name + R"(,"minItems":1,"maxItems":50})"},
               {"width", side}, {"height", side},
               {"formato", R"({"allOf":[)" + wms_name + R"(,{"pattern":"^image/"}],"description":"image/png quando omitido"})"},
               {"crs", R"({"allOf":[)" + wms_name + R"(],"description":"EPSG:4674 quando omitido"})"},
               {"estilos", R"({"type":"array","items":)" + wms_name + "}"},
               {"transparente", R"({"type":"boolean","description":"true quando omitido"})"}},
              {"bbox", "camadas"}, true),
       R"({"bbox":[-47.08,-22.92,-47.04,-22.89],"camadas":["cadastro:quadras","cadastro:lotes"],"width":512,"height":512,"formato":"image/png","crs":"EPSG:4674","estilos":["quadras_contorno","lotes_contorno"],"transparente":true})",
       [](std::string_view body) { parse_map(body); }},
  };
}

}  // namespace cadastre::platform::wms
