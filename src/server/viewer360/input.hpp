// Requests of /visualizador360 → values: the numbers of the radius paths, the row limit
// and the body of POST atts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cadastre/error.hpp"
#include "http/http.hpp"
#include "store/catalog.hpp"
#include "store/records.hpp"

namespace cadastre::server::viewer360 {

inline constexpr double kMaxRadius = 5000;  // metres
inline constexpr double kMaxHeight = 1000;  // metres
inline constexpr std::size_t kMaxBatchRows = 1000;

/// A decimal number from path segment `field` within (min, max] (min itself when
/// `min_inclusive`), 400 naming the field otherwise.
double path_number(const http::Request& req, std::string_view field, double min, double max, bool min_inclusive);

/// ?limit= of the radius searches (1..1000, 100 when absent).
std::int64_t rows_limit(const http::Request& req);

/// The two lists of POST atts.
inline const char* list_name(bool update) { return update ? "atualizar" : "inserir"; }

/// One record of POST atts: from list inserir or atualizar, at `index` in it.
struct AttributeRow {
  bool update = false;
  std::size_t index = 0;
  store::RecordInput input;
};

/// An error of one element of a list of the body (rendered with list_error).
struct ListItemError {
  Error error;
  bool update;
  std::size_t index;
};

/// The body of POST atts: its schema_table (members other than schema_table, inserir and
/// atualizar → 400).
std::string atts_table(std::string_view body);
/// The rows of POST atts, each parsed and checked against `table` before anything is
/// written: throws ListItemError for a bad row, Error for a bad body (none or too many rows).
std::vector<AttributeRow> parse_atts(std::string_view body, const store::Layer& table);

}  // namespace cadastre::server::viewer360
