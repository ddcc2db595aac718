// The samples of a project layer for the geostatistics and mass appraisal routes: per
// geometry of the layer its centroid (lon/lat, SIRGAS 2000) and the numbers of chosen
// fields (their columns in the layer's table, camadas.l<layer>), optionally only the
// geometries whose boolean "check" field is true. Fields are checked to belong to the
// layer and to hold numbers (a field of another layer, or of another type, is the
// caller's 400 naming the parameter).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "service/caller.hpp"

namespace cadastre::platform::geostatistics {

/// A field the request named, and the parameter that named it (for errors).
struct FieldParam {
  std::int64_t id = 0;
  std::string param;  ///< e.g. "idvm2", "dependente.idCampo"
};

struct SampleRow {
  std::int64_t geometry = 0;
  double lon = 0, lat = 0;
  std::vector<std::optional<double>> values;  ///< one per field, in the order asked
};

struct FieldInfo {
  std::int64_t id = 0;
  std::string chave, nome, tipo;
};

/// The most samples a route reads (the variogram's pairs grow with n²).
constexpr std::size_t kMaxSamples = 5000;

/// Checks that each field is a numeric field (inteiro, decimal, calculado) of `layer`, and
/// `check` (when given) a booleano field of it; 400 naming the parameter otherwise.
std::vector<FieldInfo> check_fields(const service::Caller& s, std::int64_t layer, const std::vector<FieldParam>& fields,
                                    const std::optional<FieldParam>& check);

/// The geometries of `layer` (ordered by id) with their centroid and the fields' numbers;
/// with `check`, only those whose check value is true. More than kMaxSamples → 413. The
/// fields are the layer's (check_fields first): the statement reads their columns.
std::vector<SampleRow> load_rows(const service::Caller& s, std::int64_t layer, const std::vector<FieldParam>& fields,
                                 const std::optional<FieldParam>& check);

/// A numeric column read as text, as a double (0 when it does not read as one).
double number_of(const std::string& text);

}  // namespace cadastre::platform::geostatistics
