#include "platform/geometries/input.hpp"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"

namespace cadastre::platform::geometries {
namespace {

constexpr std::size_t kMaxIds = 1000;
constexpr std::size_t kMaxOffline = 500;

using body::optional_id;
using body::positive_id;
using body::required_id;

// "wkt" (text) or "geojson" (an object, or its text): exactly one.
Shape shape_of(jsonin::object o, const std::string& wkt_key = "wkt", bool geojson_allowed = true) {
  Shape s;
  if (auto w = jsonin::find(o, wkt_key)) s.wkt = jsonin::to_string(*w, wkt_key);
  if (geojson_allowed) {
    if (auto g = jsonin::find(o, "geojson")) {
      if (s.wkt) throw Error(errc::invalid_argument, "informe wkt ou geojson, não ambos", "geojson");
      std::string_view text;
      s.geojson = g->get(text) ? simdjson::minify(*g) : std::string(text);
    }
  }
  if (!s.wkt && !s.geojson)
    throw Error(errc::missing_field, geojson_allowed ? "informe a geometria em wkt ou geojson" : "informe " + wkt_key,
                wkt_key);
  if (s.wkt && s.wkt->find_first_not_of(" \t\r\n") == std::string::npos)
    throw Error(errc::invalid_argument, wkt_key + " vazio", wkt_key);
  if (auto srid = jsonin::find(o, "srid")) {
    std::int64_t v = 0;
    if (srid->get(v) || v < 1 || v > 999999) throw Error(errc::invalid_argument, "srid deve ser um código EPSG", "srid");
    s.srid = v;
  }
  return s;
}

// "valores": read by the values area's own parser of POST /v2/valores (wrapped in the body
// it reads), so the list obeys the same rules and messages there and here.
std::vector<values::Entry> values_of(simdjson::dom::element list) {
  if (!list.is_array()) throw Error(errc::invalid_argument, "valores deve ser uma lista de {idCampo, valor}", "valores");
  return values::parse_batch(R"({"idGeometria":1,"valores":)" + simdjson::minify(list) + "}").valores;
}

std::int64_t version_of(std::string_view text, std::string_view field) {
  return query::parse_integer(text, field, 1, INT32_MAX);
}

// If-Match: "3" or 3 (an ETag-like version, quotes and W/ ignored).
std::optional<std::int64_t> if_match(const http::Request& req) {
  const std::string* h = req.header("If-Match");
  if (!h) return std::nullopt;
  std::string_view v = *h;
  if (v.starts_with("W/")) v.remove_prefix(2);
  if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
  return version_of(v, "If-Match");
}

std::vector<std::int64_t> ids_of(simdjson::dom::element e, const std::string& field) {
  auto list = jsonin::as_array(e, field);
  std::vector<std::int64_t> out;
  std::set<std::int64_t> seen;
  for (auto item : list) {
    std::int64_t id = positive_id(item, field);
    if (!seen.insert(id).second) throw Error(errc::invalid_argument, field + ": id repetido " + std::to_string(id), field);
    out.push_back(id);
  }
  if (out.empty() || out.size() > kMaxIds)
    throw Error(errc::invalid_argument, field + " deve ter de 1 a " + std::to_string(kMaxIds) + " ids", field);
  return out;
}

std::map<std::int64_t, std::int64_t> versions_of(jsonin::object o, const std::vector<std::int64_t>& ids) {
  std::map<std::int64_t, std::int64_t> out;
  auto e = jsonin::find(o, "versoes");
  if (!e) return out;
  for (auto [key, value] : jsonin::as_object(*e, "versoes")) {
    std::int64_t id = query::parse_integer(key, "versoes", 1, INT64_MAX);
    if (std::find(ids.begin(), ids.end(), id) == ids.end())
      throw Error(errc::invalid_argument, "versoes: " + std::string(key) + " não está em ids", "versoes");
    std::int64_t v = 0;
    if (value.get(v) || v < 1) throw Error(errc::invalid_argument, "versoes: versão deve ser inteiro positivo", "versoes");
    out[id] = v;
  }
  return out;
}

double coordinate(const http::Request& req, const char* name, double min, double max, std::optional<double> fallback) {
  auto v = req.query_value(name);
  if (!v) {
    if (fallback) return *fallback;
    throw Error(errc::missing_field, std::string("informe ") + name, name);
  }
  double d = 0;
  auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), d);
  if (ec != std::errc() || end != v->data() + v->size() || !std::isfinite(d) || d < min || d > max)
    throw Error(errc::invalid_argument,
                std::string(name) + " deve ser um número entre " + std::to_string(min) + " e " + std::to_string(max), name);
  return d;
}

}  // namespace

