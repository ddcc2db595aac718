#include "http/listener.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <ctime>
#include <mutex>
#include <optional>
#include <string_view>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <utility>

#include "http/http.hpp"
#include "http/request_head.hpp"

namespace cadastre::http {
namespace {

using Clock = std::chrono::steady_clock;

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
      {422, "Unprocessable Content"},
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
  return status < 400   ? "OK"
         : status < 500 ? "Bad Request"
                        : "Internal Server Error";  // the phrase is advisory
}

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

std::string address_text(const sockaddr_storage& addr) {
  char buf[INET6_ADDRSTRLEN] = {};
  if (addr.ss_family == AF_INET)
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(addr).sin_addr, buf, sizeof buf);
  else if (addr.ss_family == AF_INET6)
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6&>(addr).sin6_addr, buf, sizeof buf);
  return buf;
}

void set_timeout(int fd, int option, std::chrono::seconds t) {
  timeval tv{static_cast<time_t>(t.count()), 0};
  ::setsockopt(fd, SOL_SOCKET, option, &tv, sizeof tv);
}

// Writes every byte of `parts` (one sendmsg when the socket takes it all). False when the
// client has gone or the write time-out passed.
bool write_all(int fd, iovec* parts, int count) {
  while (count > 0) {
    msghdr msg{};
    msg.msg_iov = parts;
    msg.msg_iovlen = static_cast<std::size_t>(count);
    ssize_t n = ::sendmsg(fd, &msg, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    auto left = static_cast<std::size_t>(n);
    while (count > 0 && left >= parts->iov_len) {
      left -= parts->iov_len;
      ++parts;
      --count;
    }
    if (count > 0) {
      parts->iov_base = static_cast<char*>(parts->iov_base) + left;
      parts->iov_len -= left;
    }
  }
  return true;
}

bool write_all(int fd, std::string_view a, std::string_view b = {}, std::string_view c = {}) {
  iovec parts[3] = {{const_cast<char*>(a.data()), a.size()},
                    {const_cast<char*>(b.data()), b.size()},
                    {const_cast<char*>(c.data()), c.size()}};
  return write_all(fd, parts, 3);
}

bool has_line_break(std::string_view s) {
  return s.find_first_of("\r\n") != std::string_view::npos;
}

}  // namespace

struct Listener::Impl {
  ListenerOptions options;
  Handle handle;
  Refuse refuse;
  int listen_fd = -1;
  int port = 0;
  std::atomic<bool> running{false};
  std::atomic<bool> stopping{false};
  std::mutex mutex;
  std::condition_variable all_closed;
  std::unordered_map<int, bool> connections;  ///< fd → waiting for a request (idle)

  enum class Read { data, closed, timeout, failed };

