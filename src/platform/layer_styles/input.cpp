#include "platform/layer_styles/input.hpp"

#include <simdjson.h>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "cadastre/palette.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"

namespace cadastre::platform::layer_styles {

std::int64_t query_id(const http::Request& req, const char* name) {
  auto v = req.query_value(name);
  if (!v) throw Error(errc::missing_field, std::string(name) + " é obrigatório", name);
  return query::parse_integer(*v, name, 1, INT64_MAX);
}

std::vector<std::int64_t> parse_concat(const http::Request& req) {
  std::vector<std::int64_t> ids;
  auto v = req.query_value("concat");
  if (!v) return ids;
  std::string_view rest = *v;
  while (true) {
    std::size_t comma = rest.find(',');
    ids.push_back(query::parse_integer(rest.substr(0, comma), "concat", 1, INT64_MAX));
    if (ids.size() > 9) throw Error(errc::invalid_argument, "concat: até 9 campos além de idCampo", "concat");
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return ids;
}

std::string parse_separator(const http::Request& req) {
  std::string sep = req.query_value("separador").value_or(" ");
  if (sep.empty() || sep.size() > 10)
    throw Error(errc::invalid_argument, "separador deve ter de 1 a 10 caracteres", "separador");
  return sep;
}

int parse_intervals(const http::Request& req) {
  auto v = req.query_value("classes");
  return v ? static_cast<int>(query::parse_integer(*v, "classes", 2, 20)) : 5;
}

std::string parse_ramp(const http::Request& req) {
  std::string ramp = req.query_value("paleta").value_or("calor");
  if (!palette::known_ramp(ramp)) throw Error(errc::invalid_argument, "paleta desconhecida: " + ramp, "paleta");
  return ramp;
}

GeometryLabel parse_geometry_label(std::string_view body) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  GeometryLabel l;
  for (auto [key, value] : root) {
    std::string k(key);
    if (k == "texto") {
      l.set_texto = true;
      if (value.is_null()) continue;
      l.texto = jsonin::to_string(value, k);
      if (l.texto->empty() || l.texto->size() > 500)
        throw Error(errc::invalid_argument, "texto deve ter de 1 a 500 caracteres (null o remove)", "texto");
    } else if (k == "posicao") {
      l.set_posicao = true;
      if (value.is_null()) continue;
      auto pair = jsonin::as_array(value, k);
      if (pair.size() != 2)
        throw Error(errc::invalid_argument, "posicao deve ser [longitude, latitude]", "posicao");
      double lon = jsonin::to_number(pair.at(0), k), lat = jsonin::to_number(pair.at(1), k);
      if (lon < -180 || lon > 180 || lat < -90 || lat > 90)
        throw Error(errc::invalid_argument, "posicao: longitude de -180 a 180 e latitude de -90 a 90", "posicao");
      l.posicao = {lon, lat};
    } else if (k == "rotacao") {
      l.set_rotacao = true;
      if (value.is_null()) continue;
      l.rotacao = jsonin::to_number(value, k);
      if (*l.rotacao < -360 || *l.rotacao > 360)
        throw Error(errc::invalid_argument, "rotacao deve ser de -360 a 360 graus", "rotacao");
    } else {
      throw body::unknown_member(k);
    }
  }
  if (!l.set_texto && !l.set_posicao && !l.set_rotacao)
    throw Error(errc::missing_field, "informe texto, posicao ou rotacao", "corpo");
  return l;
}

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  // A member present sets that part of the label, null clears it; at least one.
  return {
      {"RotuloGeometriaCampos",
       object({{"texto", R"({"type":"string","minLength":1,"maxLength":500,"nullable":true})"},
               {"posicao", R"({"type":"array","items":{"type":"number"},"minItems":2,"maxItems":2,"nullable":true,)"
                           R"("description":"[longitude, latitude] em graus, WGS 84"})"},
               {"rotacao", R"({"type":"number","minimum":-360,"maximum":360,"nullable":true})"}},
              {}, true),
       R"({"texto":"Praça da Matriz","posicao":[-47.0608,-22.9056],"rotacao":15.5})",
       [](std::string_view body) { parse_geometry_label(body); }},
  };
}

}  // namespace cadastre::platform::layer_styles
