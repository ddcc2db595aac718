// What the engine does to bodies besides carrying them: multipart/form-data request
// bodies split into parts (RFC 7578), and gzip for answers the caller accepts compressed.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "http/http.hpp"

namespace cadastre::http {

/// Splits a multipart/form-data body into `parts` (every part, files and plain fields).
/// False, with `reason`, when `content_type` names multipart/form-data and the body is
/// malformed; true and no parts when the request is not multipart.
bool parse_multipart(std::string_view content_type, std::string_view body,
                     std::vector<FilePart>& parts, std::string& reason);

/// True when the caller's Accept-Encoding admits gzip (a "gzip;q=0" refuses it).
bool accepts_gzip(const std::string* accept_encoding);

/// True for the types worth compressing (JSON, GeoJSON, text, XML, JavaScript, SVG).
bool compressible_type(std::string_view content_type);

/// `data` as one gzip member (RFC 1952).
std::string gzip(std::string_view data);

/// A streamed body compressed as it is written: each write() passes the compressed bytes
/// on to `next`; finish() writes the trailer. False once `next` refused a write.
class GzipWriter {
 public:
  explicit GzipWriter(Response::BodyWriter next);
  ~GzipWriter();
  GzipWriter(const GzipWriter&) = delete;
  GzipWriter& operator=(const GzipWriter&) = delete;
  bool write(const char* data, std::size_t size);
  bool finish();

 private:
  bool run(const char* data, std::size_t size, int flush);
  struct State;
  std::unique_ptr<State> state_;
  Response::BodyWriter next_;
};

}  // namespace cadastre::http
