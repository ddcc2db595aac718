#include "outbound/wire.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

#include "http/http.hpp"

namespace cadastre::outbound::wire {
namespace {

bool header_is(std::string_view a, std::string_view b) noexcept { return http::equal_ignoring_case(a, b); }

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool is_token_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

// True when the comma-separated list `value` contains `token` (case-insensitive).
bool list_has(std::string_view value, std::string_view token) {
  while (!value.empty()) {
    auto comma = value.find(',');
    if (header_is(trim(value.substr(0, comma)), token)) return true;
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return false;
}

// The last coding of a Transfer-Encoding list.
std::string_view last_coding(std::string_view value) {
  auto comma = value.rfind(',');
  return trim(comma == std::string_view::npos ? value : value.substr(comma + 1));
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

bool is_token(std::string_view s) noexcept { return !s.empty() && std::all_of(s.begin(), s.end(), is_token_char); }

std::string request_head(std::string_view method, std::string_view host, std::string_view target,
                         const HeaderList& headers, std::size_t body_size, std::string_view content_type) {
  std::string h;
  h.reserve(256);
  h.append(method).append(" ").append(target).append(" HTTP/1.1\r\nHost: ").append(host).append("\r\n");
  bool coding_chosen = false;
  for (const auto& [k, v] : headers) {
    h.append(k).append(": ").append(v).append("\r\n");
    coding_chosen = coding_chosen || header_is(k, "Accept-Encoding");
  }
  if (!coding_chosen) h.append("Accept-Encoding: identity\r\n");
  const bool has_body = body_size > 0 || method == "POST" || method == "PUT" || method == "PATCH";
  if (has_body) {
    if (!content_type.empty()) h.append("Content-Type: ").append(content_type).append("\r\n");
    h.append("Content-Length: ").append(std::to_string(body_size)).append("\r\n");
  }
  h.append("\r\n");
  return h;
}

HeadResult parse_response_head(std::string_view bytes, std::string_view method, ResponseHead& out) {
  // Find the blank line that ends the head (CRLF CRLF, or bare LFs, which RFC 9112 §2.2
  // lets a recipient accept).
  std::size_t end = std::string_view::npos, pos = 0;
  while ((pos = bytes.find('\n', pos)) != std::string_view::npos) {
    std::size_t next = pos + 1;
    if (next < bytes.size() && bytes[next] == '\n') {
      end = next + 1;
      break;
    }
    if (next + 1 < bytes.size() && bytes[next] == '\r' && bytes[next + 1] == '\n') {
      end = next + 2;
      break;
    }
    pos = next;
  }
  if (end == std::string_view::npos) return bytes.size() >= kMaxHeadBytes ? HeadResult::malformed : HeadResult::incomplete;
  if (end > kMaxHeadBytes) return HeadResult::malformed;

  out = ResponseHead{};
  out.size = end;
  std::string_view head = bytes.substr(0, end);
  auto next_line = [&head]() {
    auto nl = head.find('\n');
    std::string_view line = head.substr(0, nl);
    head.remove_prefix(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
  };

  // Status line: HTTP/1.x SP 3DIGIT [SP reason]
  std::string_view status_line = next_line();
  if (status_line.size() < 12 || status_line.substr(0, 7) != "HTTP/1." || status_line[8] != ' ') return HeadResult::malformed;
  const bool http10 = status_line[7] == '0';
  if (!http10 && status_line[7] != '1') return HeadResult::malformed;
  int status = 0;
  auto [p, ec] = std::from_chars(status_line.data() + 9, status_line.data() + 12, status);
  if (ec != std::errc() || p != status_line.data() + 12 || status < 100 || status > 999) return HeadResult::malformed;
  if (status_line.size() > 12 && status_line[12] != ' ') return HeadResult::malformed;
  out.status = status;

  std::optional<std::uint64_t> length;
  std::string_view transfer_encoding, connection;
  for (std::string_view line = next_line(); !line.empty(); line = next_line()) {
    auto colon = line.find(':');
    if (colon == 0 || colon == std::string_view::npos) return HeadResult::malformed;
    std::string_view name = line.substr(0, colon);
    if (!is_token(name)) return HeadResult::malformed;  // also refuses obsolete line folding
    std::string_view value = trim(line.substr(colon + 1));
    if (header_is(name, "Content-Length")) {
      std::uint64_t n = 0;
      auto [q, err] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (value.empty() || err != std::errc() || q != value.data() + value.size()) return HeadResult::malformed;
      if (length && *length != n) return HeadResult::malformed;  // conflicting lengths: request smuggling
      length = n;
    } else if (header_is(name, "Transfer-Encoding")) {
      transfer_encoding = value;
    } else if (header_is(name, "Connection")) {
      connection = value;
    }
    out.headers.emplace_back(std::string(name), std::string(value));
  }

  out.keep_alive = http10 ? list_has(connection, "keep-alive") : !list_has(connection, "close");
  if (method == "HEAD" || (status >= 100 && status < 200) || status == 204 || status == 304) {
    out.framing = Framing::none;
  } else if (!transfer_encoding.empty()) {
    if (http10) return HeadResult::malformed;
    out.framing = header_is(last_coding(transfer_encoding), "chunked") ? Framing::chunked : Framing::until_close;
    if (length || out.framing == Framing::until_close) out.keep_alive = false;  // RFC 9112 §6.3 (3)
  } else if (length) {
    out.framing = Framing::length;
    out.content_length = *length;
  } else {
    out.framing = Framing::until_close;
    out.keep_alive = false;
  }
  return HeadResult::complete;
}

std::size_t ChunkedDecoder::feed(std::string_view in, std::string& out) {
  std::size_t i = 0;
  while (i < in.size() && state_ != State::done && state_ != State::error) {
    char c = in[i];
    switch (state_) {
      case State::size: {
        int d = hex_digit(c);
        if (d >= 0) {
          if (++size_digits_ > 15) {  // beyond any sane chunk (and 64-bit overflow)
            state_ = State::error;
            break;
          }
          remaining_ = remaining_ * 16 + static_cast<std::uint64_t>(d);
          ++i;
        } else if (size_digits_ == 0) {
          state_ = State::error;
        } else if (c == ';' || c == ' ' || c == '\t') {
          state_ = State::size_ext;
          ++i;
        } else if (c == '\r') {
          state_ = State::size_lf;
          ++i;
        } else if (c == '\n') {
          ++i;
          state_ = remaining_ == 0 ? State::trailer : State::data;
        } else {
          state_ = State::error;
        }
        break;
      }
      case State::size_ext:  // chunk extensions are ignored
        if (c == '\r') state_ = State::size_lf;
        else if (c == '\n') state_ = remaining_ == 0 ? State::trailer : State::data;
        ++i;
        break;
      case State::size_lf:
        if (c != '\n') {
          state_ = State::error;
          break;
        }
        ++i;
        state_ = remaining_ == 0 ? State::trailer : State::data;
        break;
      case State::data: {
        std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(remaining_, in.size() - i));
        out.append(in.data() + i, take);
        i += take;
        remaining_ -= take;
        if (remaining_ == 0) state_ = State::data_cr;
        break;
      }
      case State::data_cr:
        if (c == '\r') {
          state_ = State::data_lf;
          ++i;
        } else if (c == '\n') {
          ++i;
          size_digits_ = 0;
          state_ = State::size;
        } else {
          state_ = State::error;
        }
        break;
      case State::data_lf:
        if (c != '\n') {
          state_ = State::error;
          break;
        }
        ++i;
        size_digits_ = 0;
        state_ = State::size;
        break;
      case State::trailer:  // start of a trailer line; an empty line ends the body
        if (c == '\r') {
          state_ = State::trailer_lf;
          ++i;
        } else if (c == '\n') {
          ++i;
          state_ = trailer_line_ == 0 ? State::done : State::trailer;
          trailer_line_ = 0;
        } else {
          if (++trailer_line_ > kMaxHeadBytes) state_ = State::error;
          ++i;
        }
        break;
      case State::trailer_lf:
        if (c != '\n') {
          state_ = State::error;
          break;
        }
        ++i;
        state_ = trailer_line_ == 0 ? State::done : State::trailer;
        trailer_line_ = 0;
        break;
      case State::done:
      case State::error:
        break;
    }
  }
  return i;
}

}  // namespace cadastre::outbound::wire
