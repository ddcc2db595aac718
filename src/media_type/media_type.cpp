#include "media_type/media_type.hpp"

#include <simdjson.h>

#include <array>

#include "cadastre/error.hpp"

namespace cadastre::media_type {
namespace {

bool starts(std::string_view b, std::string_view prefix) { return b.substr(0, prefix.size()) == prefix; }

struct Entry {
  Family family;
  std::string_view extension, media_type;
  bool image;
};

// In sniff() order: text, which has no signature, last.
constexpr std::array<Entry, 9> kKinds = {{
    {Family::png, "png", "image/png", true},
    {Family::jpeg, "jpg", "image/jpeg", true},
    {Family::gif, "gif", "image/gif", true},
    {Family::webp, "webp", "image/webp", true},
    {Family::tiff, "tif", "image/tiff", false},
    {Family::pdf, "pdf", "application/pdf", false},
    {Family::zip, "zip", "application/zip", false},
    {Family::mp4, "mp4", "video/mp4", false},
    {Family::text, "txt", "text/plain; charset=utf-8", false},
}};

}  // namespace

bool matches(Family family, std::string_view b) {
  using namespace std::string_view_literals;
  switch (family) {
    case Family::png: return starts(b, "\x89PNG\r\n\x1a\n"sv);
    case Family::jpeg: return starts(b, "\xFF\xD8\xFF"sv);
    case Family::gif: return starts(b, "GIF87a") || starts(b, "GIF89a");
    case Family::webp: return b.size() >= 12 && starts(b, "RIFF") && b.substr(8, 4) == "WEBP";
    case Family::tiff: return starts(b, "II*\0"sv) || starts(b, "MM\0*"sv);
    case Family::pdf: return starts(b, "%PDF-");
    // ZIP: office documents, KMZ, zipped shapefiles.
    case Family::zip: return starts(b, "PK\x03\x04"sv);
    // ISO base media (MP4, MOV): a first box of type "ftyp".
    case Family::mp4: return b.size() >= 12 && b.substr(4, 4) == "ftyp";
    // DXF, CSV, GeoJSON, KML are text; executables (MZ, ELF, Mach-O) hold NULs.
    case Family::text:
      return b.find('\0') == std::string_view::npos && simdjson::validate_utf8(b.data(), b.size());
  }
  return false;
}

std::optional<Kind> sniff(std::string_view bytes) {
  if (bytes.empty()) return std::nullopt;
  for (const auto& e : kKinds)
    if (matches(e.family, bytes))
      return Kind{e.family, std::string(e.extension), std::string(e.media_type), e.image};
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
  return *std::move(k);
}

}  // namespace cadastre::media_type
