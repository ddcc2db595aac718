#include "platform/mass_appraisal/input.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <regex>
#include <set>

#include "cadastre/error.hpp"
#include "core/json_in.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"

namespace cadastre::platform::mass_appraisal {
namespace {

using simdjson::dom::element;
using simdjson::dom::object;

using body::positive_id;

appraisal::Transform parse_transform(std::string_view t, const std::string& field) {
  if (t == "nenhuma" || t == "x") return appraisal::Transform::none;
  if (t == "ln") return appraisal::Transform::ln;
  if (t == "inversa" || t == "1/x") return appraisal::Transform::inverse;
  if (t == "quadrado" || t == "x2") return appraisal::Transform::square;
  if (t == "raiz") return appraisal::Transform::sqrt;
  throw Error(errc::invalid_argument, field + ": use nenhuma, ln, inversa, quadrado ou raiz", field);
}

VariableSpec variable(element e, const std::string& param) {
  object o = jsonin::as_object(e, param);
  VariableSpec v;
  v.param = param + ".idCampo";
  for (auto [key, value] : o) {
    std::string k(key);
    if (k == "idCampo") v.campo = positive_id(value, param + ".idCampo");
    else if (k == "transformacao") v.transform = parse_transform(jsonin::to_string(value, param + ".transformacao"),
                                                                 param + ".transformacao");
    else throw Error(errc::unknown_field, "campo desconhecido: " + param + "." + k, param + "." + k);
  }
  if (!v.campo) throw Error(errc::missing_field, "informe " + param + ".idCampo", param + ".idCampo");
  return v;
}

std::map<std::string, std::int64_t> field_map(element e, const std::string& param) {
  static const std::regex key("[a-z][a-z0-9_]{0,62}");
  std::map<std::string, std::int64_t> out;
  for (auto [k, v] : jsonin::as_object(e, param)) {
    std::string name(k);
    if (!std::regex_match(name, key)) throw Error(errc::invalid_argument, param + ": chave inválida: " + name, param);
    out[name] = positive_id(v, param + "." + name);
  }
  return out;
}

}  // namespace

std::string_view transform_name(appraisal::Transform t) noexcept {
  switch (t) {
    case appraisal::Transform::none: return "nenhuma";
    case appraisal::Transform::ln: return "ln";
    case appraisal::Transform::inverse: return "inversa";
    case appraisal::Transform::square: return "quadrado";
    case appraisal::Transform::sqrt: return "raiz";
  }
  return "nenhuma";
}

FitSpec parse_fit(std::string_view body, const std::vector<std::string>& extra,
                  std::map<std::string, std::string>* extras) {
  simdjson::dom::parser parser;
  object root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  FitSpec f;
  bool has_dep = false, has_ind = false;
  for (auto [key, value] : root) {
    std::string k(key);
    if (k == "idCamada") f.camada = positive_id(value, k);
    else if (k == "dependente") {
      f.dependente = variable(value, "dependente");
      has_dep = true;
    } else if (k == "independentes") {
      std::size_t i = 0;
      for (element e : jsonin::as_array(value, k))
        f.independentes.push_back(variable(e, "independentes[" + std::to_string(i++) + "]"));
      has_ind = true;
    } else if (k == "idChk") {
      f.chk = positive_id(value, k);
    } else if (k == "nivel") {
      f.nivel = jsonin::to_number(value, k);
      if (!(f.nivel >= 0.5 && f.nivel < 1)) throw Error(errc::invalid_argument, "nivel: entre 0,5 e 0,99", "nivel");
    } else if (extras && std::find(extra.begin(), extra.end(), k) != extra.end()) {
      (*extras)[k] = simdjson::minify(value);
    } else {
      throw body::unknown_member(k);
    }
  }
  if (!f.camada) throw Error(errc::missing_field, "informe idCamada", "idCamada");
  if (!has_dep) throw Error(errc::missing_field, "informe dependente", "dependente");
  if (!has_ind || f.independentes.empty())
    throw Error(errc::missing_field, "informe independentes (ao menos uma variável)", "independentes");
  if (f.independentes.size() > 30) throw Error(errc::invalid_argument, "independentes: no máximo 30", "independentes");
  std::set<std::int64_t> seen{f.dependente.campo};
  for (const auto& v : f.independentes)
    if (!seen.insert(v.campo).second)
      throw Error(errc::invalid_argument, v.param + ": campo repetido no modelo", v.param);
  return f;
}

std::string extra_text(const std::map<std::string, std::string>& extras, const std::string& key,
                       const std::string& fallback, const std::vector<std::string>& allowed) {
  auto it = extras.find(key);
  if (it == extras.end()) return fallback;
  simdjson::dom::parser parser;
  std::string v = jsonin::to_string(jsonin::parse(parser, it->second), key);
  if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    throw Error(errc::invalid_argument, key + ": use " + list, key);
  }
  if (v.find_first_not_of(" \t") == std::string::npos || v.size() > 200)
    throw Error(errc::invalid_argument, key + ": de 1 a 200 caracteres", key);
  return v;
}

