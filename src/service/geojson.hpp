// Rendering of GeoJSON answers shared by the layer routes.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "cadastre/query.hpp"
#include "http/http.hpp"

namespace cadastre::server {

inline constexpr const char* kGeoJson = "application/geo+json";

/// FeatureCollection around a features array produced by PostgreSQL, with paging members
/// (numberReturned, pagina, limite) and self/next/prev links built from the request; `more`
/// writes a route's own members after them (numberMatched, the relation's modo).
http::Response feature_collection(const http::Request& req, const std::string& features_json,
                                  long long returned, const query::Paging& paging,
                                  const std::function<void(JsonWriter&)>& more = nullptr);

/// The paging parameters query::normalize_paging reads (page, limit, page_size, offset and
/// the aliases pageNumber, pageSize), appended to `extra` (route-specific ones first).
std::vector<http::Param> paging_params(std::vector<http::Param> extra = {});
/// What a list read by query::parse_list_query accepts besides the bbox: paging_params(),
/// type, sort (and its aliases) and the free-form campo=valor filters on any column.
std::vector<http::Param> with_paging(std::vector<http::Param> extra = {});
/// with_paging(extra) plus the four bbox parameters.
std::vector<http::Param> with_paging_and_bbox(std::vector<http::Param> extra = {});

/// The request's query fields as a ListQuery input.
query::QueryParams query_params(const http::Request& req);

}  // namespace cadastre::server
