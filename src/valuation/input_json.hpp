// Private: valuation inputs read from simdjson objects, so nested inputs (the "terreno"
// and "construcoes" of an IPTU input) share the parsers of the top-level ones.
#pragma once

#include "cadastre/valuation.hpp"
#include "core/json_in.hpp"

namespace cadastre::valuation::detail {

LandInput land_from_object(jsonin::object o);
ConstructionInput construction_from_object(jsonin::object o);
IptuInput iptu_from_object(jsonin::object o);

}  // namespace cadastre::valuation::detail
