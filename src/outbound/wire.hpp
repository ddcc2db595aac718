// HTTP/1.1 on the wire, for the clients that call other servers (the gateway's upstream
// pool and cadastre_outbound's fetch): the request head they write, the response head they
// read and the chunked transfer coding (RFC 9112 §6–7). Pure functions over bytes, so the
// parsing rules are unit-tested without sockets.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cadastre::outbound {

/// Header fields in the order they were sent or received, names as written.
using HeaderList = std::vector<std::pair<std::string, std::string>>;

}  // namespace cadastre::outbound

namespace cadastre::outbound::wire {

/// The request head: "<method> <target> HTTP/1.1", Host, the given headers,
/// Accept-Encoding: identity unless they choose the codings (the gateway passes the
/// caller's choice on and the body back as it is), then Content-Type and Content-Length
/// (when a body follows or the method carries one) and a blank line.
std::string request_head(std::string_view method, std::string_view host, std::string_view target,
                         const HeaderList& headers, std::size_t body_size, std::string_view content_type);

/// True for a non-empty RFC 9110 token: a method or a header field name.
bool is_token(std::string_view s) noexcept;

/// How the body of a response is delimited.
enum class Framing {
  none,            ///< no body (HEAD, 1xx, 204, 304)
  length,          ///< Content-Length bytes
  chunked,         ///< Transfer-Encoding: chunked
  until_close,     ///< read until the destination closes (HTTP/1.0 style)
};

struct ResponseHead {
  int status = 0;
  HeaderList headers;
  std::size_t size = 0;            ///< bytes of the head, blank line included
  Framing framing = Framing::none;
  std::uint64_t content_length = 0;  ///< for Framing::length
  bool keep_alive = true;            ///< the connection may carry another request
};

/// Largest head accepted; a longer one is a broken destination.
inline constexpr std::size_t kMaxHeadBytes = 64 * 1024;

enum class HeadResult { complete, incomplete, malformed };

/// Parses the response head at the start of `bytes` (the answer to a `method` request).
/// incomplete: more bytes are needed (and fewer than kMaxHeadBytes arrived); malformed:
/// a bad status line, header line, Content-Length or Transfer-Encoding, or a head over
/// kMaxHeadBytes. Interim 1xx answers other than 101 are skipped by the caller (status
/// tells), as they carry no body.
HeadResult parse_response_head(std::string_view bytes, std::string_view method, ResponseHead& out);

/// Decodes the chunked coding incrementally: feed() takes whatever arrived and appends the
/// payload bytes to `out`; trailers are read and dropped.
class ChunkedDecoder {
 public:
  enum class State { size, size_ext, size_lf, data, data_cr, data_lf, trailer, trailer_lf, done, error };

  /// Consumes a prefix of `in` and returns how many bytes were used (all of them unless
  /// the body ends inside `in`, whose remainder then belongs to the next response).
  std::size_t feed(std::string_view in, std::string& out);
  bool done() const noexcept { return state_ == State::done; }
  bool failed() const noexcept { return state_ == State::error; }

 private:
  State state_ = State::size;
  std::uint64_t remaining_ = 0;  ///< bytes left in the current chunk
  int size_digits_ = 0;
  std::size_t trailer_line_ = 0;  ///< bytes in the current trailer line
};

}  // namespace cadastre::outbound::wire
