#include "platform/custom_maps/input.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "core/json_in.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"

namespace cadastre::platform::custom_maps {
namespace {

using body::positive_id;
using body::present;
using body::text;

constexpr std::size_t kMaxLayers = 100;
constexpr std::size_t kMaxStyle = 16384;

bool is_null(jsonin::object o, std::string_view key) { return o.at_key(key).is_null(); }

MapLayer layer(jsonin::element e, std::size_t position) {
  auto o = jsonin::as_object(e, "camadas[]");
  body::only_members(o, {"idCamada", "ordem", "visivel", "opacidade", "estilo"}, "camadas[]");
  MapLayer l;
  auto id = jsonin::find(o, "idCamada");
  if (!id) throw Error(errc::missing_field, "camadas: informe idCamada de cada camada", "idCamada");
  l.camada = positive_id(*id, "idCamada");
  auto ordem = jsonin::opt_integer(o, "ordem");
  if (ordem && (*ordem < 0 || *ordem > 100000)) throw Error(errc::invalid_argument, "ordem deve estar entre 0 e 100000", "ordem");
  l.ordem = ordem ? static_cast<int>(*ordem) : static_cast<int>(position);
  l.visivel = jsonin::opt_bool(o, "visivel").value_or(true);
  l.opacidade = jsonin::opt_number(o, "opacidade").value_or(1.0);
  if (!(l.opacidade >= 0 && l.opacidade <= 1)) throw Error(errc::invalid_argument, "opacidade deve estar entre 0 e 1", "opacidade");
  if (auto s = jsonin::find(o, "estilo")) {
    jsonin::as_object(*s, "estilo");
    l.estilo = simdjson::minify(*s);
    if (l.estilo->size() > kMaxStyle) throw Error(errc::invalid_argument, "estilo grande demais (máx. 16 KiB)", "estilo");
  }
  return l;
}

std::vector<MapLayer> layers(jsonin::element e) {
  auto list = jsonin::as_array(e, "camadas");
  std::vector<MapLayer> out;
  std::set<std::int64_t> seen;
  for (auto item : list) {
    if (out.size() == kMaxLayers) throw Error(errc::invalid_argument, "camadas: no máximo 100", "camadas");
    out.push_back(layer(item, out.size() + 1));
    if (!seen.insert(out.back().camada).second)
      throw Error(errc::invalid_argument, "camadas: a camada " + std::to_string(out.back().camada) + " aparece duas vezes",
                  "camadas");
  }
  if (out.empty()) throw Error(errc::invalid_argument, "camadas: informe ao menos uma camada", "camadas");
  // The drawing order as given (ties keep the list's order), renumbered 1..n.
  std::stable_sort(out.begin(), out.end(), [](const MapLayer& a, const MapLayer& b) { return a.ordem < b.ordem; });
  for (std::size_t i = 0; i < out.size(); ++i) out[i].ordem = static_cast<int>(i + 1);
  return out;
}

std::array<double, 4> extent(jsonin::element e) {
  simdjson::dom::array a;
  if (e.get(a) || a.size() != 4)
    throw Error(errc::invalid_argument, "extensao deve ser [minx, miny, maxx, maxy]", "extensao");
  std::array<double, 4> box{};
  std::size_t i = 0;
  for (auto v : a) box[i++] = jsonin::to_number(v, "extensao");
  bool ok = box[0] >= -180 && box[2] <= 180 && box[1] >= -90 && box[3] <= 90 && box[0] < box[2] && box[1] < box[3];
  if (!ok) throw Error(errc::invalid_argument, "extensao: longitudes de -180 a 180 e latitudes de -90 a 90, mínimos antes dos máximos", "extensao");
  return box;
}

}  // namespace

MapFields parse_map(std::string_view body, bool creating) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  if (creating) {
    body::only_members(o, {"idProjeto", "nome", "descricao", "camadas", "extensao", "idMapaBase"});
  } else {
    if (present(o, "idProjeto")) throw Error(errc::invalid_argument, "idProjeto: um mapa não muda de projeto", "idProjeto");
    body::only_members(o, {"nome", "descricao", "camadas", "extensao", "idMapaBase"});
  }
  MapFields f;
  if (creating) {
    auto p = jsonin::find(o, "idProjeto");
    if (!p) throw Error(errc::missing_field, "informe idProjeto", "idProjeto");
    f.projeto = positive_id(*p, "idProjeto");
    if (!present(o, "nome")) throw Error(errc::missing_field, "informe nome", "nome");
    if (!jsonin::find(o, "camadas")) throw Error(errc::missing_field, "informe camadas", "camadas");
  }
  if (present(o, "nome")) f.nome = text(o, "nome", 200, true);
  if (present(o, "descricao") && !is_null(o, "descricao")) f.descricao = text(o, "descricao", 4000, false);
  if (auto c = jsonin::find(o, "camadas")) f.camadas = layers(*c);
  if (present(o, "extensao")) {
    f.set_extensao = true;
    if (auto e = jsonin::find(o, "extensao")) f.extensao = extent(*e);
  }
  if (present(o, "idMapaBase")) {
    f.set_mapa_base = true;
    if (auto b = jsonin::find(o, "idMapaBase")) f.mapa_base = positive_id(*b, "idMapaBase");
  }
  if (!creating && !f.nome && !f.descricao && !f.camadas && !f.set_extensao && !f.set_mapa_base)
    throw Error(errc::missing_field, "informe ao menos um campo a alterar", "corpo");
  return f;
}