FinalInput parse_final(std::string_view body) {
  std::map<std::string, std::string> extras;
  FinalInput in{parse_fit(body, {"nome"}, &extras), {}};
  in.nome = extra_text(extras, "nome", "");
  if (in.nome.empty()) throw Error(errc::missing_field, "informe nome", "nome");
  return in;
}

namespace {

int plot_size(const std::map<std::string, std::string>& extras, const std::string& key, int fallback) {
  auto it = extras.find(key);
  if (it == extras.end()) return fallback;
  simdjson::dom::parser parser;
  std::int64_t v = 0;
  if (jsonin::parse(parser, it->second).get_int64().get(v) || v < 200 || v > 2000)
    throw Error(errc::invalid_argument, key + ": de 200 a 2000 pixels", key);
  return static_cast<int>(v);
}

}  // namespace

GraphInput parse_graph(std::string_view body) {
  static const std::vector<std::string> kPlot{"tipo", "formato", "largura", "altura"};
  static const std::set<std::string> kFit{"idCamada", "dependente", "independentes", "idChk", "nivel"};
  simdjson::dom::parser parser;
  object root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  GraphInput in;
  std::map<std::string, std::string> extras;
  if (auto id = jsonin::find(root, "idModelo")) {
    // The stored model is the fit: a fit body beside it would be a second, conflicting one.
    in.modelo = positive_id(*id, "idModelo");
    for (auto [key, value] : root) {
      std::string k(key);
      if (k == "idModelo") continue;
      if (kFit.count(k))
        throw Error(errc::invalid_argument, k + ": com idModelo o gráfico é o do modelo gravado; não envie o ajuste", k);
      if (std::find(kPlot.begin(), kPlot.end(), k) == kPlot.end())
        throw body::unknown_member(k);
      extras[k] = simdjson::minify(value);
    }
  } else {
    in.fit = parse_fit(body, kPlot, &extras);
  }
  in.tipo = extra_text(extras, "tipo", in.tipo);
  in.formato = extra_text(extras, "formato", in.formato, {"png", "svg"});
  in.largura = plot_size(extras, "largura", in.largura);
  in.altura = plot_size(extras, "altura", in.altura);
  return in;
}

ApplyInput parse_apply(std::string_view body) {
  simdjson::dom::parser parser;
  object root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  ApplyInput in;
  for (auto [key, value] : root) {
    std::string k(key);
    if (k == "idCamada") in.camada = positive_id(value, k);
    else if (k == "campos") in.campos = field_map(value, k);
    else if (k == "idCampoDestino") in.destino = positive_id(value, k);
    else throw body::unknown_member(k);
  }
  if (!in.camada) throw Error(errc::missing_field, "informe idCamada", "idCamada");
  return in;
}

PvgInput parse_pvg(std::string_view body) {
  simdjson::dom::parser parser;
  object root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  PvgInput in;
  for (auto [key, value] : root) {
    std::string k(key);
    if (k == "idCamadaRaster") in.raster = positive_id(value, k);
    else if (k == "idModelo") in.modelo = positive_id(value, k);
    else if (k == "idCamada") in.camada = positive_id(value, k);
    else if (k == "campos") in.campos = field_map(value, k);
    else if (k == "raio") {
      in.raio = jsonin::to_number(value, k);
      if (!(in.raio > 0 && in.raio <= 5000)) throw Error(errc::invalid_argument, "raio: de 0 a 5000 metros", "raio");
    } else if (k == "descricao") {
      std::string d = jsonin::to_string(value, k);
      if (d.size() > 2000) throw Error(errc::invalid_argument, "descricao: até 2000 caracteres", "descricao");
      in.descricao = d;
    } else throw body::unknown_member(k);
  }
  if (bool(in.raster) == bool(in.modelo))
    throw Error(errc::invalid_argument, "informe idCamadaRaster (krigagem) ou idModelo (regressão), um só",
                "idCamadaRaster");
  if (in.modelo && !in.camada)
    throw Error(errc::missing_field, "informe idCamada: a camada onde o modelo é aplicado", "idCamada");
  return in;
}

