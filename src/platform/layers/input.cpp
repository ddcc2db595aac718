#include "platform/layers/input.hpp"

#include <simdjson.h>

#include <cmath>
#include <cstdlib>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "platform/body_fields.hpp"
#include "cadastre/palette.hpp"
#include "platform/common/json_schema.hpp"

namespace cadastre::platform::layers {
namespace {

constexpr std::size_t kMaxPropriedades = 64 * 1024, kMaxEstilo = 256 * 1024;

bool blank(const std::string& s) { return s.find_first_not_of(" \t\r\n") == std::string::npos; }

std::string text(jsonin::element v, const std::string& key, std::size_t max) {
  std::string s = jsonin::to_string(v, key);
  if (s.size() > max) throw Error(errc::invalid_argument, key + " deve ter até " + std::to_string(max) + " caracteres", key);
  return s;
}

std::string json_object(jsonin::element v, const std::string& key, std::size_t max) {
  jsonin::as_object(v, key);
  std::string s = simdjson::minify(v);
  if (s.size() > max)
    throw Error(errc::invalid_argument, key + " deve ter até " + std::to_string(max / 1024) + " KiB", key);
  return s;
}

std::int64_t integer_in(jsonin::object root, const std::string& key, std::int64_t min, std::int64_t max) {
  std::int64_t v = jsonin::integer(root, key);
  if (v < min || v > max)
    throw Error(errc::invalid_argument, key + " deve ser de " + std::to_string(min) + " a " + std::to_string(max), key);
  return v;
}

// The fields both bodies share; false when `k` is none of them.
bool common_field(jsonin::object root, const std::string& k, jsonin::element v, LayerFields& f) {
  if (k == "nome") {
    f.nome = text(v, k, 200);
    if (blank(*f.nome)) throw Error(errc::invalid_argument, "nome não pode ser vazio", "nome");
  } else if (k == "descricao") {
    f.descricao.emplace();  // null: no description
    if (!v.is_null()) f.descricao->emplace(text(v, k, 4000));
  } else if (k == "geometria") {
    f.geometria = jsonin::to_string(v, k);
    if (*f.geometria != "ponto" && *f.geometria != "linha" && *f.geometria != "poligono" && *f.geometria != "qualquer")
      throw Error(errc::invalid_argument, "geometria deve ser ponto, linha, poligono ou qualquer", "geometria");
  } else if (k == "privada") {
    f.privada = jsonin::opt_bool(root, k);
    if (!f.privada) throw Error(errc::invalid_argument, "privada deve ser true ou false", "privada");
  } else if (k == "moduloId") {
    f.modulo.emplace();  // null: no module
    if (!v.is_null()) f.modulo->emplace(integer_in(root, k, 1, INT32_MAX));
  } else if (k == "propriedades") {
    f.propriedades = json_object(v, k, kMaxPropriedades);
  } else if (k == "estilo") {
    f.estilo = json_object(v, k, kMaxEstilo);
  } else if (k == "ordem") {
    f.ordem = integer_in(root, k, INT32_MIN, INT32_MAX);
  } else {
    return false;
  }
  return true;
}

jsonin::object body_object(simdjson::dom::parser& parser, std::string_view body) {
  return jsonin::as_object(jsonin::parse(parser, body), "corpo");
}

double number_param(const http::Request& req, const char* name, double fallback) {
  auto v = req.query_value(name);
  if (!v) return fallback;
  char* end = nullptr;
  double d = std::strtod(v->c_str(), &end);
  if (v->empty() || *end || !std::isfinite(d))
    throw Error(errc::invalid_argument, std::string(name) + " deve ser um número", name);
  return d;
}

}  // namespace

LayerFields parse_new_layer(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = body_object(parser, body);
  LayerFields f;
  for (auto [key, value] : root) {
    std::string k(key);
    if (common_field(root, k, value, f)) continue;
    if (k == "idProjeto") {
      f.projeto = integer_in(root, k, 1, INT64_MAX);
    } else if (k == "tipo") {
      if (jsonin::to_string(value, k) != "vetor")
        throw Error(errc::invalid_argument,
                    "tipo: esta rota cria camadas vetoriais; camadas tiff, dxf e wms vêm das importações", "tipo");
    } else {
      throw body::unknown_member(k);
    }
  }
  if (!f.projeto) throw Error(errc::missing_field, "informe idProjeto", "idProjeto");
  if (!f.nome) throw Error(errc::missing_field, "informe nome", "nome");
  return f;
}

LayerFields parse_layer_change(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = body_object(parser, body);
  LayerFields f;
  bool any = false;
  for (auto [key, value] : root) {
    std::string k(key);
    any = true;
    if (common_field(root, k, value, f)) continue;
    if (k == "rotulo" || k == "categorias") {
      if (!value.is_null())
        throw Error(errc::invalid_argument,
                    k + " só aceita null aqui (remove); defina-o por /camadas/" +
                        (k == "rotulo" ? "rotular" : "categorizar"),
                    k);
      (k == "rotulo" ? f.clear_rotulo : f.clear_categorias) = true;
    } else if (k == "idProjeto" || k == "tipo") {
      throw Error(errc::invalid_argument, k + " de uma camada não muda", k);
    } else if (k == "ativo") {
      throw Error(errc::invalid_argument, "ativo muda por /camadas/ativar e /camadas/inativar", "ativo");
    } else {
      throw body::unknown_member(k);
    }
  }
  if (!any) throw Error(errc::missing_field, "informe ao menos um campo a alterar", "corpo");
  return f;
}

bool parse_private(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = body_object(parser, body);
  body::only_members(root, {"privada"});
  auto v = jsonin::opt_bool(root, "privada");
  if (!v) throw Error(errc::missing_field, "informe privada (true ou false)", "privada");
  return *v;
}

ListFilter parse_filter(const http::Request& req) {
  ListFilter f;
  if (auto v = req.query_value("idProjeto")) f.projeto = query::parse_integer(*v, "idProjeto", 1, INT64_MAX);
  if (auto v = req.query_value("moduloId")) f.modulo = query::parse_integer(*v, "moduloId", 1, INT32_MAX);
  if (auto v = req.query_value("id_camadas")) {
    std::string_view rest = *v;
    while (true) {
      std::size_t comma = rest.find(',');
      f.ids.push_back(query::parse_integer(rest.substr(0, comma), "id_camadas", 1, INT64_MAX));
      if (f.ids.size() > 1000) throw Error(errc::invalid_argument, "id_camadas: até 1000 ids", "id_camadas");
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  if (auto v = req.query_value("prop")) {
    query::check_identifier(*v, "prop");
    f.prop = *v;
  }
  if (auto v = req.query_value("valor")) {
    if (v->size() > 1000) throw Error(errc::invalid_argument, "valor deve ter até 1000 caracteres", "valor");
    f.valor = *v;
  }
  if (auto v = req.query_value("ativo")) f.inactive = *v == "false";
  if (auto v = req.query_value("nome")) {
    if (v->size() > 200) throw Error(errc::invalid_argument, "nome deve ter até 200 caracteres", "nome");
    f.nome = *v;
  }
  return f;
}

raster::Style parse_raster_style(const http::Request& req) {
  raster::Style st;
  auto bbox = req.query_value("bbox");
  if (!bbox) throw Error(errc::missing_field, "informe bbox=minx,miny,maxx,maxy (longitude e latitude)", "bbox");
  double c[4];
  std::size_t at = 0;
  for (int i = 0; i < 4; ++i) {
    std::size_t comma = bbox->find(',', at);
    if ((i < 3) != (comma != std::string::npos))
      throw Error(errc::invalid_argument, "bbox deve ter quatro números: minx,miny,maxx,maxy", "bbox");
    std::string part = bbox->substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    char* end = nullptr;
    c[i] = std::strtod(part.c_str(), &end);
    if (part.empty() || *end || !std::isfinite(c[i]))
      throw Error(errc::invalid_argument, "bbox deve ter quatro números: minx,miny,maxx,maxy", "bbox");
    at = comma + 1;
  }
  st.bbox = {c[0], c[1], c[2], c[3]};
  if (c[0] < -180 || c[2] > 180 || c[1] < -90 || c[3] > 90 || c[0] >= c[2] || c[1] >= c[3])
    throw Error(errc::invalid_argument,
                "bbox: longitudes de -180 a 180, latitudes de -90 a 90, e o mínimo menor que o máximo", "bbox");
  auto side = [&](const char* name) {
    auto v = req.query_value(name);
    return v ? static_cast<int>(query::parse_integer(*v, name, 1, kMaxRasterSide)) : 256;
  };
  st.width = side("width");
  st.height = side("height");
  if (auto v = req.query_value("banda")) st.band = static_cast<int>(query::parse_integer(*v, "banda", 1, 1000));
  if (auto v = req.query_value("ramp")) {
    if (!palette::known_ramp(*v)) throw Error(errc::invalid_argument, "ramp desconhecida: " + *v, "ramp");
    st.ramp = *v;
  }
  if (auto v = req.query_value("classes")) st.classes = static_cast<int>(query::parse_integer(*v, "classes", 2, 32));
  st.opacity = number_param(req, "opacity", 1.0);
  if (st.opacity < 0 || st.opacity > 1) throw Error(errc::invalid_argument, "opacity deve ser de 0 a 1", "opacity");
  if (req.query_value("min")) st.min = number_param(req, "min", 0);
  if (req.query_value("max")) st.max = number_param(req, "max", 0);
  if (st.min && st.max && *st.min >= *st.max)
    throw Error(errc::invalid_argument, "min deve ser menor que max", "min");
  return st;
}

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  // The members both bodies share.
  Props layer = {
      {"nome", R"({"type":"string","minLength":1,"maxLength":200,"pattern":"[^ \\t\\r\\n]"})"},
      {"descricao", R"({"type":"string","maxLength":4000,"nullable":true})"},
      {"geometria", enumeration({"ponto", "linha", "poligono", "qualquer"})},
      {"privada", kBool},
      {"moduloId", R"({"type":"integer","format":"int32","minimum":1,"maximum":2147483647,"nullable":true})"},
      {"propriedades", R"({"type":"object","description":"até 64 KiB"})"},
      {"estilo", R"({"type":"object","description":"até 256 KiB"})"},
      {"ordem", R"({"type":"integer","format":"int32","minimum":-2147483648,"maximum":2147483647})"}};
  Props created = layer, changed = layer;
  created.insert(created.begin(), {"idProjeto", R"({"type":"integer","format":"int64","minimum":1})"});
  created.emplace_back("tipo", enumeration({"vetor"}));
  changed.emplace_back("rotulo", R"({"nullable":true,"enum":[null],"description":"null remove os rótulos"})");
  changed.emplace_back("categorias", R"({"nullable":true,"enum":[null],"description":"null remove as classes"})");
  std::string change = object(changed, {}, true);
  change.insert(change.size() - 1, R"(,"minProperties":1)");
  return {
      {"CamadaNova", object(created, {"idProjeto", "nome"}, true),
       R"({"idProjeto":12,"nome":"Lotes urbanos","descricao":"Lotes do loteamento Jardim Europa","tipo":"vetor",)"
       R"("geometria":"poligono","privada":false,"moduloId":3,"propriedades":{"fonte":"levantamento 2024"},)"
       R"("estilo":{"cor":"#3388ff","opacidade":0.6},"ordem":2})",
       [](std::string_view body) { parse_new_layer(body); }},
      {"CamadaAlteracao", change,
       R"j({"nome":"Lotes urbanos (2025)","descricao":null,"privada":true,"moduloId":null,"ordem":5,"rotulo":null})j",
       [](std::string_view body) { parse_layer_change(body); }},
      {"Privacidade", object({{"privada", kBool}}, {"privada"}, true), R"({"privada":true})",
       [](std::string_view body) { parse_private(body); }},
  };
}

}  // namespace cadastre::platform::layers
