// Private helpers of the PDF writers (table_pdf.cpp, document.cpp) over libharu: the
// standard Helvetica fonts (no font files to ship) with the WinAnsiEncoding encoder, so text
// is converted from UTF-8 to Windows-1252 first (to_cp1252). libharu reports errors through
// a C callback: it records the first one and the document is checked at the end (an
// exception must not cross libharu's C frames).
#pragma once

#include <hpdf.h>

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace cadastre::report::haru {

constexpr char kEllipsis = '\x85';  // "…" in Windows-1252

struct Failure {
  HPDF_STATUS error = 0, detail = 0;
};
/// The error callback: records the first failure in the Failure passed as user data.
void on_error(HPDF_STATUS error, HPDF_STATUS detail, void* user);
/// Throws std::runtime_error with libharu's code: not a catalog error, the server logs it
/// with the request id and answers the generic 500.
[[noreturn]] void fail(const Failure& f);

using Doc = std::unique_ptr<std::remove_pointer_t<HPDF_Doc>, void (*)(HPDF_Doc)>;
/// A new compressed document reporting to `failure`, titled `title_cp1252`.
Doc new_document(Failure& failure, const std::string& title_cp1252);
/// The document's bytes (throws when any call failed on the way).
std::string saved(HPDF_Doc pdf, const Failure& failure);

/// Width of Windows-1252 text `s` in points.
float text_width(HPDF_Font font, float size, const std::string& s);
/// The text as it fits in `width`: cut and ended with "…" when too wide.
std::string fit(HPDF_Font font, float size, const std::string& s, float width);
/// The text broken into lines no wider than `width`, at spaces when possible (a word
/// wider than the line is cut); at least one line.
std::vector<std::string> wrap(HPDF_Font font, float size, const std::string& s, float width);

}  // namespace cadastre::report::haru
