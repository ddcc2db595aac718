#include "platform/mass_appraisal/regression.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cmath>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "core/json_in.hpp"

namespace cadastre::platform::mass_appraisal {
namespace {

using geostatistics::FieldParam;

void grade_json(JsonWriter& w, const appraisal::Grade& g) {
  w.begin_object().key("grau").value(g.grade).key("criterio").value(g.criterion).key("detalhe").value(g.detail);
  w.end_object();
}

appraisal::Transform transform_of(std::string_view name) {
  for (auto t : {appraisal::Transform::none, appraisal::Transform::ln, appraisal::Transform::inverse,
                 appraisal::Transform::square, appraisal::Transform::sqrt})
    if (transform_name(t) == name) return t;
  throw std::runtime_error("transformação armazenada desconhecida");  // a broken record: logged, 500
}

}  // namespace

Fitted fit_spec(const service::Caller& s, const FitSpec& spec) {
  Fitted f;
  f.spec = spec;
  std::vector<FieldParam> params{{spec.dependente.campo, spec.dependente.param}};
  for (const auto& v : spec.independentes) params.push_back({v.campo, v.param});
  std::optional<FieldParam> chk;
  if (spec.chk) chk = FieldParam{*spec.chk, "idChk"};
  f.fields = geostatistics::check_fields(s, spec.camada, params, chk);
  auto rows = geostatistics::load_rows(s, spec.camada, params, chk);
  f.data.dependent = {f.fields[0].chave, {}, spec.dependente.transform};
  for (std::size_t i = 0; i < spec.independentes.size(); ++i)
    f.data.regressors.push_back({f.fields[i + 1].chave, {}, spec.independentes[i].transform});
  for (const auto& r : rows) {
    if (std::any_of(r.values.begin(), r.values.end(), [](const auto& v) { return !v; })) {
      ++f.excluded;  // a sample needs every variable
      continue;
    }
    f.geometries.push_back(r.geometry);
    f.data.dependent.values.push_back(*r.values[0]);
    for (std::size_t i = 0; i < f.data.regressors.size(); ++i) f.data.regressors[i].values.push_back(*r.values[i + 1]);
  }
  f.regression = appraisal::fit(f.data);
  return f;
}

std::string regression_json(const Fitted& f) {
  const appraisal::Regression& r = f.regression;
  const std::size_t k = r.k;
  JsonWriter w;
  w.begin_object().key("idCamada").value(f.spec.camada).key("n").value(i64(r.n)).key("k").value(i64(k));
  w.key("excluidas").value(i64(f.excluded));
  w.key("dependente").begin_object().key("idCampo").value(f.fields[0].id).key("chave").value(f.fields[0].chave);
  w.key("transformacao").value(transform_name(r.dependent_transform)).end_object();
  w.key("coeficientes").begin_array();
  for (std::size_t i = 0; i < r.coefficients.size(); ++i) {
    const auto& c = r.coefficients[i];
    w.begin_object().key("nome").value(c.name);
    w.key("idCampo");
    i == 0 ? w.null() : w.value(f.fields[i].id);
    w.key("transformacao").value(transform_name(c.transform)).key("estimativa").value(c.estimate);
    w.key("erroPadrao").value(c.std_error).key("t").value(c.t).key("p").value(c.p).end_object();
  }
  w.end_array();
  w.key("r2").value(r.r2).key("r2Ajustado").value(r.adjusted_r2).key("erroPadraoResidual").value(r.residual_se);
  w.key("f").value(r.f).key("pF").value(r.f_p).key("grausDeLiberdade").value(i64(r.df()));

  // Intervals at each sample and the fitted values in the original scale of y.
  std::vector<double> x(k), estimates;
  w.key("residuos").begin_array();
  for (std::size_t i = 0; i < r.n; ++i) {
    for (std::size_t j = 0; j < k; ++j) x[j] = f.data.regressors[j].values[i];
    appraisal::Prediction p = appraisal::predict(r, x, f.spec.nivel);
    estimates.push_back(p.estimate);
    w.begin_object().key("idGeometria").value(f.geometries[i]).key("observado").value(f.data.dependent.values[i]);
    w.key("estimado").value(p.estimate).key("ajustado").value(r.fitted[i]).key("residuo").value(r.residuals[i]);
    w.key("residuoPadronizado").value(r.standardized_residuals[i]);
    w.key("outlier").value(std::abs(r.standardized_residuals[i]) > 2);
    w.key("intervaloConfianca").begin_array().value(p.confidence.lower).value(p.confidence.upper).end_array();
    w.key("intervaloPredicao").begin_array().value(p.prediction.lower).value(p.prediction.upper).end_array();
    w.end_object();
  }
  w.end_array().key("outliers").begin_array();
  for (std::size_t i : r.outliers) w.value(f.geometries[i]);
  w.end_array().key("nivel").value(f.spec.nivel);

  const auto& fund = r.fundamentacao;
  w.key("fundamentacao").begin_object().key("grau").value(fund.overall.grade);
  w.key("criterio").value(fund.overall.criterion).key("detalhe").value(fund.overall.detail);
  w.key("criterios").begin_object().key("dados");
  grade_json(w, fund.data_points);
  w.key("regressores");
  grade_json(w, fund.regressors);
  w.key("modeloF");
  grade_json(w, fund.model);
  w.end_object().end_object();
  // Precisão at the mean point of the regressors (NBR 14653-2 grades it at the appraised
  // property; the sample's centre is the model's typical property).
  for (std::size_t j = 0; j < k; ++j) {
    const auto& v = f.data.regressors[j].values;
    double sum = 0;
    for (double e : v) sum += e;
    x[j] = sum / static_cast<double>(v.size());
  }
  w.key("precisao");
  try {
    appraisal::Prediction centre = appraisal::predict(r, x, 0.80);
    w.begin_object().key("grau").value(centre.precisao.grade).key("criterio").value(centre.precisao.criterion);
    w.key("detalhe").value(centre.precisao.detail).key("amplitude").value(centre.amplitude80);
    w.key("pontoMedio").begin_array();
    for (double e : x) w.value(e);
    w.end_array().end_object();
  } catch (const Error& e) {  // a mean point outside a transform's domain: said, not fatal
    w.begin_object().key("erro").value(e.what()).end_object();
  }
  // IAAO ratio study: the model's estimates as "assessed" values against the observed ones.
  w.key("estudoRazao");
  try {
    appraisal::RatioStudy st = appraisal::ratio_study(estimates, f.data.dependent.values);
    auto check = [&](const char* name, const appraisal::RatioCheck& c) {
      w.key(name).begin_object().key("valor").value(c.value).key("minimo").value(c.lower).key("maximo").value(c.upper);
      w.key("aprovado").value(c.pass).end_object();
    };
    w.begin_object().key("n").value(i64(st.n)).key("media").value(st.mean).key("mediaPonderada").value(st.weighted_mean);
    check("mediana", st.median);
    check("cod", st.cod);
    check("prd", st.prd);
    check("prb", st.prb);
    w.key("aprovado").value(st.pass).end_object();
  } catch (const Error& e) {  // e.g. non-positive observed values: no ratio study, said why
    w.begin_object().key("erro").value(e.what()).end_object();
  }
  w.end_object();
  return std::move(w).str();
}

std::string coefficients_json(const Fitted& f) {
  JsonWriter w;
  w.begin_array();
  for (std::size_t i = 0; i < f.regression.coefficients.size(); ++i) {
    const auto& c = f.regression.coefficients[i];
    w.begin_object().key("nome").value(c.name).key("idCampo");
    i == 0 ? w.null() : w.value(f.fields[i].id);
    w.key("transformacao").value(transform_name(c.transform)).key("estimativa").value(c.estimate).end_object();
  }
  w.end_array();
  return std::move(w).str();
}

std::string predictor_json(const Fitted& f) {
  const appraisal::Regression& r = f.regression;
  JsonWriter w;
  w.begin_object().key("dependente").begin_object().key("chave").value(r.dependent);
  w.key("transformacao").value(transform_name(r.dependent_transform)).end_object();
  w.key("coeficientes").begin_array();
  for (const auto& c : r.coefficients)
    w.begin_object().key("chave").value(c.name).key("transformacao").value(transform_name(c.transform))
        .key("estimativa").value(c.estimate).end_object();
  w.end_array().key("xtxInversa").begin_array();
  for (double v : r.xtx_inverse) w.value(v);
  w.end_array().key("erroPadraoResidual").value(r.residual_se).key("n").value(i64(r.n)).key("k").value(i64(r.k));
  w.end_object();
  return std::move(w).str();
}

Predictor predictor_from_json(const std::string& json) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, json), "modelo");
  Predictor p;
  appraisal::Regression& r = p.regression;
  auto dep = jsonin::as_object(root["dependente"], "dependente");
  r.dependent = jsonin::string(dep, "chave");
  r.dependent_transform = transform_of(jsonin::string(dep, "transformacao"));
  for (auto e : jsonin::as_array(root["coeficientes"], "coeficientes")) {
    auto o = jsonin::as_object(e, "coeficientes");
    appraisal::Coefficient c;
    c.name = jsonin::string(o, "chave");
    c.transform = transform_of(jsonin::string(o, "transformacao"));
    c.estimate = jsonin::number(o, "estimativa");
    r.coefficients.push_back(c);
  }
  for (auto e : jsonin::as_array(root["xtxInversa"], "xtxInversa")) r.xtx_inverse.push_back(jsonin::to_number(e, "x"));
  r.residual_se = jsonin::number(root, "erroPadraoResidual");
  r.n = static_cast<std::size_t>(jsonin::integer(root, "n"));
  r.k = static_cast<std::size_t>(jsonin::integer(root, "k"));
  for (std::size_t i = 1; i < r.coefficients.size(); ++i) p.regressors.push_back(r.coefficients[i].name);
  return p;
}

}  // namespace cadastre::platform::mass_appraisal
