#include "http/body_codings.hpp"

#include <zlib.h>

#include <cstring>
#include <stdexcept>

namespace cadastre::http {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool starts_with_ignoring_case(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && equal_ignoring_case(s.substr(0, prefix.size()), prefix);
}

// The value of parameter `name` in a header value such as `form-data; name="a"; filename=b`.
std::string parameter(std::string_view value, std::string_view name) {
  std::size_t at = 0;
  while ((at = value.find(';', at)) != std::string_view::npos) {
    std::string_view rest = trim(value.substr(++at));
    if (!starts_with_ignoring_case(rest, name) || rest.size() <= name.size() ||
        rest[name.size()] != '=')
      continue;
    rest.remove_prefix(name.size() + 1);
    if (!rest.empty() && rest.front() == '"') {
      std::string out;
      for (std::size_t i = 1; i < rest.size() && rest[i] != '"'; ++i) {
        if (rest[i] == '\\' && i + 1 < rest.size()) ++i;
        out.push_back(rest[i]);
      }
      return out;
    }
    return std::string(trim(rest.substr(0, rest.find(';'))));
  }
  return {};
}

// One part: its header lines, a blank line, its content.
bool parse_part(std::string_view part, FilePart& out, std::string& reason) {
  auto blank = part.find("\r\n\r\n");
  if (blank == std::string_view::npos) {
    reason = "parte do multipart sem cabeçalho";
    return false;
  }
  std::string_view head = part.substr(0, blank + 2);
  out.content.assign(part.substr(blank + 4));
  while (!head.empty()) {
    auto end = head.find("\r\n");
    std::string_view line = head.substr(0, end);
    head.remove_prefix(end + 2);
    auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view name = trim(line.substr(0, colon)), value = trim(line.substr(colon + 1));
    if (equal_ignoring_case(name, "Content-Disposition")) {
      out.name = parameter(value, "name");
      out.filename = parameter(value, "filename");
    } else if (equal_ignoring_case(name, "Content-Type")) {
      out.content_type = std::string(value);
    }
  }
  if (out.name.empty()) {
    reason = "parte do multipart sem nome (Content-Disposition: form-data; name=...)";
    return false;
  }
  return true;
}

}  // namespace

bool parse_multipart(std::string_view content_type, std::string_view body,
                     std::vector<FilePart>& parts, std::string& reason) {
  if (!starts_with_ignoring_case(trim(content_type), "multipart/form-data")) return true;
  const std::string boundary = parameter(content_type, "boundary");
  if (boundary.empty() || boundary.size() > 70) {
    reason = "multipart/form-data sem boundary válido";
    return false;
  }
  const std::string delimiter = "--" + boundary;
  auto at = body.find(delimiter);
  if (at == std::string_view::npos) {
    reason = "corpo multipart sem o delimitador do boundary";
    return false;
  }
  at += delimiter.size();
  while (true) {
    std::string_view rest = body.substr(at);
    if (rest.substr(0, 2) == "--") return true;  // the closing delimiter
    if (rest.substr(0, 2) != "\r\n") break;
    auto next = body.find("\r\n" + delimiter, at + 2);
    if (next == std::string_view::npos) break;
    FilePart part;
    if (!parse_part(body.substr(at + 2, next - at - 2), part, reason)) return false;
    parts.push_back(std::move(part));
    at = next + 2 + delimiter.size();
  }
  reason = "corpo multipart incompleto (falta o delimitador final)";
  return false;
}

bool accepts_gzip(const std::string* accept_encoding) {
  if (!accept_encoding) return false;
  std::string_view list = *accept_encoding;
  while (!list.empty()) {
    auto comma = list.find(',');
    std::string_view item = trim(list.substr(0, comma));
    std::string_view coding = trim(item.substr(0, item.find(';')));
    if (equal_ignoring_case(coding, "gzip") || coding == "*") {
      auto q = item.find("q=");
      return q == std::string_view::npos ||
             std::strtod(std::string(item.substr(q + 2)).c_str(), nullptr) > 0;
    }
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return false;
}

bool compressible_type(std::string_view t) {
  t = trim(t.substr(0, t.find(';')));
  return starts_with_ignoring_case(t, "text/") || t.find("json") != std::string_view::npos ||
         t.find("xml") != std::string_view::npos || t.find("javascript") != std::string_view::npos;
}

// Level 4: most of level 6's ratio on JSON at about half its CPU time.
constexpr int kLevel = 4;

struct GzipWriter::State {
  z_stream z{};
};

GzipWriter::GzipWriter(Response::BodyWriter next)
    : state_(std::make_unique<State>()), next_(std::move(next)) {
  // 15 + 16: a gzip wrapper around the deflate stream.
  if (deflateInit2(&state_->z, kLevel, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("zlib: deflateInit2 falhou");
}

GzipWriter::~GzipWriter() { deflateEnd(&state_->z); }

bool GzipWriter::run(const char* data, std::size_t size, int flush) {
  char out[32 * 1024];
  z_stream& z = state_->z;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
  z.avail_in = static_cast<uInt>(size);
  do {
    z.next_out = reinterpret_cast<Bytef*>(out);
    z.avail_out = sizeof out;
    if (deflate(&z, flush) == Z_STREAM_ERROR) return false;
    std::size_t produced = sizeof out - z.avail_out;
    if (produced > 0 && !next_(out, produced)) return false;
  } while (z.avail_out == 0);
  return true;
}

bool GzipWriter::write(const char* data, std::size_t size) {
  // zlib takes uInt lengths: feed very large pieces in slices.
  constexpr std::size_t kSlice = 1u << 30;
  for (std::size_t done = 0; done < size; done += kSlice)
    if (!run(data + done, std::min(kSlice, size - done), Z_NO_FLUSH)) return false;
  return true;
}

bool GzipWriter::finish() { return run(nullptr, 0, Z_FINISH); }

std::string gzip(std::string_view data) {
  std::string out;
  out.reserve(data.size() / 4 + 64);
  GzipWriter w([&out](const char* p, std::size_t n) {
    out.append(p, n);
    return true;
  });
  if (!w.write(data.data(), data.size()) || !w.finish())
    throw std::runtime_error("zlib: deflate falhou");
  return out;
}

}  // namespace cadastre::http
