// Parsing and checking of the geostatistics routes' bodies and queries.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cadastre/geostat.hpp"
#include "http/http.hpp"
#include "platform/common/request_schema.hpp"

namespace cadastre::platform::geostatistics {

/// "esferico", "exponencial", "gaussiano" ↔ the library's types.
std::string_view type_name(geostat::ModelType t) noexcept;
geostat::ModelType parse_type(std::string_view text, std::string_view field);

/// A boolean query value: absent → `fallback`; "true"/"false" only (else 400 naming it).
bool query_bool(const http::Request& req, std::string_view name, bool fallback);
/// An integer query value in [min, max]; absent → nullopt.
std::optional<std::int64_t> query_int(const http::Request& req, std::string_view name, std::int64_t min,
                                      std::int64_t max);
/// A number query value in (0, max]; absent → nullopt.
std::optional<double> query_positive(const http::Request& req, std::string_view name, double max);

/// POST /variogramas and PUT /variogramas bodies: every member optional here; the handler
/// says which are required.
struct VariogramInput {
  std::optional<std::int64_t> id, projeto, camada, campo, campo_chk;
  std::optional<std::string> nome;
  std::optional<geostat::ModelType> tipo;
  std::optional<double> pepita, contribuicao, alcance;
  std::optional<bool> log;
  std::optional<int> epsg;      ///< the model's SIRGAS 2000 / UTM zone (31978–31985, 5396)
  bool campo_chk_null = false;  ///< "idCampoChk": null (PUT: remove the filter)
};
VariogramInput parse_variogram(std::string_view body, bool creating);

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

/// GET /variogramas/automatico.
struct AutoQuery {
  std::int64_t camada = 0, campo = 0;
  std::optional<std::int64_t> campo_chk;
  bool log = false;
  geostat::VariogramOptions options;
};
AutoQuery parse_auto(const http::Request& req);

/// GET /krigar/:idVariograma.
struct KrigingQuery {
  std::int64_t variograma = 0;
  std::int64_t dominio = 0;
  bool salvar = false;
  std::optional<double> celula;  ///< metres; absent → the longer side / 200
  std::size_t nmax = 32;
  std::optional<double> raio;    ///< maxdist, metres
  bool merge_duplicates = false;
  std::string formato = "json";  ///< json | tiff
  std::string nome;              ///< of the saved raster layer
};
KrigingQuery parse_kriging(const http::Request& req);

}  // namespace cadastre::platform::geostatistics
