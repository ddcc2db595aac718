// The parts of the _cadastre module, each in its own file.
#pragma once

#include <pybind11/pybind11.h>

void bind_geostat(pybind11::module_& m);
void bind_appraisal(pybind11::module_& m);
