#include "platform/geostatistics/input.hpp"

#include <simdjson.h>

#include <charconv>
#include <cmath>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "platform/body_fields.hpp"
#include "platform/common/json_schema.hpp"

namespace cadastre::platform::geostatistics {

std::string_view type_name(geostat::ModelType t) noexcept {
  switch (t) {
    case geostat::ModelType::spherical: return "esferico";
    case geostat::ModelType::exponential: return "exponencial";
    case geostat::ModelType::gaussian: return "gaussiano";
  }
  return "esferico";
}

geostat::ModelType parse_type(std::string_view text, std::string_view field) {
  if (text == "esferico") return geostat::ModelType::spherical;
  if (text == "exponencial") return geostat::ModelType::exponential;
  if (text == "gaussiano") return geostat::ModelType::gaussian;
  throw Error(errc::invalid_argument, std::string(field) + ": use esferico, exponencial ou gaussiano",
              std::string(field));
}

bool query_bool(const http::Request& req, std::string_view name, bool fallback) {
  auto v = req.query_value(name);
  if (!v) return fallback;
  if (*v == "true") return true;
  if (*v == "false") return false;
  throw Error(errc::invalid_argument, std::string(name) + ": use true ou false", std::string(name));
}

std::optional<std::int64_t> query_int(const http::Request& req, std::string_view name, std::int64_t min,
                                      std::int64_t max) {
  auto v = req.query_value(name);
  if (!v) return std::nullopt;
  return query::parse_integer(*v, name, min, max);
}

std::optional<double> query_positive(const http::Request& req, std::string_view name, double max) {
  auto v = req.query_value(name);
  if (!v) return std::nullopt;
  double d = 0;
  auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), d);
  if (ec != std::errc() || end != v->data() + v->size() || !std::isfinite(d) || d <= 0 || d > max)
    throw Error(errc::invalid_argument, std::string(name) + ": informe um número positivo até " +
                                            std::to_string(static_cast<long long>(max)),
                std::string(name));
  return d;
}

VariogramInput parse_variogram(std::string_view body, bool creating) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  VariogramInput in;
  auto id = [&](std::string_view k) {
    std::int64_t v = jsonin::integer(root, k);
    if (v < 1) throw Error(errc::invalid_argument, std::string(k) + ": informe um id positivo", std::string(k));
    return v;
  };
  auto nonneg = [&](std::string_view k) {
    double v = jsonin::number(root, k);
    if (!std::isfinite(v) || v < 0) throw Error(errc::invalid_argument, std::string(k) + " deve ser ≥ 0", std::string(k));
    return v;
  };
  for (auto [key, value] : root) {
    std::string k(key);
    if (k == "id" && !creating) in.id = id(k);
    else if (k == "idProjeto") in.projeto = id(k);
    else if (k == "idCamada" && creating) in.camada = id(k);
    else if (k == "idCampo" && creating) in.campo = id(k);
    else if (k == "idCampoChk") {
      if (value.is_null()) in.campo_chk_null = true;
      else in.campo_chk = id(k);
    } else if (k == "nome") {
      std::string v = jsonin::to_string(value, k);
      if (v.find_first_not_of(" \t") == std::string::npos || v.size() > 200)
        throw Error(errc::invalid_argument, "nome: de 1 a 200 caracteres", "nome");
      in.nome = std::move(v);
    } else if (k == "tipo") in.tipo = parse_type(jsonin::to_string(value, k), k);
    else if (k == "pepita") in.pepita = nonneg(k);
    else if (k == "contribuicao") in.contribuicao = nonneg(k);
    else if (k == "alcance") {
      double v = jsonin::number(root, k);
      if (!std::isfinite(v) || v <= 0) throw Error(errc::invalid_argument, "alcance deve ser > 0", "alcance");
      in.alcance = v;
    } else if (k == "log") in.log = jsonin::opt_bool(root, k);
    else if (k == "epsg") {
      std::int64_t v = jsonin::integer(root, k);
      if (!((v >= 31978 && v <= 31985) || v == 5396))
        throw Error(errc::invalid_argument, "epsg: use um SIRGAS 2000 / UTM (31978 a 31985, ou 5396)", "epsg");
      in.epsg = static_cast<int>(v);
    }
    else throw body::unknown_member(k);
  }
  if (creating) {
    for (auto [name, present] : {std::pair{"nome", bool(in.nome)}, {"tipo", bool(in.tipo)},
                                 {"pepita", bool(in.pepita)}, {"contribuicao", bool(in.contribuicao)},
                                 {"alcance", bool(in.alcance)}, {"idCamada", bool(in.camada)},
                                 {"idCampo", bool(in.campo)}})
      if (!present) throw Error(errc::missing_field, std::string("informe ") + name, name);
  } else if (!in.id) {
    throw Error(errc::missing_field, "informe id (o variograma a alterar)", "id");
  }
  return in;
}

