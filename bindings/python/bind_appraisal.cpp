// cadastre.appraisal in Python: regression fit (an opaque Regression object with its
// statistics as attributes and as_dict()), predict, and the IAAO ratio study (a dict).
// Variables are dicts {"name", "values", "transform"}; transforms are named "none", "ln",
// "inverse", "square", "sqrt" (see include/cadastre/appraisal.hpp).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "bindings.hpp"
#include "cadastre/appraisal.hpp"
#include "cadastre/error.hpp"

namespace py = pybind11;
using namespace cadastre;
using namespace cadastre::appraisal;

namespace {

Transform transform_of(const std::string& s) {
  if (s == "none" || s == "x") return Transform::none;
  if (s == "ln") return Transform::ln;
  if (s == "inverse" || s == "1/x") return Transform::inverse;
  if (s == "square") return Transform::square;
  if (s == "sqrt") return Transform::sqrt;
  throw Error(errc::invalid_argument,
              "transformação desconhecida '" + s + "' (none, ln, inverse, square, sqrt)",
              "transform");
}

const char* transform_name(Transform t) {
  switch (t) {
    case Transform::none: return "none";
    case Transform::ln: return "ln";
    case Transform::inverse: return "inverse";
    case Transform::square: return "square";
    case Transform::sqrt: return "sqrt";
  }
  return "?";
}

Variable variable_of(const py::handle& h) {
  auto d = h.cast<py::dict>();
  Variable v;
  v.name = d["name"].cast<std::string>();
  v.values = d["values"].cast<std::vector<double>>();
  if (d.contains("transform")) v.transform = transform_of(d["transform"].cast<std::string>());
  return v;
}

py::dict dict_of(const Grade& g) {
  py::dict d;
  d["grade"] = g.grade;
  d["criterion"] = g.criterion;
  d["detail"] = g.detail;
  return d;
}

py::dict dict_of(const Interval& i) {
  py::dict d;
  d["level"] = i.level;
  d["lower"] = i.lower;
  d["upper"] = i.upper;
  return d;
}

py::dict dict_of(const RatioCheck& c) {
  py::dict d;
  d["value"] = c.value;
  d["lower"] = c.lower;
  d["upper"] = c.upper;
  d["pass"] = c.pass;
  return d;
}

py::list coefficients_of(const Regression& r) {
  py::list out;
  for (const auto& c : r.coefficients) {
    py::dict d;
    d["name"] = c.name;
    d["transform"] = transform_name(c.transform);
    d["estimate"] = c.estimate;
    d["std_error"] = c.std_error;
    d["t"] = c.t;
    d["p"] = c.p;
    out.append(d);
  }
  return out;
}

py::dict fundamentacao_of(const Regression& r) {
  py::dict d;
  d["overall"] = dict_of(r.fundamentacao.overall);
  d["data_points"] = dict_of(r.fundamentacao.data_points);
  d["regressors"] = dict_of(r.fundamentacao.regressors);
  d["model"] = dict_of(r.fundamentacao.model);
  return d;
}

}  // namespace

void bind_appraisal(py::module_& m) {
  py::class_<Regression>(m, "Regression", "A fitted multiple linear regression (read-only).")
      .def_readonly("dependent", &Regression::dependent)
      .def_property_readonly("dependent_transform",
                             [](const Regression& r) { return transform_name(r.dependent_transform); })
      .def_readonly("n", &Regression::n)
      .def_readonly("k", &Regression::k)
      .def_property_readonly("coefficients", &coefficients_of)
      .def_readonly("r2", &Regression::r2)
      .def_readonly("adjusted_r2", &Regression::adjusted_r2)
      .def_readonly("residual_se", &Regression::residual_se)
      .def_readonly("sse", &Regression::sse)
      .def_readonly("ssr", &Regression::ssr)
      .def_readonly("f", &Regression::f)
      .def_readonly("f_p", &Regression::f_p)
      .def_readonly("fitted", &Regression::fitted)
      .def_readonly("residuals", &Regression::residuals)
      .def_readonly("standardized_residuals", &Regression::standardized_residuals)
      .def_readonly("outliers", &Regression::outliers)
      .def_property_readonly("fundamentacao", &fundamentacao_of)
      .def("as_dict", [](const Regression& r) {
        py::dict d;
        d["dependent"] = r.dependent;
        d["dependent_transform"] = transform_name(r.dependent_transform);
        d["n"] = r.n;
        d["k"] = r.k;
        d["coefficients"] = coefficients_of(r);
        d["r2"] = r.r2;
        d["adjusted_r2"] = r.adjusted_r2;
        d["residual_se"] = r.residual_se;
        d["sse"] = r.sse;
        d["ssr"] = r.ssr;
        d["f"] = r.f;
        d["f_p"] = r.f_p;
        d["fitted"] = r.fitted;
        d["residuals"] = r.residuals;
        d["standardized_residuals"] = r.standardized_residuals;
        d["outliers"] = r.outliers;
        d["fundamentacao"] = fundamentacao_of(r);
        return d;
      });

  m.def("regression_fit", [](const py::handle& dependent, const py::iterable& regressors) {
    Data data;
    data.dependent = variable_of(dependent);
    for (const py::handle& h : regressors) data.regressors.push_back(variable_of(h));
    return fit(data);
  }, py::arg("dependent"), py::arg("regressors"));

  m.def("regression_predict", [](const Regression& model, const std::vector<double>& x,
                                 double level) {
    const appraisal::Prediction p = predict(model, x, level);
    py::dict d;
    d["estimate"] = p.estimate;
    d["estimate_transformed"] = p.estimate_transformed;
    d["se_mean"] = p.se_mean;
    d["se_prediction"] = p.se_prediction;
    d["confidence"] = dict_of(p.confidence);
    d["prediction"] = dict_of(p.prediction);
    d["confidence_transformed"] = dict_of(p.confidence_transformed);
    d["prediction_transformed"] = dict_of(p.prediction_transformed);
    d["confidence80"] = dict_of(p.confidence80);
    d["amplitude80"] = p.amplitude80;
    d["precisao"] = dict_of(p.precisao);
    return d;
  }, py::arg("model"), py::arg("x"), py::arg("level") = 0.80);

  m.def("ratio_study", [](const std::vector<double>& assessed, const std::vector<double>& sales,
                          double level, double cod_max) {
    RatioStudyOptions o;
    o.level = level;
    o.cod_max = cod_max;
    const RatioStudy r = ratio_study(assessed, sales, o);
    py::dict d;
    d["n"] = r.n;
    d["ratios"] = r.ratios;
    d["mean"] = r.mean;
    d["weighted_mean"] = r.weighted_mean;
    d["median"] = dict_of(r.median);
    d["median_ci"] = dict_of(r.median_ci);
    d["median_ci_ranks"] = py::make_tuple(r.median_ci_lower_rank, r.median_ci_upper_rank);
    d["cod"] = dict_of(r.cod);
    d["prd"] = dict_of(r.prd);
    d["prb"] = dict_of(r.prb);
    d["prb_ci"] = dict_of(r.prb_ci);
    d["prb_p"] = r.prb_p;
    d["pass"] = r.pass;
    return d;
  }, py::arg("assessed"), py::arg("sale_prices"), py::arg("level") = RatioStudyOptions{}.level,
     py::arg("cod_max") = RatioStudyOptions{}.cod_max);
}
