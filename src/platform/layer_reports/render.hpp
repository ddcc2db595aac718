// A layer report's rows as report files: the geometries the filter keeps (search::rows)
// become a table with one column per field, sorted by the grouping field's value when there is one,
// and then a summary per group (count and sums of the numeric fields).
#pragma once

#include <string>
#include <vector>

#include "platform/layer_reports/store.hpp"
#include "platform/search/store.hpp"
#include "report/document.hpp"
#include "report/table.hpp"

namespace cadastre::platform::layer_reports {

/// At most this many geometries in a rendered report (the subtitle says when more matched).
inline constexpr std::int64_t kMaxRows = 5000;

struct Rendered {
  report::Table rows;                   ///< "Geometria" + the fields
  std::optional<report::Table> groups;  ///< per value of the grouping field
};
/// The fields the rows must carry, in order: the columns, then the grouping field.
std::vector<std::int64_t> fields(const std::vector<Column>& columns, const std::optional<Column>& group);
/// `rows` read with fields(columns, group).
Rendered render(const Stored& report, const std::vector<Column>& columns, const std::optional<Column>& group,
                const search::Rows& rows);

/// The PDF: a document with the report's heading, the rows' table and the summary.
std::string pdf(const Stored& report, const Rendered& r);
/// The workbook: sheet "Registros" and, when grouped, sheet "Resumo".
std::string xlsx(const Rendered& r);

}  // namespace cadastre::platform::layer_reports