AutoQuery parse_auto(const http::Request& req) {
  AutoQuery q;
  auto need = [&](std::string_view name) {
    auto v = query_int(req, name, 1, INT64_MAX);
    if (!v) throw Error(errc::missing_field, "informe " + std::string(name), std::string(name));
    return *v;
  };
  q.camada = need("idcamada");
  q.campo = need("idvm2");
  q.campo_chk = query_int(req, "idChk", 1, INT64_MAX);
  q.log = query_bool(req, "log", false);
  q.options.cutoff = query_positive(req, "corte", 1e7);
  if (auto lags = query_int(req, "lags", 3, 100)) q.options.n_lags = static_cast<std::size_t>(*lags);
  return q;
}

KrigingQuery parse_kriging(const http::Request& req) {
  KrigingQuery q;
  q.variograma = query::parse_integer(req.param("idVariograma"), "idVariograma", 1, INT64_MAX);
  auto dominio = query_int(req, "idDominioGeografico", 1, INT64_MAX);
  if (!dominio) throw Error(errc::missing_field, "informe idDominioGeografico", "idDominioGeografico");
  q.dominio = *dominio;
  q.salvar = query_bool(req, "salvar", false);
  q.celula = query_positive(req, "celula", 1e5);
  if (auto n = query_int(req, "nmax", 1, 500)) q.nmax = static_cast<std::size_t>(*n);
  q.raio = query_positive(req, "raio", 1e7);
  q.merge_duplicates = query_bool(req, "mesclarDuplicatas", false);
  if (auto f = req.query_value("formato")) {
    if (*f != "json" && *f != "tiff") throw Error(errc::invalid_argument, "formato: use json ou tiff", "formato");
    q.formato = *f;
  }
  q.nome = req.query_value("nome").value_or("Krigagem");
  if (q.nome.find_first_not_of(" \t") == std::string::npos || q.nome.size() > 200)
    throw Error(errc::invalid_argument, "nome: de 1 a 200 caracteres", "nome");
  return q;
}

std::vector<common::RequestSchema> request_schemas() {
  using namespace json_schema;
  const std::string id = R"({"type":"integer","minimum":1})";
  const std::string nonneg = R"({"type":"number","minimum":0})";
  const std::string epsg = R"({"type":"integer","description":"SIRGAS 2000 / UTM: 31978 a 31985, ou 5396"})";
  const std::string tipo = enumeration({"esferico", "exponencial", "gaussiano"});
  const std::string nome = R"({"type":"string","minLength":1,"maxLength":200})";
  const std::string alcance = R"({"type":"number","exclusiveMinimum":true,"minimum":0,"description":"metros"})";
  const std::string chk = R"({"type":"integer","minimum":1,"nullable":true})";
  return {
      {"VariogramaNovo",
       object({{"nome", nome}, {"tipo", tipo}, {"pepita", nonneg}, {"contribuicao", nonneg}, {"alcance", alcance},
               {"log", kBool}, {"idCamada", id}, {"idCampo", id}, {"idCampoChk", chk}, {"idProjeto", id}, {"epsg", epsg}},
              {"nome", "tipo", "pepita", "contribuicao", "alcance", "idCamada", "idCampo"}, true),
       R"({"nome":"Terrenos centro","tipo":"esferico","pepita":1200.5,"contribuicao":8400,"alcance":950,"log":false,"idCamada":7,"idCampo":31,"epsg":31983})",
       [](std::string_view body) { parse_variogram(body, true); }},
      {"VariogramaAlteracao",
       object({{"id", id}, {"nome", nome}, {"tipo", tipo}, {"pepita", nonneg}, {"contribuicao", nonneg},
               {"alcance", alcance}, {"log", kBool}, {"idCampoChk", chk}, {"idProjeto", id}, {"epsg", epsg}},
              {"id"}, true),
       R"({"id":4,"tipo":"exponencial","alcance":1200,"idCampoChk":null})",
       [](std::string_view body) { parse_variogram(body, false); }},
  };
}

}  // namespace cadastre::platform::geostatistics
