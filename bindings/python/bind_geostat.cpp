// cadastre.geostat in Python: variograms, fit, ordinary kriging, lognormal back-transform.
// Samples are cadastre.Sample objects or (x, y, value) tuples; models, bins, predictions
// and grids are dicts with the names of the C++ fields (see include/cadastre/geostat.hpp).
// krige_grid releases the GIL while it works.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "bindings.hpp"
#include "cadastre/error.hpp"
#include "cadastre/geostat.hpp"

namespace py = pybind11;
using namespace cadastre;
using namespace cadastre::geostat;

namespace {

std::vector<Sample> samples_of(const py::iterable& items) {
  std::vector<Sample> out;
  for (const py::handle& it : items) {
    if (py::isinstance<Sample>(it)) {
      out.push_back(it.cast<Sample>());
    } else {
      auto t = it.cast<py::sequence>();
      if (t.size() != 3)
        throw Error(errc::invalid_argument, "amostra deve ser (x, y, valor)", "amostras");
      out.push_back({t[0].cast<double>(), t[1].cast<double>(), t[2].cast<double>()});
    }
  }
  return out;
}

ModelType type_of(const std::string& name) {
  if (name == "spherical" || name == "Sph" || name == "esferico") return ModelType::spherical;
  if (name == "exponential" || name == "Exp" || name == "exponencial") return ModelType::exponential;
  if (name == "gaussian" || name == "Gau" || name == "gaussiano") return ModelType::gaussian;
  throw Error(errc::invalid_argument,
              "modelo desconhecido '" + name + "' (spherical, exponential, gaussian)", "modelo");
}

const char* name_of(ModelType t) {
  switch (t) {
    case ModelType::spherical: return "spherical";
    case ModelType::exponential: return "exponential";
    case ModelType::gaussian: return "gaussian";
  }
  return "?";
}

Model model_of(const py::dict& d) {
  Model m;
  m.type = type_of(d.contains("type") ? d["type"].cast<std::string>() : "spherical");
  m.nugget = d.contains("nugget") ? d["nugget"].cast<double>() : 0.0;
  m.psill = d["psill"].cast<double>();
  m.range = d["range"].cast<double>();
  return m;
}

py::dict dict_of(const Model& m) {
  py::dict d;
  d["type"] = name_of(m.type);
  d["nugget"] = m.nugget;
  d["psill"] = m.psill;
  d["range"] = m.range;
  return d;
}

KrigingOptions options_of(std::size_t nmax, std::optional<double> maxdist,
                          std::optional<double> nodata, std::size_t threads) {
  KrigingOptions o;
  o.nmax = nmax;
  if (maxdist) o.maxdist = *maxdist;
  o.nodata = nodata;
  o.threads = threads;
  return o;
}

py::dict dict_of(const Grid& g) {
  py::dict d;
  d["origin_x"] = g.origin_x;
  d["origin_y"] = g.origin_y;
  d["cell_size"] = g.cell_size;
  d["rows"] = g.rows;
  d["cols"] = g.cols;
  d["values"] = g.values;
  d["variances"] = g.variances;
  d["lagranges"] = g.lagranges;
  d["neighbours"] = g.neighbours;
  return d;
}

Grid grid_of(const py::dict& d) {
  Grid g;
  g.origin_x = d["origin_x"].cast<double>();
  g.origin_y = d["origin_y"].cast<double>();
  g.cell_size = d["cell_size"].cast<double>();
  g.rows = d["rows"].cast<std::size_t>();
  g.cols = d["cols"].cast<std::size_t>();
  g.values = d["values"].cast<std::vector<double>>();
  g.variances = d["variances"].cast<std::vector<double>>();
  g.lagranges = d["lagranges"].cast<std::vector<double>>();
  g.neighbours = d["neighbours"].cast<std::vector<std::uint32_t>>();
  return g;
}

}  // namespace