NewGeometry parse_new(std::string_view body) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  body::only_members(o, {"idCamada", "wkt", "geojson", "srid", "vinculoId", "valores"});
  NewGeometry g;
  g.camada = required_id(o, "idCamada");
  g.shape = shape_of(o);
  g.vinculo = optional_id(o, "vinculoId");
  if (auto list = jsonin::find(o, "valores")) g.valores = values_of(*list);
  return g;
}

Change parse_change(const http::Request& req) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, req.body), "corpo");
  body::only_members(o, {"wkt", "geojson", "srid", "versao"});
  Change c;
  c.shape = shape_of(o);
  if (auto v = jsonin::find(o, "versao")) c.versao = positive_id(*v, "versao");
  else if (auto h = if_match(req)) c.versao = *h;
  else throw Error(errc::missing_field, "informe versao (ou o cabeçalho If-Match) com a versão alterada", "versao");
  return c;
}

std::int64_t parse_version(const http::Request& req) {
  if (auto v = req.query_value("versao")) return version_of(*v, "versao");
  if (auto h = if_match(req)) return *h;
  throw Error(errc::missing_field, "informe versao (ou o cabeçalho If-Match) com a versão excluída", "versao");
}

Union parse_union(std::string_view body) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  body::only_members(o, {"ids", "manter", "versoes"});
  Union u;
  auto ids = jsonin::find(o, "ids");
  if (!ids) throw Error(errc::missing_field, "informe ids", "ids");
  u.ids = ids_of(*ids, "ids");
  if (u.ids.size() < 2) throw Error(errc::invalid_argument, "informe ao menos duas geometrias para unir", "ids");
  u.manter = required_id(o, "manter");
  if (std::find(u.ids.begin(), u.ids.end(), u.manter) == u.ids.end())
    throw Error(errc::invalid_argument, "manter deve ser um dos ids", "manter");
  u.versoes = versions_of(o, u.ids);
  // A union rewrites one geometry and deletes the others: each must be the version the
  // client saw, or an edit made meanwhile would be lost without a word.
  for (std::int64_t id : u.ids)
    if (!u.versoes.count(id))
      throw Error(errc::missing_field, "informe em versoes a versão lida de cada geometria (falta " + std::to_string(id) + ")",
                  "versoes");
  return u;
}

Union parse_delete_many(std::string_view body) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  body::only_members(o, {"ids", "versoes"});
  Union u;
  auto ids = jsonin::find(o, "ids");
  if (!ids) throw Error(errc::missing_field, "informe ids", "ids");
  u.ids = ids_of(*ids, "ids");
  u.versoes = versions_of(o, u.ids);
  return u;
}

Split parse_split(std::string_view body) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  body::only_members(o, {"linha", "srid", "versao"});
  Split s;
  s.linha = shape_of(o, "linha", false);
  s.versao = required_id(o, "versao");
  return s;
}