  /// Appends what the client sends next. An idle connection gives up after the keep-alive
  /// time-out (SO_RCVTIMEO); a request under way gets up to the read time-out in total.
  Read read_more(int fd, std::string& buffer, std::optional<Clock::time_point> request_started) {
    char chunk[16 * 1024];
    while (true) {
      ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
      if (n > 0) {
        buffer.append(chunk, static_cast<std::size_t>(n));
        return Read::data;
      }
      if (n == 0) return Read::closed;
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) return Read::failed;
      if (!request_started || Clock::now() - *request_started >= options.read_timeout)
        return Read::timeout;
    }
  }

  /// Marks the connection idle (stop() may close it) unless the listener is stopping.
  bool enter_idle(int fd) {
    std::lock_guard lock(mutex);
    if (stopping) return false;
    connections[fd] = true;
    return true;
  }
  void leave_idle(int fd) {
    std::lock_guard lock(mutex);
    connections[fd] = false;
  }

  void refuse_and_close(int fd, const std::string& remote, int status, errc code,
                        const std::string& message) {
    Response res = refuse(status, code, message, remote);
    bool keep = false;
    respond(fd, "GET", res, keep, 1);
  }

  /// Serves requests on `fd` until the client leaves, a time-out passes or the listener stops.
  void run(int fd, const std::string& remote) {
    std::string buffer;
    int served = 0;
    while (true) {
      wire::RequestHead head;
      std::string reason;
      std::optional<Clock::time_point> started;
      if (!buffer.empty()) started = Clock::now();
      wire::HeadParse parsed;
      while ((parsed = wire::parse_request_head(buffer, head, reason)) ==
             wire::HeadParse::incomplete) {
        bool idle = buffer.empty();
        if (idle && !enter_idle(fd)) return;
        Read r = read_more(fd, buffer, started);
        if (idle) leave_idle(fd);
        if (r == Read::timeout && started)
          return refuse_and_close(fd, remote, 408, errc::invalid_argument,
                                  "tempo esgotado lendo a requisição");
        if (r != Read::data) return;
        if (!started) started = Clock::now();
      }
      switch (parsed) {
        case wire::HeadParse::bad:
          return refuse_and_close(fd, remote, 400, errc::invalid_argument,
                                  "requisição inválida: " + reason);
        case wire::HeadParse::too_large:
          return refuse_and_close(fd, remote, 431, errc::invalid_argument,
                                  "cabeçalho da requisição grande demais");
        case wire::HeadParse::bad_version:
          return refuse_and_close(fd, remote, 505, errc::invalid_argument, reason);
        default:
          break;
      }
      if (head.transfer_encoding)
        return refuse_and_close(
            fd, remote, 411, errc::invalid_argument,
            "corpo com Transfer-Encoding não é aceito: envie o corpo com Content-Length");
      if (head.content_length > options.payload_max)
        return refuse_and_close(fd, remote, 413, errc::payload_too_large,
                                "corpo da requisição excede o limite");
      const std::size_t whole = head.size + static_cast<std::size_t>(head.content_length);
      if (head.expect_continue && buffer.size() < whole &&
          !write_all(fd, "HTTP/1.1 100 Continue\r\n\r\n"))
        return;
      while (buffer.size() < whole) {
        Read r = read_more(fd, buffer, started);
        if (r == Read::timeout)
          return refuse_and_close(fd, remote, 408, errc::invalid_argument,
                                  "tempo esgotado lendo o corpo");
        if (r != Read::data) return;
      }

      Request req;
      req.method = std::move(head.method);
      req.target = std::move(head.target);
      std::string_view target = req.target;
      auto question = target.find('?');
      req.path = wire::percent_decode(target.substr(0, question), false);
      if (question != std::string_view::npos)
        req.query = wire::parse_query(target.substr(question + 1));
      req.headers.items = std::move(head.headers);
      req.body.assign(buffer, head.size, static_cast<std::size_t>(head.content_length));
      req.remote_addr = remote;
      buffer.erase(0, whole);  // a pipelined next request stays

      bool keep = head.keep_alive && ++served < options.keep_alive_max;
      Response res = handle(req);
      keep = keep && !stopping;  // a stopping listener answers, then closes
      if (!respond(fd, req.method, res, keep, head.minor_version) || !keep) return;
    }
  }

  /// Writes `res`: the head and an in-memory body in one write; a streamed body as it comes
  /// (with its Content-Length when known, chunked otherwise). False when the connection
  /// must close (the client left, or a stream broke off).
  bool respond(int fd, std::string_view method, Response& res, bool& keep, int minor) {
    const bool head_only = method == "HEAD";
    const bool bodyless = res.status == 204 || res.status == 304 || res.status < 200;
    const bool chunked = res.stream && !res.stream_length && !head_only && !bodyless;
    if (chunked && minor == 0) keep = false;  // an HTTP/1.0 client reads to the close

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
        // The loop frames the body itself; a HEAD answer may state the length it stands for.
        if (!head_only || bodyless) continue;
        has_length = true;
      } else if (equal_ignoring_case(name, "Transfer-Encoding") || equal_ignoring_case(name, "Connection") ||
                 equal_ignoring_case(name, "Date")) {
        continue;
      } else if (equal_ignoring_case(name, "Content-Type")) {
        has_type = true;
      }
      out.append("\r\n").append(name).append(": ").append(value);
    }
    if (!bodyless) {
      if (!has_type && !res.content_type.empty())
        out.append("\r\nContent-Type: ").append(res.content_type);
      if (chunked) {
        if (minor == 1) out.append("\r\nTransfer-Encoding: chunked");
      } else if (!has_length &&
                 (!res.stream || res.stream_length)) {  // a HEAD of an unknown length says none
        std::uint64_t length = res.stream ? *res.stream_length : res.body.size();
        out.append("\r\nContent-Length: ").append(std::to_string(length));
      }
    }
    if (!keep)
      out.append("\r\nConnection: close");
    else if (minor == 0)
      out.append("\r\nConnection: keep-alive");
    out.append("\r\n\r\n");

    if (head_only || bodyless) return write_all(fd, out);
    if (!res.stream) return write_all(fd, out, res.body);

    // A streamed body.
    if (chunked && minor == 1) {
      if (!write_all(fd, out)) return false;
      auto chunk = [fd](const char* data, std::size_t size) {
        if (size == 0) return true;
        char size_line[24];
        int len = std::snprintf(size_line, sizeof size_line, "%zx\r\n", size);
        return write_all(fd, std::string_view(size_line, static_cast<std::size_t>(len)),
                         std::string_view(data, size), "\r\n");
      };
      if (!res.body.empty() && !chunk(res.body.data(), res.body.size())) return false;
      if (!res.stream(chunk)) return keep = false;
      return write_all(fd, "0\r\n\r\n");
    }
    const std::uint64_t announced = res.stream_length.value_or(0);
    std::uint64_t sent = res.body.size();
    if (res.stream_length && sent > announced) return keep = false;
    if (!write_all(fd, out, res.body)) return false;
    bool completed = res.stream([&](const char* data, std::size_t size) {
      if (res.stream_length && sent + size > announced) return false;
      sent += size;
      return write_all(fd, std::string_view(data, size));
    });
    if (!completed || (res.stream_length && sent != announced)) return keep = false;
    return true;
  }

  void finish(int fd) {
    std::lock_guard lock(mutex);
    connections.erase(fd);
    ::close(fd);  // under the lock: stop() never shuts down a number reused by accept()
    all_closed.notify_all();
  }
};