void bind_geostat(py::module_& m) {
  py::class_<Sample>(m, "Sample", "A sample: x, y (metres) and the measured value.")
      .def(py::init<double, double, double>(), py::arg("x"), py::arg("y"), py::arg("value"))
      .def_readwrite("x", &Sample::x)
      .def_readwrite("y", &Sample::y)
      .def_readwrite("value", &Sample::value)
      .def("__repr__", [](const Sample& s) {
        return "Sample(" + std::to_string(s.x) + ", " + std::to_string(s.y) + ", " +
               std::to_string(s.value) + ")";
      });

  m.def("experimental_variogram", [](const py::iterable& samples, std::optional<double> cutoff,
                                     std::optional<double> width, std::size_t n_lags,
                                     std::optional<double> direction, double tolerance) {
    VariogramOptions o;
    o.cutoff = cutoff;
    o.lag_width = width;
    o.n_lags = n_lags;
    o.direction_deg = direction;
    o.tolerance_deg = tolerance;
    py::list out;
    for (const Bin& b : experimental_variogram(samples_of(samples), o)) {
      py::dict d;
      d["lower"] = b.lower;
      d["upper"] = b.upper;
      d["np"] = b.np;
      d["dist"] = b.dist;
      d["gamma"] = b.gamma;
      out.append(d);
    }
    return out;
  }, py::arg("samples"), py::arg("cutoff") = py::none(), py::arg("width") = py::none(),
     py::arg("n_lags") = 15, py::arg("direction") = py::none(), py::arg("tolerance") = 22.5);

  m.def("fit_variogram", [](const py::iterable& bins, const std::string& type,
                            std::optional<py::dict> start, std::size_t max_iterations,
                            double tolerance) {
    std::vector<Bin> b;
    for (const py::handle& h : bins) {
      auto d = h.cast<py::dict>();
      Bin x;
      x.np = d["np"].cast<std::size_t>();
      x.dist = d["dist"].cast<double>();
      x.gamma = d["gamma"].cast<double>();
      if (d.contains("lower")) x.lower = d["lower"].cast<double>();
      if (d.contains("upper")) x.upper = d["upper"].cast<double>();
      b.push_back(x);
    }
    std::optional<Model> s;
    if (start) s = model_of(*start);
    FitOptions o;
    o.max_iterations = max_iterations;
    o.tolerance = tolerance;
    const FitResult f = fit_variogram(b, type_of(type), s, o);
    py::dict d;
    d["model"] = dict_of(f.model);
    d["wsse"] = f.wsse;
    d["iterations"] = f.iterations;
    d["converged"] = f.converged;
    return d;
  }, py::arg("bins"), py::arg("type") = "spherical", py::arg("start") = py::none(),
     py::arg("max_iterations") = FitOptions{}.max_iterations,
     py::arg("tolerance") = FitOptions{}.tolerance);

  m.def("krige", [](const py::iterable& samples, const py::dict& model, double x, double y,
                    std::size_t nmax, std::optional<double> maxdist) {
    const geostat::Prediction p = krige(samples_of(samples), model_of(model), x, y,
                               options_of(nmax, maxdist, std::nullopt, 1));
    py::dict d;
    d["value"] = p.value;
    d["variance"] = p.variance;
    d["lagrange"] = p.lagrange;
    d["neighbours"] = p.neighbours;
    d["weights"] = p.weights;
    d["indices"] = p.indices;
    return d;
  }, py::arg("samples"), py::arg("model"), py::arg("x"), py::arg("y"), py::arg("nmax") = 0,
     py::arg("maxdist") = py::none());

  m.def("krige_grid", [](const py::iterable& samples, const py::dict& model, const py::dict& grid,
                         std::size_t nmax, std::optional<double> maxdist,
                         std::optional<double> nodata, std::size_t threads,
                         std::optional<std::vector<std::uint8_t>> mask) {
    const std::vector<Sample> s = samples_of(samples);
    const Model md = model_of(model);
    GridSpec spec;
    spec.origin_x = grid["origin_x"].cast<double>();
    spec.origin_y = grid["origin_y"].cast<double>();
    spec.cell_size = grid["cell_size"].cast<double>();
    spec.rows = grid["rows"].cast<std::size_t>();
    spec.cols = grid["cols"].cast<std::size_t>();
    const KrigingOptions o = options_of(nmax, maxdist, nodata, threads);
    Grid g;
    {
      py::gil_scoped_release free;
      g = mask ? krige_grid(s, md, spec, o, *mask) : krige_grid(s, md, spec, o);
    }
    return dict_of(g);
  }, py::arg("samples"), py::arg("model"), py::arg("grid"), py::arg("nmax") = 0,
     py::arg("maxdist") = py::none(), py::arg("nodata") = py::none(), py::arg("threads") = 0,
     py::arg("mask") = py::none());

  m.def("lognormal_back_transform_point", [](double value, double variance, double lagrange) {
    const LognormalEstimate e = lognormal_back_transform(value, variance, lagrange);
    py::dict d;
    d["value"] = e.value;
    d["variance"] = e.variance;
    return d;
  }, py::arg("value"), py::arg("variance"), py::arg("lagrange"));
  m.def("lognormal_back_transform_grid", [](const py::dict& grid) {
    return dict_of(lognormal_back_transform(grid_of(grid)));
  }, py::arg("grid"));
}
