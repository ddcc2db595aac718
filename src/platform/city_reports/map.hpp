// The map picture of the preview sheet: the shapes of store.hpp map_shapes drawn with the
// report canvas (src/report/canvas.hpp) into a PNG, framed on the lot and the platform
// geometry. Colours: neighbour lots light grey, buildings dark grey, the lot blue, the
// platform geometry outlined in red.
#pragma once

#include <string>
#include <vector>

#include "platform/city_reports/store.hpp"

namespace cadastre::platform::city_reports {

/// The PNG (width × height pixels); empty when there is nothing to frame.
std::string map_png(const std::vector<Shape>& shapes, int width, int height);

}  // namespace cadastre::platform::city_reports