std::vector<std::int64_t> parse_id_list(std::string_view text, std::string_view field) {
  std::vector<std::int64_t> out;
  std::set<std::int64_t> seen;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    std::string_view part = text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    std::int64_t id = query::parse_integer(part, field, 1, INT64_MAX);
    if (seen.insert(id).second) out.push_back(id);
    if (out.size() > kMaxIds)
      throw Error(errc::invalid_argument, std::string(field) + ": no máximo " + std::to_string(kMaxIds) + " ids",
                  std::string(field));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

Around parse_around(const http::Request& req, bool with_radius) {
  Around a;
  a.x = coordinate(req, "x", -180, 180, std::nullopt);
  a.y = coordinate(req, "y", -90, 90, std::nullopt);
  if (with_radius) {
    a.r = coordinate(req, "r", 0, 5000, 50.0);
    if (a.r <= 0) throw Error(errc::invalid_argument, "r deve ser maior que zero (metros, até 5000)", "r");
  }
  return a;
}

std::optional<Box> parse_bbox(const http::Request& req) {
  auto v = req.query_value("bbox");
  if (!v) return std::nullopt;
  double n[4];
  std::string_view rest = *v;
  for (int i = 0; i < 4; ++i) {
    std::size_t comma = rest.find(',');
    if ((i < 3) == (comma == std::string_view::npos))
      throw Error(errc::invalid_argument, "bbox deve ser minLon,minLat,maxLon,maxLat", "bbox");
    std::string_view part = rest.substr(0, comma);
    auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), n[i]);
    if (ec != std::errc() || end != part.data() + part.size() || !std::isfinite(n[i]))
      throw Error(errc::invalid_argument, "bbox deve ser minLon,minLat,maxLon,maxLat", "bbox");
    if (comma != std::string_view::npos) rest.remove_prefix(comma + 1);
  }
  if (n[0] > n[2] || n[1] > n[3] || n[0] < -180 || n[2] > 180 || n[1] < -90 || n[3] > 90)
    throw Error(errc::invalid_argument, "bbox fora de longitude/latitude ou invertido", "bbox");
  return Box{n[0], n[1], n[2], n[3]};
}

Intersect parse_intersect(const http::Request& req) {
  Intersect i;
  auto ids = req.query_value("ids");
  if (!ids) throw Error(errc::missing_field, "informe ids", "ids");
  i.ids = parse_id_list(*ids, "ids");
  auto wkt = req.query_value("wkt");
  if (!wkt || wkt->empty()) throw Error(errc::missing_field, "informe wkt", "wkt");
  i.wkt = *wkt;
  return i;
}

std::vector<std::int64_t> parse_samples(std::string_view body) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  body::only_members(o, {"ids"});
  auto ids = jsonin::find(o, "ids");
  if (!ids) throw Error(errc::missing_field, "informe ids", "ids");
  return ids_of(*ids, "ids");
}

CopyValues parse_copy_values(std::string_view body) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  body::only_members(o, {"origem", "campos"});
  CopyValues c;
  c.origem = required_id(o, "origem");
  if (auto list = jsonin::find(o, "campos")) {
    c.campos.emplace();
    for (auto item : jsonin::as_array(*list, "campos")) c.campos->push_back(jsonin::to_string(item, "campos"));
    if (c.campos->empty() || c.campos->size() > kMaxIds)
      throw Error(errc::invalid_argument, "campos deve ter de 1 a 1000 chaves", "campos");
  }
  return c;
}

std::int64_t parse_thematic(std::string_view body) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  body::only_members(o, {"idCampo"});
  return required_id(o, "idCampo");
}

