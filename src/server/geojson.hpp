// Rendering of GeoJSON answers shared by the layer routes.
#pragma once

#include <string>
#include <vector>

#include "http/http.hpp"
#include "cadastre/query.hpp"

namespace cadastre::server {

inline constexpr const char* kGeoJson = "application/geo+json";

/// FeatureCollection around a features array produced by PostgreSQL, with paging members
/// (numberReturned, pagina, limite) and self/next/prev links built from the request.
http::Response feature_collection(const http::Request& req, const std::string& features_json, long long returned,
                                  const query::Paging& paging);

/// OpenAPI entries of the paging, filter-type and sort parameters every list accepts,
/// appended to `extra` (route-specific parameters first).
std::vector<http::Param> with_paging(std::vector<http::Param> extra = {});
/// with_paging() plus the four bbox parameters.
std::vector<http::Param> with_paging_and_bbox();

/// The request's query fields as a ListQuery input.
query::QueryParams query_params(const http::Request& req);

}  // namespace cadastre::server
