#include "http/response_head.hpp"

#include <ctime>
#include <utility>

namespace cadastre::http::wire {
namespace {

// The Date field (RFC 9110 §6.6.1), formatted at most once a second per thread.
const std::string& http_date() {
  static constexpr const char* days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static constexpr const char* months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                           "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  thread_local std::time_t cached = -1;
  thread_local std::string value;
  std::time_t now = std::time(nullptr);
  if (now != cached) {
    cached = now;
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[40];
    std::snprintf(buf, sizeof buf, "%s, %02d %s %04d %02d:%02d:%02d GMT", days[tm.tm_wday],
                  tm.tm_mday, months[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min,
                  tm.tm_sec);
    value = buf;
  }
  return value;
}

bool has_line_break(std::string_view s) {
  return s.find_first_of("\r\n") != std::string_view::npos;
}

}  // namespace

const char* reason_phrase(int status) {
  static constexpr std::pair<int, const char*> phrases[] = {
      {100, "Continue"},
      {200, "OK"},
      {201, "Created"},
      {202, "Accepted"},
      {204, "No Content"},
      {206, "Partial Content"},
      {301, "Moved Permanently"},
      {302, "Found"},
      {303, "See Other"},
      {304, "Not Modified"},
      {307, "Temporary Redirect"},
      {308, "Permanent Redirect"},
      {400, "Bad Request"},
      {401, "Unauthorized"},
      {403, "Forbidden"},
      {404, "Not Found"},
      {405, "Method Not Allowed"},
      {406, "Not Acceptable"},
      {408, "Request Timeout"},
      {409, "Conflict"},
      {410, "Gone"},
      {411, "Length Required"},
      {412, "Precondition Failed"},
      {413, "Content Too Large"},
      {415, "Unsupported Media Type"},
      {416, "Range Not Satisfiable"},
      {417, "Expectation Failed"},
      {422, "Unprocessable Content"},
      {426, "Upgrade Required"},
      {429, "Too Many Requests"},
      {431, "Request Header Fields Too Large"},
      {500, "Internal Server Error"},
      {501, "Not Implemented"},
      {502, "Bad Gateway"},
      {503, "Service Unavailable"},
      {504, "Gateway Timeout"},
      {505, "HTTP Version Not Supported"},
  };
  for (const auto& [code, phrase] : phrases)
    if (code == status) return phrase;
  return status < 400 ? "OK" : status < 500 ? "Bad Request" : "Internal Server Error";  // advisory
}

Framing framing_for(std::string_view method, const Response& res, int minor) {
  Framing f;
  f.head_only = method == "HEAD";
  f.bodyless = res.status == 204 || res.status == 304 || res.status < 200;
  const bool unknown_length = res.stream && !res.stream_length && !f.head_only && !f.bodyless;
  f.chunked = unknown_length && minor == 1;
  f.close_delimited = unknown_length && minor == 0;
  return f;
}

std::string response_head(const Response& res, const Framing& framing, bool keep_alive, int minor) {
  std::string out;
  out.reserve(512);
  out.append("HTTP/1.1 ")
      .append(std::to_string(res.status))
      .append(" ")
      .append(reason_phrase(res.status));
  out.append("\r\nDate: ").append(http_date());
  bool has_type = false, has_length = false;
  for (const auto& [name, value] : res.headers.items) {
    if (has_line_break(name) || has_line_break(value)) continue;  // never split a response
    if (equal_ignoring_case(name, "Content-Length")) {
      // The engine frames the body itself; a HEAD answer may state the length it stands for.
      if (!framing.head_only || framing.bodyless) continue;
      has_length = true;
    } else if (equal_ignoring_case(name, "Transfer-Encoding") ||
               equal_ignoring_case(name, "Connection") || equal_ignoring_case(name, "Date")) {
      continue;
    } else if (equal_ignoring_case(name, "Content-Type")) {
      has_type = true;
    }
    out.append("\r\n").append(name).append(": ").append(value);
  }
  if (!framing.bodyless) {
    if (!has_type && !res.content_type.empty())
      out.append("\r\nContent-Type: ").append(res.content_type);
    if (framing.chunked) {
      out.append("\r\nTransfer-Encoding: chunked");
    } else if (!has_length && !framing.close_delimited && (!res.stream || res.stream_length)) {
      // A HEAD of a stream of unknown length states none.
      const std::uint64_t length = res.stream ? *res.stream_length : res.body.size();
      out.append("\r\nContent-Length: ").append(std::to_string(length));
    }
  }
  if (!keep_alive || framing.close_delimited)
    out.append("\r\nConnection: close");
  else if (minor == 0)
    out.append("\r\nConnection: keep-alive");
  out.append("\r\n\r\n");
  return out;
}

}  // namespace cadastre::http::wire
