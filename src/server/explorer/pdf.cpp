// PDF through libharu: the standard Helvetica fonts (no font files to ship) with the
// WinAnsiEncoding encoder, so text is converted from UTF-8 to Windows-1252 first.
// libharu reports errors through a C callback: it records the first one and the document is
// checked at the end (an exception must not cross libharu's C frames).
#include <hpdf.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "server/explorer/export.hpp"

namespace cadastre::server::explorer {
namespace {

// A4 landscape, in points.
constexpr float kPageWidth = 841.89f, kPageHeight = 595.28f;
constexpr float kMargin = 36, kPad = 3;
constexpr float kTitleSize = 14, kSubtitleSize = 9, kCellSize = 8, kFooterSize = 7;
constexpr float kHeaderHeight = 16, kRowHeight = 13;
constexpr float kMinColumn = 28, kMaxColumn = 220;
constexpr char kEllipsis = '\x85';  // "…" in Windows-1252

// Windows-1252 bytes 0x80..0x9F and the code points they stand for (0 = unassigned).
constexpr std::array<char32_t, 32> kHighBlock = {
    0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0,      0x017D, 0,      0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};

char cp1252_byte(char32_t cp) {
  if (cp < 0x20 || cp == 0x7F) return ' ';
  if (cp < 0x80 || (cp >= 0xA0 && cp <= 0xFF)) return static_cast<char>(cp);
  for (std::size_t i = 0; i < kHighBlock.size(); ++i)
    if (kHighBlock[i] != 0 && kHighBlock[i] == cp) return static_cast<char>(0x80 + i);
  return '?';
}

struct Failure {
  HPDF_STATUS error = 0, detail = 0;
};

void on_error(HPDF_STATUS error, HPDF_STATUS detail, void* user) {
  auto* f = static_cast<Failure*>(user);
  if (f->error == 0) {
    f->error = error;
    f->detail = detail;
  }
}

// Not a catalog error: the server logs the library's code with the request id and
// answers the generic 500, so it never reaches the client.
[[noreturn]] void fail(const Failure& f) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "libharu erro 0x%04X/%u", static_cast<unsigned>(f.error), static_cast<unsigned>(f.detail));
  throw std::runtime_error(std::string("falha ao gerar o PDF: ") + buf);
}

float text_width(HPDF_Font font, float size, const std::string& s) {
  HPDF_TextWidth w = HPDF_Font_TextWidth(font, reinterpret_cast<const HPDF_BYTE*>(s.data()), static_cast<HPDF_UINT>(s.size()));
  return static_cast<float>(w.width) * size / 1000.0f;
}

// The text as it fits in `width`: cut and ended with "…" when too wide.
std::string fit(HPDF_Font font, float size, const std::string& s, float width) {
  if (text_width(font, size, s) <= width) return s;
  float room = width - text_width(font, size, std::string(1, kEllipsis));
  if (room <= 0) return {};
  HPDF_REAL real = 0;
  HPDF_UINT n = HPDF_Font_MeasureText(font, reinterpret_cast<const HPDF_BYTE*>(s.data()), static_cast<HPDF_UINT>(s.size()),
                                      room, size, 0, 0, HPDF_FALSE, &real);
  return s.substr(0, n) + kEllipsis;
}

class Writer {
 public:
  explicit Writer(const ExportTable& t) : table_(t), pdf_(HPDF_New(on_error, &failure_), &HPDF_Free) {
    if (!pdf_) throw std::runtime_error("falha ao gerar o PDF: sem memória");
    HPDF_SetCompressionMode(pdf_.get(), HPDF_COMP_ALL);
    regular_ = HPDF_GetFont(pdf_.get(), "Helvetica", "WinAnsiEncoding");
    bold_ = HPDF_GetFont(pdf_.get(), "Helvetica-Bold", "WinAnsiEncoding");
    if (!regular_ || !bold_) fail(failure_);
    title_ = to_cp1252(t.title);
    subtitle_ = to_cp1252(t.subtitle);
    HPDF_SetInfoAttr(pdf_.get(), HPDF_INFO_TITLE, title_.c_str());
    HPDF_SetInfoAttr(pdf_.get(), HPDF_INFO_CREATOR, "libcadastre");
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
    if (failure_.error) fail(failure_);
    if (HPDF_SaveToStream(pdf_.get()) != HPDF_OK) fail(failure_);
    std::string out(HPDF_GetStreamSize(pdf_.get()), '\0');
    HPDF_UINT32 size = static_cast<HPDF_UINT32>(out.size());
    HPDF_ReadFromStream(pdf_.get(), reinterpret_cast<HPDF_BYTE*>(out.data()), &size);
    if (failure_.error && failure_.error != HPDF_STREAM_EOF) fail(failure_);
    out.resize(size);
    return out;
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

  const ExportTable& table_;
  Failure failure_;
  std::unique_ptr<std::remove_pointer_t<HPDF_Doc>, void (*)(HPDF_Doc)> pdf_;
  HPDF_Font regular_ = nullptr, bold_ = nullptr;
  std::string title_, subtitle_;
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> cells_;
  std::vector<float> widths_;
};

}  // namespace

std::string to_cp1252(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    auto b = static_cast<unsigned char>(s[i]);
    std::size_t len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > s.size()) {  // a stray continuation byte or a cut sequence
      out += '?';
      ++i;
      continue;
    }
    char32_t cp = len == 1 ? b : b & (0x7F >> len);
    bool ok = true;
    for (std::size_t k = 1; k < len; ++k) {
      auto c = static_cast<unsigned char>(s[i + k]);
      ok = ok && (c & 0xC0) == 0x80;
      cp = (cp << 6) | (c & 0x3F);
    }
    out += ok ? cp1252_byte(cp) : '?';
    i += ok ? len : 1;
  }
  return out;
}

std::string pdf_document(const ExportTable& table) { return Writer(table).render(); }

}  // namespace cadastre::server::explorer
