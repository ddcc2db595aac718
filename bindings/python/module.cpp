// The compiled half of the Python binding. Structured values cross the boundary as JSON
// text: the library already reads and writes the documented JSON shapes, and the Python
// half (cadastre/__init__.py) turns them into dicts and lists. Library errors become
// cadastre.CadastreError with .code (the stable string code) and .field.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "cadastre/error.hpp"
#include "cadastre/schedule.hpp"
#include "cadastre/tiles.hpp"
#include "cadastre/valuation.hpp"

namespace py = pybind11;
using namespace cadastre;

PYBIND11_MODULE(_cadastre, m) {
  m.doc() = "libcadastre: valuation, tiles, scheduling, geostatistics and mass appraisal (compiled core)";

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      py::object cls = py::module_::import("cadastre").attr("CadastreError");
      py::object err = cls(e.what(), std::string(code_string(e.code())), e.field());
      PyErr_SetObject(cls.ptr(), err.ptr());
    }
  });

  m.def("land_value_json", &valuation::land_value_json, py::arg("inputs"), py::arg("profile") = "");
  m.def("construction_value_json", &valuation::construction_value_json, py::arg("inputs"), py::arg("profile") = "");
  m.def("iptu_json", &valuation::iptu_json, py::arg("inputs"), py::arg("profile") = "");

  m.def("tile_for_lonlat", [](double lon, double lat, int z) {
    auto t = tiles::tile_for_lonlat(lon, lat, z);
    return py::make_tuple(t.x, t.y, t.z);
  });
  m.def("tile_bounds", [](int x, int y, int z) {
    tiles::Tile t{x, y, z};
    t.validate();
    auto b = tiles::tile_bounds_lonlat(t);
    return py::make_tuple(b.min_lon, b.min_lat, b.max_lon, b.max_lat);
  });
  m.def("tiles_covering", [](const std::string& geojson, int z, std::size_t max_tiles) {
    std::vector<py::tuple> out;
    for (const auto& t : tiles::tiles_covering_geojson(geojson, z, max_tiles)) out.push_back(py::make_tuple(t.x, t.y, t.z));
    return out;
  }, py::arg("geojson"), py::arg("z"), py::arg("max_tiles") = tiles::default_max_tiles);
  m.def("quadkey", [](int x, int y, int z) {
    tiles::Tile t{x, y, z};
    t.validate();
    return tiles::quadkey(t);
  });

  m.def("next_status", [](const std::string& s) { return schedule::next_status(std::string_view(s)); });
  m.def("free_slots_json", [](const std::string& agenda, const std::string& reservations, const std::string& start,
                              const std::string& end, std::optional<std::string> now) {
    std::optional<std::string_view> at;
    if (now) at = *now;
    return schedule::free_slots_json(agenda, reservations, start, end, at);
  }, py::arg("agenda"), py::arg("reservations"), py::arg("start"), py::arg("end"), py::arg("now") = py::none());

  bind_geostat(m);
  bind_appraisal(m);
}
