#include "report/haru.hpp"

#include <array>
#include <cstdio>
#include <stdexcept>

#include "report/table.hpp"

namespace cadastre::report {
namespace {

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

// Signs of the valuation formulas and rules with no Windows-1252 glyph, written in ASCII.
std::string_view spelled_out(char32_t cp) {
  switch (cp) {
    case 0x2264: return "<=";
    case 0x2265: return ">=";
    case 0x2260: return "!=";
    case 0x2212: return "-";
    case 0x221A: return "raiz";
    case 0x03B1: return "alfa";
    case 0x03A3: return "soma";
    case 0x2192: return "->";
    default: return {};
  }
}

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
    if (!ok) {
      out += '?';
    } else if (auto spelled = spelled_out(cp); !spelled.empty()) {
      out += spelled;
    } else {
      out += cp1252_byte(cp);
    }
    i += ok ? len : 1;
  }
  return out;
}

namespace haru {

void on_error(HPDF_STATUS error, HPDF_STATUS detail, void* user) {
  auto* f = static_cast<Failure*>(user);
  if (f->error == 0) {
    f->error = error;
    f->detail = detail;
  }
}

[[noreturn]] void fail(const Failure& f) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "libharu erro 0x%04X/%u", static_cast<unsigned>(f.error), static_cast<unsigned>(f.detail));
  throw std::runtime_error(std::string("falha ao gerar o PDF: ") + buf);
}

float text_width(HPDF_Font font, float size, const std::string& s) {
  HPDF_TextWidth w = HPDF_Font_TextWidth(font, reinterpret_cast<const HPDF_BYTE*>(s.data()), static_cast<HPDF_UINT>(s.size()));
  return static_cast<float>(w.width) * size / 1000.0f;
}

std::string fit(HPDF_Font font, float size, const std::string& s, float width) {
  if (text_width(font, size, s) <= width) return s;
  float room = width - text_width(font, size, std::string(1, kEllipsis));
  if (room <= 0) return {};
  HPDF_REAL real = 0;
  HPDF_UINT n = HPDF_Font_MeasureText(font, reinterpret_cast<const HPDF_BYTE*>(s.data()), static_cast<HPDF_UINT>(s.size()),
                                      room, size, 0, 0, HPDF_FALSE, &real);
  return s.substr(0, n) + kEllipsis;
}

std::vector<std::string> wrap(HPDF_Font font, float size, const std::string& s, float width) {
  std::vector<std::string> lines;
  std::size_t at = 0;
  while (at < s.size()) {
    while (at < s.size() && s[at] == ' ') ++at;  // a line never starts with a space
    if (at >= s.size()) break;
    const auto* text = reinterpret_cast<const HPDF_BYTE*>(s.data() + at);
    auto left = static_cast<HPDF_UINT>(s.size() - at);
    HPDF_REAL real = 0;
    HPDF_UINT n = HPDF_Font_MeasureText(font, text, left, width, size, 0, 0, HPDF_TRUE, &real);
    if (n == 0) n = HPDF_Font_MeasureText(font, text, left, width, size, 0, 0, HPDF_FALSE, &real);
    if (n == 0) n = 1;  // narrower than one character: one per line rather than none
    std::string line = s.substr(at, n);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    lines.push_back(std::move(line));
    at += n;
  }
  if (lines.empty()) lines.emplace_back();
  return lines;
}

Doc new_document(Failure& failure, const std::string& title_cp1252) {
  Doc pdf(HPDF_New(on_error, &failure), &HPDF_Free);
  if (!pdf) throw std::runtime_error("falha ao gerar o PDF: sem memória");
  HPDF_SetCompressionMode(pdf.get(), HPDF_COMP_ALL);
  HPDF_SetInfoAttr(pdf.get(), HPDF_INFO_TITLE, title_cp1252.c_str());
  HPDF_SetInfoAttr(pdf.get(), HPDF_INFO_CREATOR, "libcadastre");
  return pdf;
}

std::string saved(HPDF_Doc pdf, const Failure& failure) {
  if (failure.error) fail(failure);
  if (HPDF_SaveToStream(pdf) != HPDF_OK) fail(failure);
  std::string out(HPDF_GetStreamSize(pdf), '\0');
  HPDF_UINT32 size = static_cast<HPDF_UINT32>(out.size());
  HPDF_ReadFromStream(pdf, reinterpret_cast<HPDF_BYTE*>(out.data()), &size);
  if (failure.error && failure.error != HPDF_STREAM_EOF) fail(failure);
  out.resize(size);
  return out;
}

}  // namespace haru
}  // namespace cadastre::report
