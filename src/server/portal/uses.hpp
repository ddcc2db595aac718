// The use-code table of the valuation lives in the shared library cadastre_property
// (src/property/uses.hpp, also used by cadastre-platform); the portal's names for it.
#pragma once

#include "property/uses.hpp"

namespace cadastre::server {

using property::use_mapping;
using property::use_mappings;
using property::UseMapping;

}  // namespace cadastre::server
