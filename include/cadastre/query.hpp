// The filter, sort and paging model shared by every list route, and the identifier rules
// applied to every name that comes from a URL before any catalog lookup.
//
// Pure functions over the query string: no SQL is built here. The servers resolve field
// names against the tenant catalog, emit names only through quote_identifier(), and bind
// every value (including like_pattern() results) as a parameter.
//
// Errors: every function throws cadastre::Error naming the offending query parameter in
// Error::field() (e.g. "limit", "type", "sort"), with a message in Portuguese.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cadastre/bbox.hpp"

namespace cadastre::query {

/// Decoded query-string parameters in request order; a key may repeat (the functions
/// below reject repeats of the keys they read, see each one).
using QueryParams = std::vector<std::pair<std::string, std::string>>;

// ---------------------------------------------------------------- identifiers

/// Longest identifier PostgreSQL keeps (NAMEDATALEN − 1); longer names are silently
/// truncated by the server, so they are rejected here instead.
inline constexpr std::size_t max_identifier_length = 63;

/// True when `name` is 1..63 bytes of ASCII letters, digits and '_', not starting with a
/// digit. This excludes quotes, dots (no schema qualification), spaces, NUL, '-', ';' and
/// any non-ASCII byte, so a valid name is safe in messages, logs and catalog lookups.
bool is_valid_identifier(std::string_view name) noexcept;

/// Throws Error(errc::invalid_identifier, ..., std::string(what)) unless
/// is_valid_identifier(name). `what` names the parameter (e.g. "camada", "campo").
void check_identifier(std::string_view name, std::string_view what);

/// PostgreSQL quoted identifier: `name` between double quotes, embedded '"' doubled
/// (`a"b` → `"a""b"`). The one quoting helper for names emitted into SQL. Throws
/// Error(errc::invalid_identifier, ..., "identificador") for an empty name, a NUL byte or
/// more than 63 bytes (which PostgreSQL would truncate into a different name).
std::string quote_identifier(std::string_view name);

/// `"schema"."name"`, each part quoted by quote_identifier().
std::string quote_qualified(std::string_view schema, std::string_view name);

// ---------------------------------------------------------------- integers

/// Parses a decimal integer query/path parameter: ASCII digits only (no sign, spaces,
/// exponent or fraction; leading zeros allowed), within [min, max]. Otherwise throws
/// Error(errc::invalid_argument, ..., std::string(field)).
std::int64_t parse_integer(std::string_view text, std::string_view field, std::int64_t min,
                           std::int64_t max);

// ---------------------------------------------------------------- paging

/// Page size used when the request names none.
inline constexpr std::int64_t default_page_size = 10;
/// Largest page size accepted; a larger `limit`/`page_size` is an error (not clamped), so
/// a client never silently receives fewer rows than it asked for.
inline constexpr std::int64_t max_page_size = 1000;

/// A normalized page: `page` is 1-based, `size` rows per page, `offset` rows skipped.
/// When the request gave `offset`, it is kept exact and `page` = offset / size + 1.
struct Paging {
  std::int64_t page = 1;                  ///< 1-based page number
  std::int64_t size = default_page_size;  ///< rows per page (LIMIT), 1..max_page_size
  std::int64_t offset = 0;                ///< rows to skip (OFFSET)
  bool operator==(const Paging&) const = default;
};

/// Reads the paging parameters, in any of the documented forms:
///   page + limit, page + page_size, offset + limit (or offset + page_size),
///   and the platform's aliases pageNumber (= page) and pageSize (= page_size).
/// Absent values default to page 1 and size default_page_size.
/// Errors (errc::invalid_argument, field = the parameter): non-numeric or negative values,
/// page 0, size 0 or above max_page_size, a key given twice, two names for the same
/// setting (limit with page_size, page with pageNumber, ...), page together with offset,
/// and an offset of the last row beyond int64.
Paging normalize_paging(const QueryParams& params);

// ---------------------------------------------------------------- filters

/// How a filter value is matched: `exact` (=), `contains` (LIKE '%v%', case-sensitive),
/// `icontains` (ILIKE '%v%', case-insensitive).
enum class FilterType { exact, contains, icontains };

/// "exact" | "contains" | "icontains" → FilterType; anything else (including other case)
/// throws Error(errc::invalid_argument, ..., "type").
FilterType parse_filter_type(std::string_view text);
/// The query-string spelling of a filter type.
std::string_view to_string(FilterType type) noexcept;
/// The SQL comparison for a filter type: "=", "LIKE" or "ILIKE" (operator text only;
/// the value is always a bound parameter).
std::string_view sql_operator(FilterType type) noexcept;

/// Escapes LIKE metacharacters: '%', '_' and the escape character '\' itself are
/// preceded by '\' (PostgreSQL's default LIKE escape character).
std::string escape_like(std::string_view value);

/// The bound parameter for a filter: for contains/icontains "%" + escape_like(value) + "%"
/// (e.g. "foo_bar" → "%foo\_bar%"); for exact the value unchanged (compared with =).
std::string like_pattern(FilterType type, std::string_view value);

/// One field filter: `field` (a valid identifier, still to be resolved against the
/// catalog), how it matches and the raw value.
struct Filter {
  std::string field;                    ///< column name from the query string
  FilterType type = FilterType::exact;  ///< from the `type` parameter
  std::string value;                    ///< raw value (not escaped)
  bool operator==(const Filter&) const = default;
};

/// Query-string keys that are never field filters.
inline constexpr std::array<std::string_view, 16> reserved_params = {
    "page",        "limit",        "page_size",   "offset",  "pageNumber", "pageSize",
    "type",        "sort",         "order",       "orderBy", "direction",  "minLongitude",
    "minLatitude", "maxLongitude", "maxLatitude", "format"};

/// True when `key` is one of reserved_params (case-sensitive).
bool is_reserved(std::string_view key) noexcept;

/// Every non-reserved parameter becomes a Filter, in request order, all with the type
/// given by `type` (default exact). Errors: unknown `type` (field "type"), a key that is
/// not a valid identifier (errc::invalid_identifier, field = the key), a filter field or
/// `type` given twice (errc::invalid_argument).
std::vector<Filter> parse_filters(const QueryParams& params);

// ---------------------------------------------------------------- sort

/// One sort key.
struct Sort {
  std::string field;        ///< column name (valid identifier, still to be resolved)
  bool descending = false;  ///< DESC when true
  bool operator==(const Sort&) const = default;
};

/// Reads `sort` (alias `orderBy`) and `order` (alias `direction`):
///   sort=campo (ascending), sort=-campo (descending), sort=a,-b (several keys),
///   sort=campo&order=asc|desc (order is case-insensitive and needs exactly one key
///   without '-').
/// No sort parameter → empty vector. Errors: invalid direction (field "order"), order
/// without sort or with a '-' key or several keys, empty key (field "sort"), an invalid
/// identifier (errc::invalid_identifier, field "sort"), a key given twice.
std::vector<Sort> parse_sort(const QueryParams& params);

// ---------------------------------------------------------------- bounding box

/// A lon/lat box (degrees, RFC 7946 order): the geometry module's box.
using BBox = geom::BBox;

/// Reads minLongitude, minLatitude, maxLongitude, maxLatitude: all four or none, each at
/// most once (geom::BBox::from_query does the parsing and the checks).
/// Errors (errc::invalid_argument, field = the parameter): some but not all given, a key
/// given twice, a value that is not a finite decimal number, longitude outside
/// [−180, 180], latitude outside [−90, 90], min greater than max.
std::optional<BBox> parse_bbox(const QueryParams& params);

// ---------------------------------------------------------------- everything

/// The full model of a list request.
struct ListQuery {
  Paging paging;                      ///< normalize_paging()
  std::vector<Filter> filters;        ///< parse_filters()
  std::vector<Sort> sort;             ///< parse_sort()
  std::optional<BBox> bbox;           ///< parse_bbox()
  std::optional<std::string> format;  ///< raw `format` value, if given (the route checks it)
};

/// Parses all of the above from one query string.
ListQuery parse_list_query(const QueryParams& params);

}  // namespace cadastre::query
