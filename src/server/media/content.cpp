#include "server/media/content.hpp"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <cctype>

#include "cadastre/error.hpp"
#include "http/http.hpp"
#include "media_type/media_type.hpp"
#include "file_store/keys.hpp"

namespace cadastre::server::media {
namespace {

using media_type::Family;

// The extensions /midia accepts, each with the family its bytes must be (the signatures
// are the shared sniffer's, src/media_type/) and the Content-Type it is served with.
struct Format {
  std::string_view extension, content_type;
  Family family;
};

constexpr std::array kFormats = {
    Format{".png", "image/png", Family::png},
    Format{".jpg", "image/jpeg", Family::jpeg},
    Format{".jpeg", "image/jpeg", Family::jpeg},
    Format{".gif", "image/gif", Family::gif},
    Format{".webp", "image/webp", Family::webp},
    Format{".tif", "image/tiff", Family::tiff},
    Format{".tiff", "image/tiff", Family::tiff},
    Format{".pdf", "application/pdf", Family::pdf},
    Format{".mp4", "video/mp4", Family::mp4},
    Format{".txt", "text/plain; charset=utf-8", Family::text},
    Format{".csv", "text/csv; charset=utf-8", Family::text},
    Format{".json", "application/json; charset=utf-8", Family::text},
};

const Format* format_of(std::string_view extension) {
  for (const auto& f : kFormats)
    if (f.extension == extension) return &f;
  return nullptr;
}

}  // namespace

std::string normalize_extension(std::string_view extensao, const std::string& field) {
  std::string e = http::lower_ascii(extensao);
  if (!cadastre::media::valid_extension(e))
    throw Error(errc::invalid_argument, "extensão inválida: use um ponto e até 10 letras ou dígitos (ex.: .png)", field);
  return e;
}

std::string check_content(std::string_view extension, std::string_view bytes, const std::vector<std::string>& allowed) {
  const Format* f = format_of(extension);
  if (!f || std::find(allowed.begin(), allowed.end(), extension) == allowed.end()) {
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    throw Error(errc::unsupported_media_type,
                "extensão não aceita: " + std::string(extension) + " (aceitas: " + list + ")", "extensao");
  }
  if (!media_type::matches(f->family, bytes))
    throw Error(errc::unsupported_media_type,
                "o conteúdo do arquivo não corresponde à extensão " + std::string(extension), "arquivo");
  return std::string(f->content_type);
}

std::string content_type_of(std::string_view extension) {
  const Format* f = format_of(extension);
  return f ? std::string(f->content_type) : "application/octet-stream";
}

std::string clean_name(std::string_view nome, const std::string& field) {
  auto slash = nome.find_last_of("/\\");
  if (slash != std::string_view::npos) nome = nome.substr(slash + 1);
  std::string out;
  for (char c : nome)
    if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) out += c;
  auto first = out.find_first_not_of(' ');
  out = first == std::string::npos ? "" : out.substr(first, out.find_last_not_of(' ') - first + 1);
  if (out.empty()) throw Error(errc::invalid_argument, "informe o nome do arquivo", field);
  if (out.size() > 255) throw Error(errc::invalid_argument, "nome do arquivo longo demais (máximo 255 bytes)", field);
  if (!simdjson::validate_utf8(out.data(), out.size()))
    throw Error(errc::invalid_argument, "o nome do arquivo não é UTF-8 válido", field);
  return out;
}

}  // namespace cadastre::server::media
