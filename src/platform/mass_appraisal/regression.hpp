// A regression fitted from a layer's samples (cadastre::appraisal::fit) and its JSON:
// coefficients with t and p, F, R², adjusted R², residuals and outliers, the intervals at
// each sample, the NBR 14653-2 grades with the deciding criterion, and the IAAO ratio study
// of the fitted values (back-transformed) against the observed ones.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cadastre/appraisal.hpp"
#include "platform/geostatistics/samples.hpp"
#include "platform/mass_appraisal/input.hpp"
#include "service/caller.hpp"

namespace cadastre::platform::mass_appraisal {

/// A count as the signed integers the JSON writers take.
inline std::int64_t i64(std::size_t v) { return static_cast<std::int64_t>(v); }

struct Fitted {
  FitSpec spec;
  std::vector<geostatistics::FieldInfo> fields;  ///< dependent first, then the regressors
  std::vector<std::int64_t> geometries;          ///< the sample of each row
  std::size_t excluded = 0;                      ///< geometries lacking a value
  appraisal::Data data;
  appraisal::Regression regression;
};

/// Loads the samples (geometries with every field's value) and fits the model.
Fitted fit_spec(const service::Caller& s, const FitSpec& spec);

/// The /rlm answer (docs/platform-geostatistics.md).
std::string regression_json(const Fitted& f);

/// The coefficients as stored with a model: [{"nome","chave","idCampo","transformacao","estimativa"}].
std::string coefficients_json(const Fitted& f);
/// What predict() needs of a stored model, as JSON: {"dependente":{"chave","transformacao"},
/// "regressores":[{"chave","transformacao"}], "coeficientes":[...], "xtxInversa":[...],
/// "erroPadraoResidual", "n", "k"}.
std::string predictor_json(const Fitted& f);

/// A stored model ready to predict: its regression (enough of it for appraisal::predict)
/// and the chave of each regressor, in order.
struct Predictor {
  appraisal::Regression regression;
  std::vector<std::string> regressors;
};
Predictor predictor_from_json(const std::string& json);

}  // namespace cadastre::platform::mass_appraisal