std::vector<OfflineItem> parse_offline(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::parse(parser, body);
  std::vector<OfflineItem> out;
  std::set<std::string> seen;
  for (auto e : jsonin::as_array(root, "corpo")) {
    std::string where = "item " + std::to_string(out.size() + 1) + ": ";
    auto o = jsonin::as_object(e, "item");
    body::only_members(o, {"idCliente", "operacao", "idCamada", "id", "versaoBase", "wkt", "geojson", "srid", "valores"});
    OfflineItem item;
    item.cliente = jsonin::string(o, "idCliente");
    if (item.cliente.empty() || item.cliente.size() > 200)
      throw Error(errc::invalid_argument, where + "idCliente deve ter de 1 a 200 caracteres", "idCliente");
    if (!seen.insert(item.cliente).second)
      throw Error(errc::invalid_argument, where + "idCliente repetido no lote: " + item.cliente, "idCliente");
    item.operacao = jsonin::string(o, "operacao");
    if (item.operacao == "criar") {
      item.camada = required_id(o, "idCamada");
      item.shape = shape_of(o);
      if (auto list = jsonin::find(o, "valores")) {
        try {
          item.valores = values_of(*list);
        } catch (const Error& bad) {
          throw Error(bad.code(), where + bad.what(), bad.field());
        }
      }
    } else if (item.operacao == "alterar" || item.operacao == "excluir") {
      item.id = required_id(o, "id");
      item.versao_base = required_id(o, "versaoBase");
      // Values of an existing geometry are its own writes (PUT /valores, POST /v2/valores).
      if (jsonin::find(o, "valores"))
        throw Error(errc::invalid_argument, where + "valores só em itens criar", "valores");
      if (item.operacao == "alterar") item.shape = shape_of(o);
    } else {
      throw Error(errc::invalid_argument, where + "operacao deve ser criar, alterar ou excluir", "operacao");
    }
    out.push_back(std::move(item));
  }
  if (out.empty() || out.size() > kMaxOffline)
    throw Error(errc::invalid_argument, "o lote deve ter de 1 a 500 itens", "corpo");
  return out;
}

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  const std::string id = R"({"type":"integer","format":"int64","minimum":1})";
  const std::string version = R"({"type":"integer","format":"int64","minimum":1,"description":"a versão lida"})";
  const std::string wkt = R"({"type":"string","pattern":"[^ \\t\\r\\n]"})";
  const std::string geojson = R"({"oneOf":[{"type":"object"},{"type":"string"}],"description":"GeoJSON: o objeto ou seu texto"})";
  const std::string srid =
      R"({"type":"integer","minimum":1,"maximum":999999,"description":"código EPSG; sem ele, SIRGAS 2000 lon/lat, 4674"})";
  // A geometry goes as wkt or as geojson, never both.
  const std::string one_shape = R"("oneOf":[{"required":["wkt"]},{"required":["geojson"]}])";
  auto with = [](std::string schema, const std::string& more) { return schema.insert(schema.size() - 1, "," + more); };
  auto id_list = [](int min) {
    return R"({"type":"array","items":{"type":"integer","format":"int64","minimum":1},"minItems":)" + std::to_string(min) +
           R"(,"maxItems":1000,"uniqueItems":true})";
  };
  const std::string versions =
      R"({"type":"object","additionalProperties":{"type":"integer","format":"int64","minimum":1},"description":"a versão lida de cada id: {\"id\": versão}"})";
  // "valores" written with a new geometry (POST /geometrias, offline criar): the list
  // POST /v2/valores takes (ValoresLote).
  const std::string new_geometry_values =
      R"({"type":"array","minItems":1,"maxItems":500,"items":)" +
      object({{"idCampo", id}, {"valor", kAnyValue}}, {"idCampo", "valor"}, true) + "}";
  // What each operation of an offline item needs: criar a layer and a shape; alterar the
  // geometry, the version it was based on and a shape; excluir the geometry and its version.
  const std::string offline_operations =
      R"("oneOf":[{"properties":{"operacao":{"enum":["criar"]}},"required":["idCamada"],)" + one_shape +
      R"(},{"properties":{"operacao":{"enum":["alterar"]}},"required":["id","versaoBase"],"not":{"required":["valores"]},)" +
      one_shape +
      R"(},{"properties":{"operacao":{"enum":["excluir"]}},"required":["id","versaoBase"],"not":{"required":["valores"]}}])";
  return {
      {"CopiaDeValoresPorLocal",
       object({{"origem", R"({"type":"integer","minimum":1,"description":"a camada de onde os valores vêm"})"},
               {"campos", R"({"type":"array","minItems":1,"maxItems":1000,"items":{"type":"string"},"description":"chaves dos campos; todos quando ausente"})"}},
              {"origem"}, true),
       R"({"origem":14,"campos":["uso","padrao_construtivo"]})", [](std::string_view body) { parse_copy_values(body); }},
      {"IndiceMapaTematico", object({{"idCampo", R"({"type":"integer","minimum":1})"}}, {"idCampo"}, true),
       R"({"idCampo":31})", [](std::string_view body) { parse_thematic(body); }},
      {"GeometriaNova",
       with(object({{"idCamada", id}, {"wkt", wkt}, {"geojson", geojson}, {"srid", srid}, {"vinculoId", id},
                    {"valores", new_geometry_values}},
                   {"idCamada"}, true),
            one_shape),
       R"j({"idCamada":42,"wkt":"POLYGON((-47.0621 -22.9071,-47.0612 -22.9071,-47.0612 -22.9063,-47.0621 -22.9063,-47.0621 -22.9071))",)j"
       R"("srid":4674,"vinculoId":7,"valores":[{"idCampo":101,"valor":"Lote 14"},{"idCampo":102,"valor":360.5}]})",
       [](std::string_view body) { parse_new(body); }},
      {"GeometriaAlteracao",
       with(object({{"wkt", wkt}, {"geojson", geojson}, {"srid", srid},
                    {"versao", R"({"type":"integer","format":"int64","minimum":1,"description":"a versão lida, ou o cabeçalho If-Match"})"}},
                   {}, true),
            one_shape),
       R"({"geojson":{"type":"Point","coordinates":[-47.0616,-22.9064]},"srid":4674,"versao":3})",
       [](std::string_view body) { parse_change(common::json_request(body)); }},
      {"GeometriasIds", object({{"ids", id_list(1)}, {"versoes", versions}}, {"ids"}, true),
       R"({"ids":[501,502,507],"versoes":{"501":2,"507":1}})", [](std::string_view body) { parse_delete_many(body); }},
      {"GeometriasAmostras", object({{"ids", id_list(1)}}, {"ids"}, true), R"({"ids":[88,91,1204]})",
       [](std::string_view body) { parse_samples(body); }},
      {"GeometriasUniao", object({{"ids", id_list(2)}, {"manter", R"({"type":"integer","format":"int64","minimum":1,"description":"um dos ids"})"},
                                  {"versoes", versions}},
                                 {"ids", "manter", "versoes"}, true),
       R"({"ids":[501,502],"manter":501,"versoes":{"501":4,"502":1}})", [](std::string_view body) { parse_union(body); }},
      {"GeometriaDivisao", object({{"linha", wkt}, {"srid", srid}, {"versao", version}}, {"linha", "versao"}, true),
       R"j({"linha":"LINESTRING(-47.0625 -22.9067,-47.0608 -22.9067)","srid":4674,"versao":5})j",
       [](std::string_view body) { parse_split(body); }},
      // One item of the list POST /geometrias/offline takes (1 to 500, idCliente unique).
      {"GeometriaOfflineItem",
       with(object({{"idCliente", R"({"type":"string","minLength":1,"maxLength":200})"},
                    {"operacao", enumeration({"criar", "alterar", "excluir"})}, {"idCamada", id}, {"id", id},
                    {"versaoBase", id}, {"wkt", wkt}, {"geojson", geojson}, {"srid", srid},
                    {"valores", new_geometry_values}},
                   {"idCliente", "operacao"}, true),
            offline_operations),
       R"({"idCliente":"tablet-3/2025-06-02T10:15:00Z/1","operacao":"criar","idCamada":42,)"
       R"j("wkt":"POINT(-47.0616 -22.9064)","srid":4674,"valores":[{"idCampo":101,"valor":"Poste 12"}]})j",
       [](std::string_view body) { parse_offline("[" + std::string(body) + "]"); }},
  };
}

}  // namespace cadastre::platform::geometries
