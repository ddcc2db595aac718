// The table as a landscape PDF (the explorer's export): libharu through haru.hpp.
#include <hpdf.h>

#include <algorithm>
#include <cstdint>

#include "report/haru.hpp"
#include "report/table.hpp"

namespace cadastre::report {
namespace table_layout {
namespace {

using namespace haru;

// A4 landscape, in points.
constexpr float kPageWidth = 841.89f, kPageHeight = 595.28f;
constexpr float kMargin = 36, kPad = 3;
constexpr float kTitleSize = 14, kSubtitleSize = 9, kCellSize = 8, kFooterSize = 7;
constexpr float kHeaderHeight = 16, kRowHeight = 13;
constexpr float kMinColumn = 28, kMaxColumn = 220;

class Writer {
 public:
  explicit Writer(const Table& t) : table_(t), pdf_(new_document(failure_, to_cp1252(t.title))) {
    regular_ = HPDF_GetFont(pdf_.get(), "Helvetica", "WinAnsiEncoding");
    bold_ = HPDF_GetFont(pdf_.get(), "Helvetica-Bold", "WinAnsiEncoding");
    if (!regular_ || !bold_) fail(failure_);
    title_ = to_cp1252(t.title);
    subtitle_ = to_cp1252(t.subtitle);
    for (const auto& c : t.columns) header_.push_back(to_cp1252(c));
    cells_.reserve(t.rows.size());
    for (const auto& row : t.rows) {
      std::vector<std::string> out(header_.size());
      for (std::size_t c = 0; c < out.size() && c < row.size(); ++c)
        if (row[c]) out[c] = to_cp1252(*row[c]);
      cells_.push_back(std::move(out));
    }
  }

  std::string render() {
    layout_columns();
    float table_top = kPageHeight - kMargin - kTitleSize - (subtitle_.empty() ? 6 : kSubtitleSize + 14);
    auto per_page = static_cast<std::size_t>(std::max(1.0f, (table_top - kHeaderHeight - kMargin) / kRowHeight));
    std::size_t pages = std::max<std::size_t>(1, (cells_.size() + per_page - 1) / per_page);
    for (std::size_t p = 0; p < pages; ++p) {
      std::size_t first = p * per_page, last = std::min(cells_.size(), first + per_page);
      page(table_top, first, last, p + 1, pages);
    }
    return saved(pdf_.get(), failure_);
  }

 private:
  // Natural widths (widest cell), scaled down together when the table is wider than the page.
  void layout_columns() {
    std::size_t n = header_.size();
    widths_.assign(n, kMinColumn);
    for (std::size_t c = 0; c < n; ++c) {
      float w = text_width(bold_, kCellSize, header_[c]);
      for (const auto& row : cells_) w = std::max(w, text_width(regular_, kCellSize, row[c]));
      widths_[c] = std::clamp(w + 2 * kPad, kMinColumn, kMaxColumn);
    }
    float total = 0, available = kPageWidth - 2 * kMargin;
    for (float w : widths_) total += w;
    if (total > available)
      for (float& w : widths_) w *= available / total;
  }

  void text(HPDF_Page pg, HPDF_Font font, float size, float x, float y, const std::string& s) {
    HPDF_Page_SetFontAndSize(pg, font, size);
    HPDF_Page_TextOut(pg, x, y, s.c_str());
  }

  void row_text(HPDF_Page pg, HPDF_Font font, float baseline, const std::vector<std::string>& row, bool header) {
    float x = kMargin;
    for (std::size_t c = 0; c < widths_.size(); ++c) {
      std::string s = fit(font, kCellSize, row[c], widths_[c] - 2 * kPad);
      bool right = !header && c < table_.numeric.size() && table_.numeric[c];
      float tx = right ? x + widths_[c] - kPad - text_width(font, kCellSize, s) : x + kPad;
      text(pg, font, kCellSize, tx, baseline, s);
      x += widths_[c];
    }
  }

  void page(float table_top, std::size_t first, std::size_t last, std::size_t number, std::size_t pages) {
    HPDF_Page pg = HPDF_AddPage(pdf_.get());
    if (!pg) fail(failure_);
    HPDF_Page_SetSize(pg, HPDF_PAGE_SIZE_A4, HPDF_PAGE_LANDSCAPE);
    float table_width = 0;
    for (float w : widths_) table_width += w;

    // Backgrounds first: graphics operators are not allowed inside a text object.
    HPDF_Page_SetRGBFill(pg, 0.85f, 0.88f, 0.95f);
    HPDF_Page_Rectangle(pg, kMargin, table_top - kHeaderHeight, table_width, kHeaderHeight);
    HPDF_Page_Fill(pg);
    if (last - first > 1) {  // stripes on every other row (Fill needs at least one rectangle)
      HPDF_Page_SetRGBFill(pg, 0.95f, 0.95f, 0.95f);
      for (std::size_t r = first + 1; r < last; r += 2) {
        float top = table_top - kHeaderHeight - static_cast<float>(r - first) * kRowHeight;
        HPDF_Page_Rectangle(pg, kMargin, top - kRowHeight, table_width, kRowHeight);
      }
      HPDF_Page_Fill(pg);
    }
    HPDF_Page_SetRGBStroke(pg, 0.4f, 0.4f, 0.4f);
    HPDF_Page_SetLineWidth(pg, 0.5f);
    HPDF_Page_MoveTo(pg, kMargin, table_top - kHeaderHeight);
    HPDF_Page_LineTo(pg, kMargin + table_width, table_top - kHeaderHeight);
    HPDF_Page_Stroke(pg);

    HPDF_Page_SetRGBFill(pg, 0, 0, 0);
    HPDF_Page_BeginText(pg);
    text(pg, bold_, kTitleSize, kMargin, kPageHeight - kMargin - kTitleSize, title_);
    if (!subtitle_.empty())
      text(pg, regular_, kSubtitleSize, kMargin, kPageHeight - kMargin - kTitleSize - kSubtitleSize - 6, subtitle_);
    row_text(pg, bold_, table_top - kHeaderHeight + 5, header_, true);
    for (std::size_t r = first; r < last; ++r) {
      float top = table_top - kHeaderHeight - static_cast<float>(r - first) * kRowHeight;
      row_text(pg, regular_, top - kRowHeight + 4, cells_[r], false);
    }
    if (cells_.empty()) text(pg, regular_, kCellSize, kMargin + kPad, table_top - kHeaderHeight - kRowHeight + 4, "Nenhum registro.");
    std::string footer = "página " + std::to_string(number) + " de " + std::to_string(pages);
    footer = to_cp1252(footer);
    text(pg, regular_, kFooterSize, kPageWidth - kMargin - text_width(regular_, kFooterSize, footer), kMargin / 2, footer);
    HPDF_Page_EndText(pg);
  }

  const Table& table_;
  Failure failure_;
  Doc pdf_;
  HPDF_Font regular_ = nullptr, bold_ = nullptr;
  std::string title_, subtitle_;
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> cells_;
  std::vector<float> widths_;
};

}  // namespace
}  // namespace table_layout

std::string pdf_document(const Table& table) { return table_layout::Writer(table).render(); }

}  // namespace cadastre::report
