// The flowing document writer: a cursor goes down the page and each block asks for the
// room it needs (a table row, a paragraph line, an image), starting a new page when it is
// not there. Footers are written at the end, when the page count is known.
#include "report/document.hpp"

#include <algorithm>
#include <stdexcept>

#include "report/haru.hpp"
#include "report/table.hpp"

namespace cadastre::report {
namespace document_layout {
namespace {

using namespace haru;

// A4 portrait, in points.
constexpr float kPageWidth = 595.28f, kPageHeight = 841.89f;
constexpr float kMargin = 42, kFooterRoom = 18, kPad = 3;
constexpr float kTextWidth = kPageWidth - 2 * kMargin;
constexpr float kTitleSize = 16, kSubtitleSize = 10, kHeading1 = 13, kHeading2 = 11;
constexpr float kTextSize = 9.5f, kLine = 12.5f, kCellSize = 8, kCellLine = 10, kFooterSize = 7;
constexpr float kMinColumn = 36;

HPDF_Image load(HPDF_Doc pdf, const Image& img) {
  const auto* bytes = reinterpret_cast<const HPDF_BYTE*>(img.bytes.data());
  auto size = static_cast<HPDF_UINT>(img.bytes.size());
  return img.format == Image::Format::png ? HPDF_LoadPngImageFromMem(pdf, bytes, size)
                                          : HPDF_LoadJpegImageFromMem(pdf, bytes, size);
}

class Writer {
 public:
  explicit Writer(const Document& d) : doc_(d), pdf_(new_document(failure_, to_cp1252(d.title))) {
    regular_ = HPDF_GetFont(pdf_.get(), "Helvetica", "WinAnsiEncoding");
    bold_ = HPDF_GetFont(pdf_.get(), "Helvetica-Bold", "WinAnsiEncoding");
    italic_ = HPDF_GetFont(pdf_.get(), "Helvetica-Oblique", "WinAnsiEncoding");
    if (!regular_ || !bold_ || !italic_) fail(failure_);
  }

  std::string render() {
    new_page();
    lines(bold_, kTitleSize, to_cp1252(doc_.title), 0, kTitleSize + 4);
    if (!doc_.subtitle.empty()) {
      HPDF_Page_SetRGBFill(page_, 0.35f, 0.35f, 0.35f);
      lines(regular_, kSubtitleSize, to_cp1252(doc_.subtitle), 0, kSubtitleSize + 3);
      HPDF_Page_SetRGBFill(page_, 0, 0, 0);
    }
    y_ -= 6;
    for (const Block& b : doc_.blocks) std::visit([this](const auto& block) { draw(block); }, b);
    footers();
    return saved(pdf_.get(), failure_);
  }

 private:
  void new_page() {
    page_ = HPDF_AddPage(pdf_.get());
    if (!page_) fail(failure_);
    HPDF_Page_SetSize(page_, HPDF_PAGE_SIZE_A4, HPDF_PAGE_PORTRAIT);
    pages_.push_back(page_);
    y_ = kPageHeight - kMargin;
  }

  // Room for `height` more points on this page, else a new page.
  void room(float height) {
    if (y_ - height < kMargin + kFooterRoom) new_page();
  }

  void text(HPDF_Font font, float size, float x, float baseline, const std::string& s) {
    HPDF_Page_BeginText(page_);
    HPDF_Page_SetFontAndSize(page_, font, size);
    HPDF_Page_TextOut(page_, x, baseline, s.c_str());
    HPDF_Page_EndText(page_);
  }

  // Wrapped text from `indent`, one line of `leading` at a time.
  void lines(HPDF_Font font, float size, const std::string& s, float indent, float leading) {
    for (const auto& line : wrap(font, size, s, kTextWidth - indent)) {
      room(leading);
      y_ -= leading;
      text(font, size, kMargin + indent, y_ + (leading - size) / 2, line);
    }
  }

  void draw(const Heading& h) {
    float size = h.level <= 1 ? kHeading1 : kHeading2;
    y_ -= h.level <= 1 ? 10 : 6;
    room(size + 4 + 3 * kLine);  // a heading never ends a page alone
    lines(bold_, size, to_cp1252(h.text), 0, size + 4);
    if (h.level <= 1) {
      HPDF_Page_SetRGBStroke(page_, 0.55f, 0.6f, 0.7f);
      HPDF_Page_SetLineWidth(page_, 0.6f);
      HPDF_Page_MoveTo(page_, kMargin, y_ - 2);
      HPDF_Page_LineTo(page_, kMargin + kTextWidth, y_ - 2);
      HPDF_Page_Stroke(page_);
    }
    y_ -= 4;
  }

  void draw(const Paragraph& p) {
    lines(regular_, kTextSize, to_cp1252(p.text), 0, kLine);
    y_ -= 4;
  }

  void draw(const KeyValues& kv) {
    const float label_width = kTextWidth * 0.36f;
    for (const auto& [key, value] : kv.items) {
      auto label = wrap(bold_, kCellSize + 1, to_cp1252(key), label_width - kPad);
      auto body = wrap(regular_, kCellSize + 1, to_cp1252(value), kTextWidth - label_width);
      std::size_t n = std::max(label.size(), body.size());
      float height = static_cast<float>(n) * (kCellLine + 1) + 2;
      room(height);
      for (std::size_t i = 0; i < n; ++i) {
        float baseline = y_ - static_cast<float>(i + 1) * (kCellLine + 1) + 2;
        if (i < label.size()) text(bold_, kCellSize + 1, kMargin, baseline, label[i]);
        if (i < body.size()) text(regular_, kCellSize + 1, kMargin + label_width, baseline, body[i]);
      }
      y_ -= height;
    }
    y_ -= 4;
  }

