#pragma once
#include <string>
#include <string_view>

namespace cadastre::http {
/// The interactive documentation page: plain HTML + JavaScript, no external assets, so it
/// works offline. It reads the OpenAPI document and lets the reader call each route.
std::string docs_page(std::string_view title, std::string_view openapi_path);
}  // namespace cadastre::http
