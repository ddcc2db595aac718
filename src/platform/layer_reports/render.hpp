// A layer report's rows as report files: the records of the filter (store.hpp) become a
// table with one column per field, sorted by the grouping field's value when there is one,
// and then a summary per group (count and sums of the numeric fields).
#pragma once

#include <string>
#include <vector>

#include "platform/layer_reports/store.hpp"
#include "report/document.hpp"
#include "report/table.hpp"

namespace cadastre::platform::layer_reports {

/// At most this many geometries in a rendered report (the subtitle says when more matched).
inline constexpr std::int64_t kMaxRows = 5000;

struct Rendered {
  report::Table rows;                   ///< "Geometria" + the fields
  std::optional<report::Table> groups;  ///< per value of the grouping field
};
Rendered render(const Stored& report, const std::vector<Column>& columns, const std::optional<Column>& group,
                const Records& records);

/// The PDF: a document with the report's heading, the rows' table and the summary.
std::string pdf(const Stored& report, const Rendered& r);
/// The workbook: sheet "Registros" and, when grouped, sheet "Resumo".
std::string xlsx(const Rendered& r);

}  // namespace cadastre::platform::layer_reports
