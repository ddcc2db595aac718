#include "platform/files/sniff.hpp"

#include <simdjson.h>

#include "cadastre/error.hpp"

namespace cadastre::platform::files {
namespace {

bool starts(std::string_view b, std::string_view prefix) { return b.substr(0, prefix.size()) == prefix; }

}  // namespace

std::optional<Kind> sniff(std::string_view b) {
  using namespace std::string_view_literals;
  if (starts(b, "\x89PNG\r\n\x1a\n"sv)) return Kind{"png", "image/png", true};
  if (starts(b, "\xFF\xD8\xFF"sv)) return Kind{"jpg", "image/jpeg", true};
  if (starts(b, "GIF87a") || starts(b, "GIF89a")) return Kind{"gif", "image/gif", true};
  if (b.size() >= 12 && starts(b, "RIFF") && b.substr(8, 4) == "WEBP") return Kind{"webp", "image/webp", true};
  if (starts(b, "II*\0"sv) || starts(b, "MM\0*"sv)) return Kind{"tif", "image/tiff", false};
  if (starts(b, "%PDF-")) return Kind{"pdf", "application/pdf", false};
  // ZIP: office documents, KMZ, zipped shapefiles.
  if (starts(b, "PK\x03\x04"sv)) return Kind{"zip", "application/zip", false};
  // ISO base media (MP4, MOV): a first box of type "ftyp".
  if (b.size() >= 12 && b.substr(4, 4) == "ftyp") return Kind{"mp4", "video/mp4", false};
  // Text has no signature: valid UTF-8 without NUL (DXF, CSV, GeoJSON, KML are text).
  // Executables (MZ, ELF, Mach-O) and other binaries hold NULs, so they end here.
  if (!b.empty() && b.find('\0') == std::string_view::npos && simdjson::validate_utf8(b.data(), b.size()))
    return Kind{"txt", "text/plain; charset=utf-8", false};
  return std::nullopt;
}

std::string accepted(bool images_only) {
  return images_only ? "PNG, JPEG, GIF ou WebP" : "imagens (PNG, JPEG, GIF, WebP, TIFF), PDF, ZIP, MP4 ou texto UTF-8";
}

Kind require_kind(std::string_view bytes, bool images_only, const std::string& field) {
  auto k = sniff(bytes);
  if (!k || (images_only && !k->image))
    throw Error(errc::unsupported_media_type,
                "o conteúdo do arquivo não é de um tipo aceito (aceitos: " + accepted(images_only) + ")", field);
  return *k;
}

}  // namespace cadastre::platform::files