std::string layers_json(const std::vector<MapLayer>& layers) {
  JsonWriter w;
  w.begin_array();
  for (const auto& l : layers) {
    w.begin_object().key("idCamada").value(l.camada).key("ordem").value(l.ordem).key("visivel").value(l.visivel);
    w.key("opacidade").value(l.opacidade).key("estilo");
    l.estilo ? w.raw(*l.estilo) : w.null();
    w.end_object();
  }
  w.end_array();
  return std::move(w).str();
}

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  // idMapaBase and extensao null: none; camadas drawn in ordem (ties: as listed), each layer once.
  const Props changeable = {
      {"nome", R"({"type":"string","minLength":1,"maxLength":200})"},
      {"descricao", R"({"type":"string","maxLength":4000})"},
      {"camadas", R"({"type":"array","minItems":1,"maxItems":100,"items":{"$ref":"#/components/schemas/CamadaDoMapa"}})"},
      {"extensao", R"({"type":"array","items":{"type":"number"},"minItems":4,"maxItems":4,"nullable":true,)"
                   R"("description":"[minx, miny, maxx, maxy] em graus, WGS 84, mínimos antes dos máximos"})"},
      {"idMapaBase", R"({"type":"integer","format":"int64","minimum":1,"nullable":true})"}};
  Props creating = changeable;
  creating.insert(creating.begin(), {"idProjeto", R"({"type":"integer","format":"int64","minimum":1})"});
  return {
      {"MapaPersonalizadoNovo", object(creating, {"idProjeto", "nome", "camadas"}, true),
       R"({"idProjeto":12,"nome":"Lotes e edificações","descricao":"Lotes com as edificações por cima","camadas":[{"idCamada":41,"ordem":1,"visivel":true,"opacidade":0.8,"estilo":{"fill-color":"#e0c080"}},{"idCamada":42,"ordem":2}],"extensao":[-47.2,-23.0,-46.9,-22.7],"idMapaBase":3})",
       [](std::string_view body) { parse_map(body, true); }},
      {"MapaPersonalizadoAlteracao", object(changeable, {}, true),
       R"({"nome":"Lotes 2025","descricao":"Lotes com as edificações, revisão de 2025","camadas":[{"idCamada":41,"visivel":false},{"idCamada":43,"opacidade":0.5}],"extensao":null})",
       [](std::string_view body) { parse_map(body, false); }},
  };
}

}  // namespace cadastre::platform::custom_maps
