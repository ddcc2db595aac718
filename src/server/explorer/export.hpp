// Report files of the explorer: the writers live in the shared report library
// (src/report/table.hpp, also used by the platform's reports); these names keep the
// explorer's code and tests reading as before.
#pragma once

#include "report/table.hpp"

namespace cadastre::server::explorer {

using ExportTable = report::Table;
using report::content_disposition;
using report::pdf_document;
using report::to_cp1252;
using report::xlsx_document;

}  // namespace cadastre::server::explorer
