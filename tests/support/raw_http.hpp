// A client connection speaking raw HTTP/1.1, for tests of what crosses the wire: refused
// heads, pipelining, time-outs, connection limits.
#pragma once

#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <string>
#include <string_view>

namespace cadastre::test {

// One client connection speaking raw HTTP/1.1.
class RawHttp {
 public:
  explicit RawHttp(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    timeval tv{5, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  }
  ~RawHttp() { ::close(fd_); }
  RawHttp(const RawHttp&) = delete;
  RawHttp& operator=(const RawHttp&) = delete;

  void send(std::string_view bytes) {
    REQUIRE(::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) ==
            static_cast<ssize_t>(bytes.size()));
  }
  /// Sends what the server takes; false once it has closed (or reset) the connection.
  bool try_send(std::string_view bytes) {
    return ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) ==
           static_cast<ssize_t>(bytes.size());
  }
  /// How long read() and closed() wait for the server (5 s unless set).
  void wait_at_most(std::chrono::milliseconds t) {
    timeval tv{static_cast<time_t>(t.count() / 1000),
               static_cast<suseconds_t>((t.count() % 1000) * 1000)};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  }

  struct Answer {
    int status = 0;  ///< 0: the connection closed before a whole answer
    std::string head, body;
    std::string header(std::string_view name) const {
      std::size_t at = head.find("\r\n");
      while (at != std::string::npos && at + 2 < head.size()) {
        std::size_t end = head.find("\r\n", at + 2);
        std::string_view line(head.data() + at + 2, end - at - 2);
        auto colon = line.find(':');
        if (colon == name.size() && strncasecmp(line.data(), name.data(), name.size()) == 0)
          return std::string(line.substr(colon + 2));
        at = end;
      }
      return {};
    }
  };

  /// Reads one answer (a HEAD answer has no body whatever its Content-Length says).
  Answer read(bool head_request = false) {
    std::size_t end;
    while ((end = buffer_.find("\r\n\r\n")) == std::string::npos)
      if (!fill()) return {};
    Answer a;
    a.head = buffer_.substr(0, end + 2);
    buffer_.erase(0, end + 4);
    a.status = std::stoi(a.head.substr(9, 3));
    std::string length = a.header("Content-Length");
    std::size_t n = head_request || length.empty() ? 0 : std::stoul(length);
    while (buffer_.size() < n)
      if (!fill()) return {};
    a.body = buffer_.substr(0, n);
    buffer_.erase(0, n);
    return a;
  }

  /// The bytes not yet read as an answer, or the next ones to arrive (a chunked body).
  std::string read_some() {
    if (buffer_.empty()) REQUIRE(fill());
    std::string out;
    out.swap(buffer_);
    return out;
  }

  /// True when the server closed the connection (and sent nothing more).
  bool closed() {
    if (!buffer_.empty()) return false;
    char c;
    ssize_t n = ::recv(fd_, &c, 1, 0);
    return n == 0 || (n < 0 && errno == ECONNRESET);
  }

 private:
  bool fill() {
    char chunk[8192];
    ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n <= 0) return false;
    buffer_.append(chunk, static_cast<std::size_t>(n));
    return true;
  }
  int fd_ = -1;
  std::string buffer_;
};

/// A GET request of `path` as it goes on the wire; `extra` holds more header lines, each
/// ending in CRLF.
inline std::string get_request(const std::string& path, const std::string& extra = "") {
  return "GET " + path + " HTTP/1.1\r\nHost: a\r\n" + extra + "\r\n";
}

}  // namespace cadastre::test