ResidualsInput parse_residuals(std::string_view body) {
  simdjson::dom::parser parser;
  object root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  ResidualsInput in;
  bool has_features = false;
  for (auto [key, value] : root) {
    std::string k(key);
    if (k == "idModelo") in.modelo = positive_id(value, k);
    else if (k == "idCamada") in.camada = positive_id(value, k);
    else if (k == "idCampo") in.campo = positive_id(value, k);
    else if (k == "feicoes") {
      has_features = true;
      std::size_t i = 0;
      for (element e : jsonin::as_array(value, k)) {
        std::string p = "feicoes[" + std::to_string(i++) + "]";
        object o = jsonin::as_object(e, p);
        ResidualFeature f;
        for (auto [fk, fv] : o) {
          std::string name(fk);
          if (name == "idAmostra") f.amostra = positive_id(fv, p + ".idAmostra");
          else if (name == "geometria") f.geojson = simdjson::minify(jsonin::as_object(fv, p + ".geometria"));
          else throw Error(errc::unknown_field, "campo desconhecido: " + p + "." + name, p + "." + name);
        }
        if (!f.amostra) throw Error(errc::missing_field, "informe " + p + ".idAmostra", p + ".idAmostra");
        if (f.geojson.empty()) throw Error(errc::missing_field, "informe " + p + ".geometria", p + ".geometria");
        in.feicoes.push_back(std::move(f));
      }
    } else throw body::unknown_member(k);
  }
  for (auto [name, v] : {std::pair{"idModelo", in.modelo}, {"idCamada", in.camada}, {"idCampo", in.campo}})
    if (!v) throw Error(errc::missing_field, std::string("informe ") + name, name);
  if (!has_features || in.feicoes.empty()) throw Error(errc::missing_field, "informe feicoes", "feicoes");
  return in;
}

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  const std::string id = R"({"type":"integer","minimum":1})";
  const std::string variable =
      json_schema::object({{"idCampo", id}, {"transformacao", enumeration({"nenhuma", "ln", "inversa", "quadrado", "raiz"})}},
             {"idCampo"}, true);
  const Props fit = {{"idCamada", id},
                     {"dependente", variable},
                     {"independentes", R"({"type":"array","minItems":1,"maxItems":30,"items":)" + variable + "}"},
                     {"idChk", id},
                     {"nivel", R"({"type":"number","minimum":0.5,"maximum":0.99})"}};
  const std::vector<std::string> fit_required = {"idCamada", "dependente", "independentes"};
  const Props plot = {{"tipo", enumeration({"residuos", "observado_ajustado", "qq"})},
                      {"formato", enumeration({"png", "svg"})},
                      {"largura", R"({"type":"integer","minimum":200,"maximum":2000})"},
                      {"altura", R"({"type":"integer","minimum":200,"maximum":2000})"}};
  auto with = [](Props a, const Props& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  const std::string fit_example =
      R"("idCamada":7,"dependente":{"idCampo":31,"transformacao":"ln"},"independentes":[{"idCampo":32},{"idCampo":33,"transformacao":"inversa"}],"nivel":0.8)";
  const std::string field_map = R"({"type":"object","additionalProperties":{"type":"integer","minimum":1},"description":"chave do regressor → idCampo"})";
  const std::string feature =
      json_schema::object({{"idAmostra", id}, {"geometria", R"({"type":"object","description":"GeoJSON"})"}}, {"idAmostra", "geometria"}, true);
  return {
      {"AjusteRlm", json_schema::object(fit, fit_required, true), "{" + fit_example + "}",
       [](std::string_view body) { parse_fit(body, {}); }},
      {"ModeloRlmNovo",
       json_schema::object(with(fit, {{"nome", R"({"type":"string","minLength":1,"maxLength":200})"}}), [&] { auto r = fit_required; r.push_back("nome"); return r; }(), true),
       "{" + fit_example + R"(,"nome":"Terrenos 2026"})", [](std::string_view body) { parse_final(body); }},
      {"GraficoRlm",
       R"({"oneOf":[)" + json_schema::object(with(fit, plot), fit_required, true) + "," +
           json_schema::object(with({{"idModelo", id}}, plot), {"idModelo"}, true) + "]}",
       "{" + fit_example + R"(,"tipo":"qq","formato":"svg","largura":800})",
       [](std::string_view body) { parse_graph(body); }},
      {"AplicacaoModelo",
       json_schema::object({{"idCamada", id}, {"campos", field_map}, {"idCampoDestino", id}}, {"idCamada"}, true),
       R"({"idCamada":9,"campos":{"area_terreno":41,"testada":42},"idCampoDestino":45})",
       [](std::string_view body) { parse_apply(body); }},
      {"PedidoPVG",
       json_schema::object({{"idCamadaRaster", id},
               {"idModelo", id},
               {"idCamada", id},
               {"campos", field_map},
               {"raio", R"j({"type":"number","minimum":0,"maximum":5000,"description":"metros (padrão 50)"})j"},
               {"descricao", R"({"type":"string","maxLength":2000})"}},
              {}, true),
       R"({"idModelo":3,"idCamada":9,"raio":80,"campos":{"area_terreno":41},"descricao":"PVG 2027"})",
       [](std::string_view body) { parse_pvg(body); }},
      {"ResiduosModeloNovos",
       json_schema::object({{"idModelo", id},
               {"idCamada", id},
               {"idCampo", id},
               {"feicoes", R"({"type":"array","minItems":1,"items":)" + feature + "}"}},
              {"idModelo", "idCamada", "idCampo", "feicoes"}, true),
       R"({"idModelo":3,"idCamada":12,"idCampo":50,"feicoes":[{"idAmostra":101,"geometria":{"type":"Point","coordinates":[-47.06,-22.9]}}]})",
       [](std::string_view body) { parse_residuals(body); }},
  };
}

}  // namespace cadastre::platform::mass_appraisal
