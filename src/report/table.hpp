// Report files shared by cadastre-server (the explorer's exports) and cadastre-platform
// (layer reports, municipal reports): a table written as an .xlsx workbook (libxlsxwriter)
// or a landscape PDF (libharu). The writers know nothing of SQL or HTTP, so they can be
// exercised directly. Flowing documents (headings, key/value sections, tables, images) are
// in document.hpp; map pictures drawn from geometries in canvas.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cadastre::report {

struct Table {
  std::string title;     ///< first line of the sheet / of every PDF page
  std::string subtitle;  ///< second line (e.g. table and row count); may be empty
  std::vector<std::string> columns;
  std::vector<bool> numeric;  ///< per column: cells are numbers (numeric cells, right-aligned)
  std::vector<std::vector<std::optional<std::string>>> rows;  ///< UTF-8 text, nullopt for NULL
};

/// One worksheet of a workbook: its tab name (cut to Excel's 31 characters; []:*?/\ become
/// spaces) and its table.
struct Sheet {
  std::string name;
  Table table;
};

/// The table as an .xlsx file: title, subtitle, then the header row (bold, frozen, with an
/// autofilter) and one row per record; numeric columns hold numbers. Throws on failure.
std::string xlsx_document(const Table& table);
/// Several tables, one worksheet each, in order (at least one).
std::string xlsx_document(const std::vector<Sheet>& sheets);

/// The table as a PDF: A4 landscape pages, each with the title, the header row and as many
/// rows as fit, and "página N de M"; cells too wide for their column end in "…".
/// Text is set in the standard Helvetica fonts with WinAnsiEncoding (see to_cp1252).
std::string pdf_document(const Table& table);

/// UTF-8 → Windows-1252, the encoding of the PDF standard fonts: Portuguese letters, "º",
/// "²", "€", quotes and dashes keep their glyph; the signs of the valuation formulas
/// are spelled in ASCII ("≤" "<=", "≥" ">=", "≠" "!=", "−" "-", "√" "raiz", "α" "alfa",
/// "Σ" "soma", "→" "->"); control characters become spaces and other
/// characters without a glyph (or invalid UTF-8) become '?'.
std::string to_cp1252(std::string_view utf8);

/// The Content-Disposition of a report file: attachment with an ASCII file name made from
/// the report's name (accents dropped, other characters '_'; "relatorio-<id>" when nothing
/// is left) and the UTF-8 name percent-encoded in filename*; `extension` with its dot.
std::string content_disposition(const std::string& name, std::int64_t id, std::string_view extension);

/// A number in Brazilian notation: `decimals` places, ',' as the decimal mark and '.'
/// between thousands ("1.234.567,89"); "-" for NaN or infinity.
std::string number_br(double value, int decimals);

}  // namespace cadastre::report
