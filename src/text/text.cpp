#include "text/text.hpp"

#include <utf8proc.h>

#include <cstdlib>
#include <memory>

namespace cadastre::text {
namespace {

std::string map(std::string_view s, int options) {
  utf8proc_uint8_t* out = nullptr;
  utf8proc_ssize_t n = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(s.data()),
                                    static_cast<utf8proc_ssize_t>(s.size()), &out,
                                    static_cast<utf8proc_option_t>(options));
  std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> owned(out, &std::free);
  if (n < 0) return std::string(s);
  return std::string(reinterpret_cast<const char*>(out), static_cast<std::size_t>(n));
}

std::string_view trimmed(std::string_view s) {
  auto first = s.find_first_not_of(" \t\r\n"), last = s.find_last_not_of(" \t\r\n");
  return first == std::string_view::npos ? std::string_view() : s.substr(first, last - first + 1);
}

}  // namespace

std::string nfkc(std::string_view s) { return map(s, UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT); }

std::string fold_identifier(std::string_view s) {
  // Folded and normalised twice over: case folding can produce characters NFKC changes.
  std::string folded = map(s, UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT | UTF8PROC_CASEFOLD);
  return std::string(trimmed(map(folded, UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT)));
}

}  // namespace cadastre::text