Listener::Listener(ListenerOptions options, Handle handle, Refuse refuse)
    : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  impl_->handle = std::move(handle);
  impl_->refuse = std::move(refuse);
}

Listener::~Listener() {
  stop();
  if (impl_->listen_fd >= 0) ::close(impl_->listen_fd);
}

bool Listener::bind() {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(impl_->options.port);
  if (::getaddrinfo(impl_->options.host.c_str(), service.c_str(), &hints, &found) != 0)
    return false;
  for (addrinfo* a = found; a; a = a->ai_next) {
    int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    int yes = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (::bind(fd, a->ai_addr, a->ai_addrlen) == 0 && ::listen(fd, 1024) == 0) {
      sockaddr_storage bound{};
      socklen_t len = sizeof bound;
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len);
      impl_->port =
          ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6&>(bound).sin6_port
                                            : reinterpret_cast<sockaddr_in&>(bound).sin_port);
      impl_->listen_fd = fd;
      break;
    }
    ::close(fd);
  }
  ::freeaddrinfo(found);
  return impl_->listen_fd >= 0;
}

void Listener::serve() {
  Impl& im = *impl_;
  im.running = true;
  while (!im.stopping) {
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    int fd = ::accept4(im.listen_fd, reinterpret_cast<sockaddr*>(&addr), &len, SOCK_CLOEXEC);
    if (fd < 0) {
      if (im.stopping) break;
      // Out of descriptors or memory, or an aborted handshake: try again shortly.
      if (errno != EINTR && errno != ECONNABORTED)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      continue;
    }
    int yes = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    set_timeout(fd, SO_RCVTIMEO, std::min(im.options.keep_alive_timeout, im.options.read_timeout));
    set_timeout(fd, SO_SNDTIMEO, im.options.write_timeout);
    bool admitted = false;
    {
      std::lock_guard lock(im.mutex);
      if (!im.stopping && static_cast<int>(im.connections.size()) < im.options.max_connections) {
        im.connections[fd] = false;
        admitted = true;
      }
    }
    if (admitted) {
      try {
        std::thread([&im, fd, remote = address_text(addr)] {
          try {
            im.run(fd, remote);
          } catch (
              ...) {  // e.g. out of memory, or a body stream that threw: drop this connection only
          }
          im.finish(fd);
        }).detach();
        continue;
      } catch (const std::system_error&) {  // no thread to be had: refuse like a full house
        std::lock_guard lock(im.mutex);
        im.connections.erase(fd);
      }
    }
    set_timeout(fd, SO_SNDTIMEO, std::chrono::seconds(1));  // the accept loop must not wait on it
    im.refuse_and_close(fd, address_text(addr), 503, errc::unavailable,
                        "servidor no limite de conexões; tente de novo em instantes");
    ::close(fd);
  }
  std::unique_lock lock(im.mutex);
  im.all_closed.wait(lock, [&] { return im.connections.empty(); });
  im.running = false;
}

void Listener::stop() {
  Impl& im = *impl_;
  {
    std::lock_guard lock(im.mutex);
    im.stopping = true;
    for (const auto& [fd, idle] : im.connections)
      if (idle) ::shutdown(fd, SHUT_RD);  // wakes its read; a request in progress is answered
  }
  if (im.listen_fd >= 0) ::shutdown(im.listen_fd, SHUT_RDWR);  // wakes accept()
}

bool Listener::running() const noexcept { return impl_->running; }

int Listener::port() const noexcept { return impl_->port; }

}  // namespace cadastre::http