  // Column widths: the widest cell (a long text counts up to a third of the line), scaled
  // down together to the text width, never under kMinColumn.
  std::vector<float> widths(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
    std::vector<float> w(header.size(), kMinColumn);
    for (std::size_t c = 0; c < header.size(); ++c) {
      float natural = text_width(bold_, kCellSize, header[c]);
      for (const auto& row : rows) natural = std::max(natural, text_width(regular_, kCellSize, row[c]));
      w[c] = std::clamp(natural + 2 * kPad + 1, kMinColumn, kTextWidth / 3);
    }
    float total = 0;
    for (float x : w) total += x;
    float factor = total > kTextWidth ? kTextWidth / total : 1.0f;
    for (float& x : w) x = std::max(kMinColumn, x * factor);
    return w;
  }

  void grid_row(const std::vector<std::string>& cells, const std::vector<float>& w, const std::vector<bool>& numeric,
                bool header, bool stripe) {
    HPDF_Font font = header ? bold_ : regular_;
    std::vector<std::vector<std::string>> wrapped;
    std::size_t n = 1;
    for (std::size_t c = 0; c < w.size(); ++c) {
      wrapped.push_back(wrap(font, kCellSize, cells[c], w[c] - 2 * kPad));
      n = std::max(n, wrapped.back().size());
    }
    float height = static_cast<float>(n) * kCellLine + 2 * kPad;
    if (y_ - height < kMargin + kFooterRoom) {
      new_page();
      if (!header) grid_row(header_, w, numeric, true, false);
    }
    float total = 0;
    for (float x : w) total += x;
    if (header || stripe) {
      header ? HPDF_Page_SetRGBFill(page_, 0.85f, 0.88f, 0.95f) : HPDF_Page_SetRGBFill(page_, 0.95f, 0.95f, 0.95f);
      HPDF_Page_Rectangle(page_, kMargin, y_ - height, total, height);
      HPDF_Page_Fill(page_);
      HPDF_Page_SetRGBFill(page_, 0, 0, 0);
    }
    float x = kMargin;
    for (std::size_t c = 0; c < w.size(); ++c) {
      bool right = !header && c < numeric.size() && numeric[c];
      for (std::size_t i = 0; i < wrapped[c].size(); ++i) {
        const std::string& s = wrapped[c][i];
        float tx = right ? x + w[c] - kPad - text_width(font, kCellSize, s) : x + kPad;
        text(font, kCellSize, tx, y_ - kPad - static_cast<float>(i + 1) * kCellLine + 2, s);
      }
      x += w[c];
    }
    y_ -= height;
  }

  void draw(const Grid& g) {
    header_.clear();
    for (const auto& c : g.columns) header_.push_back(to_cp1252(c));
    std::vector<std::vector<std::string>> rows;
    for (const auto& r : g.rows) {
      std::vector<std::string> out(header_.size());
      for (std::size_t c = 0; c < out.size() && c < r.size(); ++c) out[c] = to_cp1252(r[c]);
      rows.push_back(std::move(out));
    }
    auto w = widths(header_, rows);
    room(2 * (kCellLine + 2 * kPad));
    grid_row(header_, w, g.numeric, true, false);
    for (std::size_t r = 0; r < rows.size(); ++r) grid_row(rows[r], w, g.numeric, false, r % 2 == 1);
    if (rows.empty()) lines(italic_, kCellSize, "Nenhum registro.", kPad, kCellLine + 2 * kPad);
    y_ -= 8;
  }

  void draw(const Image& img) {
    HPDF_Image image = load(pdf_.get(), img);
    if (!image) fail(failure_);
    float w = static_cast<float>(HPDF_Image_GetWidth(image)), h = static_cast<float>(HPDF_Image_GetHeight(image));
    float max_height = std::min(img.max_height, kPageHeight - 2 * kMargin - kFooterRoom - 30);
    float scale = std::min({kTextWidth / w, max_height / h, 2.0f});  // small pictures grow at most 2×
    w *= scale, h *= scale;
    room(h + (img.caption.empty() ? 6 : 18));
    y_ -= h;
    HPDF_Page_DrawImage(page_, image, kMargin + (kTextWidth - w) / 2, y_, w, h);
    if (!img.caption.empty()) lines(italic_, kCellSize, to_cp1252(img.caption), 0, kCellLine + 2);
    y_ -= 8;
  }

  void footers() {
    for (std::size_t i = 0; i < pages_.size(); ++i) {
      page_ = pages_[i];
      std::string footer = to_cp1252("página " + std::to_string(i + 1) + " de " + std::to_string(pages_.size()));
      HPDF_Page_SetRGBFill(page_, 0.3f, 0.3f, 0.3f);
      text(regular_, kFooterSize, kPageWidth - kMargin - text_width(regular_, kFooterSize, footer), kMargin / 2, footer);
      std::string title = fit(regular_, kFooterSize, to_cp1252(doc_.title), kTextWidth * 0.7f);
      text(regular_, kFooterSize, kMargin, kMargin / 2, title);
    }
  }

  const Document& doc_;
  Failure failure_;
  Doc pdf_;
  HPDF_Font regular_ = nullptr, bold_ = nullptr, italic_ = nullptr;
  HPDF_Page page_ = nullptr;
  std::vector<HPDF_Page> pages_;
  std::vector<std::string> header_;  ///< the current grid's header, repeated on new pages
  float y_ = 0;
};

}  // namespace
}  // namespace document_layout

bool readable(const Image& image) {
  haru::Failure failure;
  haru::Doc pdf = haru::new_document(failure, "");
  return document_layout::load(pdf.get(), image) != nullptr && failure.error == 0;
}

std::string pdf_document(const Document& document) { return document_layout::Writer(document).render(); }

}  // namespace cadastre::report
