#include "http/listener.hpp"

#include <malloc.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <array>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <condition_variable>
#include <deque>
#include <fstream>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "http/body_codings.hpp"
#include "http/forwarded.hpp"
#include "http/request_head.hpp"
#include "http/response_head.hpp"
#include "http/websocket.hpp"

namespace cadastre::http {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
namespace websocket = boost::beast::websocket;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;
using Parser = bhttp::request_parser<bhttp::string_body>;

std::string_view view(beast::string_view s) { return {s.data(), s.size()}; }

constexpr std::size_t kReadChunk = 16 * 1024;
/// A connection over max_connections has this long to ask for the reserved path.
constexpr std::chrono::seconds kReservedHeadTimeout{1};
/// After refusing a request, unread bytes are drained this long before closing, so that the
/// client reads the answer instead of a reset (a close with unread data sends RST).
constexpr std::chrono::seconds kLinger{2};
/// Smallest body worth compressing.
constexpr std::size_t kCompressMin = 1024;
/// A WebSocket's 101 must be out, and a closing handshake done, within this.
constexpr std::chrono::seconds kWebSocketHandshake{10};
/// Once the server closes a WebSocket, the connection ends within this, whether or not the
/// client reads the close frame and answers it; within kStopGrace when the server stops.
constexpr std::chrono::seconds kCloseGrace{5};
constexpr std::chrono::seconds kStopGrace{1};

int system_backlog() {
  std::ifstream f("/proc/sys/net/core/somaxconn");
  int n = 0;
  return f >> n && n > 0 ? n : SOMAXCONN;
}

// Each connection is a descriptor: take the hard limit, not the soft default of 1024.
void raise_descriptor_limit() {
  rlimit r{};
  if (::getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
    r.rlim_cur = r.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &r);
  }
}

/// An open connection as the engine tracks it: an HTTP Session, or the WebSocket it became.
class Connection {
 public:
  virtual ~Connection() = default;
  virtual net::any_io_executor executor() = 0;
  /// From Listener::stop(), on the connection's loop.
  virtual void server_stopping() = 0;
};

struct Engine {
  ListenerOptions o;
  TrustedProxies proxies{{}};
  Listener::Handle handle;
  Listener::Refuse refuse;
  Listener::BodyLimit body_limit;
  // One event loop per thread, each with its own connections: a connection's reads, its
  // handler and its writes all run on the thread whose epoll saw its bytes, with no hand-off
  // between threads. Accepting has a loop of its own, so that a thread blocked in a
  // handler never delays new connections. The loops are declared first so that they outlive
  // accept_loop: an accept still pending when it is destroyed holds a socket of a loop.
  std::vector<std::unique_ptr<net::io_context>> loops;
  net::io_context accept_loop{1};
  tcp::acceptor acceptor{accept_loop};
  net::steady_timer accept_pause{accept_loop};
  std::size_t next_loop = 0;
  int port = 0;
  std::atomic<bool> running{false}, stopping{false}, draining{false};
  std::atomic<int> open{0};
  std::mutex mutex;
  std::condition_variable all_closed;
  std::unordered_map<Connection*, std::weak_ptr<Connection>> sessions;

  void accept();
  /// A connection that replaces one still registered (an upgrade): counted before the old
  /// one ends, so serve() never sees the server empty in between.
  void upgraded(const std::shared_ptr<Connection>& c) {
    std::lock_guard lock(mutex);
    sessions.emplace(c.get(), c);
    ++open;
  }
  void ended(Connection* s) {
    std::lock_guard lock(mutex);
    sessions.erase(s);
    --open;
    all_closed.notify_all();
  }
};

}  // namespace

/// The engine's end of a WebSocket: Beast's stream over the socket of the connection that
/// asked for it, on that connection's event loop. Its members run on that loop's thread,
/// except send(), request_close(), open() and the callback setters, which any thread may
/// call: outgoing messages wait in `queue_` (under `mutex_`) and a posted pump() writes them
/// one at a time. Reading is always pending, so Beast answers pings and closes and its idle
/// timer sees a dead peer. The pending operations own the channel; the channel owns the
/// handlers' handle until the end, and the handle only observes the channel.
class WebSocket::Channel final : public Connection,
                                 public std::enable_shared_from_this<WebSocket::Channel> {
 public:
  using OnOpen = std::function<void(std::shared_ptr<WebSocket>)>;

  Channel(Engine& e, tcp::socket socket, std::string remote, OnOpen on_open)
      : e_(e),
        ex_(socket.get_executor()),
        ws_(std::move(socket)),
        grace_(ex_),
        remote_(std::move(remote)),
        on_open_(std::move(on_open)) {
    websocket::stream_base::timeout t{};
    t.handshake_timeout = kWebSocketHandshake;
    t.idle_timeout = e_.o.websocket_idle_timeout;
    t.keep_alive_pings = true;
    ws_.set_option(t);
    ws_.read_message_max(e_.o.websocket_message_max);
    ws_.text(true);
  }

  net::any_io_executor executor() override { return ex_; }

  /// Beast's answer to the upgrade `request` (101, or 400 when Beast finds it invalid), with
  /// the service's `headers` (request id, CORS, what the handler added); then on_open.
  void accept(const bhttp::request<bhttp::string_body>& request, Headers headers) {
    ws_.set_option(websocket::stream_base::decorator(
        [headers = std::move(headers)](websocket::response_type& r) {
          for (const auto& [name, value] : headers.items) {
            // Beast frames the upgrade itself; no field may split the answer.
            if (equal_ignoring_case(name, "Connection") || equal_ignoring_case(name, "Upgrade") ||
                equal_ignoring_case(name, "Content-Length") ||
                equal_ignoring_case(name, "Transfer-Encoding") ||
                name.find_first_of("\r\n") != std::string::npos ||
                value.find_first_of("\r\n") != std::string::npos)
              continue;
            r.insert(name, value);
          }
        }));
    ws_.async_accept(request,
                     [self = shared_from_this()](beast::error_code ec) { self->accepted(ec); });
  }

  void server_stopping() override { go_away(); }

  // Any thread.
  void send(std::string text) {
    std::lock_guard lock(mutex_);
    if (close_ || state_ == State::ended) return;
    if (queue_.size() >= e_.o.websocket_queue_messages ||
        queued_bytes_ + text.size() > e_.o.websocket_queue_bytes) {
      // The client reads more slowly than the server produces: drop what waits and close,
      // rather than let the queue grow.
      begin_close(close_code::try_later, "cliente lento: fila de saída cheia", true);
      return;
    }
    queued_bytes_ += text.size();
    queue_.push_back(std::move(text));
    kick();
  }
  void request_close(std::uint16_t code, std::string_view reason, bool drop_queued) {
    std::lock_guard lock(mutex_);
    begin_close(code, reason, drop_queued);
  }
  bool open() const { return state_ == State::open && !closing_; }
  void set_on_message(std::function<void(std::string_view)> callback) {
    auto f = std::make_shared<const std::function<void(std::string_view)>>(std::move(callback));
    net::dispatch(ex_, [self = shared_from_this(), f = std::move(f)]() mutable {
      if (self->state_ != State::ended) self->on_message_ = std::move(f);
    });
  }
  void set_on_close(std::function<void(std::uint16_t)> callback) {
    auto f = std::make_shared<std::function<void(std::uint16_t)>>(std::move(callback));
    net::dispatch(ex_, [self = shared_from_this(), f = std::move(f)]() mutable {
      if (self->state_ != State::ended) self->on_close_ = std::move(f);
    });
  }

 private:
  enum class State { handshake, open, ended };

  void accepted(beast::error_code ec) {
    if (ec) return end(ec);  // Beast answered 400, or the client left: no on_open
    state_ = State::open;
    handle_ = std::make_shared<WebSocket>(weak_from_this(), remote_);
    auto on_open = std::move(on_open_);
    try {
      on_open(handle_);
    } catch (const std::exception&) {
      request_close(close_code::internal, "erro interno", true);
    }
    // Upgraded after stop() listed the connections: it would not have been told.
    if (e_.stopping) go_away();
    read();
  }

  void read() {
    ws_.async_read(in_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      self->received(ec);
    });
  }
  void received(beast::error_code ec) {
    if (ec) return end(ec);
    if (!ws_.got_text()) {
      request_close(close_code::unsupported, "apenas mensagens de texto", false);
    } else if (auto f = on_message_) {  // a copy: the callback may replace itself
      const std::string_view text(static_cast<const char*>(in_.data().data()), in_.size());
      try {
        (*f)(text);
      } catch (const std::exception&) {
        request_close(close_code::internal, "erro interno", true);
      }
    }
    in_.consume(in_.size());
    // An idle socket keeps a small buffer, whatever size of message it once received.
    if (in_.capacity() > kReadChunk) in_.shrink_to_fit();
    read();  // also after a close began: Beast needs the read to see the peer's close
  }

  // Under mutex_.
  void begin_close(std::uint16_t code, std::string_view reason, bool drop_queued) {
    if (close_ || state_ == State::ended) return;
    if (drop_queued) {
      queue_.clear();
      queued_bytes_ = 0;
    }
    // A close frame carries at most 123 bytes of reason; cut at a UTF-8 character boundary.
    std::size_t size = std::min<std::size_t>(reason.size(), 123);
    if (size < reason.size())
      while (size > 0 && (static_cast<unsigned char>(reason[size]) & 0xC0) == 0x80) --size;
    close_.emplace(code);
    close_->reason.assign(reason.data(), size);
    closing_ = true;
    kick();
  }
  // Under mutex_: makes sure a pump() is coming.
  void kick() {
    if (pump_posted_) return;
    pump_posted_ = true;
    net::post(ex_, [self = shared_from_this()] { self->pump(); });
  }

  // Writes the next queued message, or, once none waits, the close frame. One write at a
  // time (Beast allows one), each from the completion of the previous one.
  void pump() {
    std::unique_lock lock(mutex_);
    pump_posted_ = false;
    if (state_ == State::ended) return;
    if (close_ && !close_deadline_) arm_grace(kCloseGrace);
    if (writing_) return;
    if (!queue_.empty()) {
      out_ = std::move(queue_.front());
      queue_.pop_front();
      queued_bytes_ -= out_.size();
      lock.unlock();
      writing_ = true;
      ws_.async_write(net::buffer(out_),
                      [self = shared_from_this()](beast::error_code ec, std::size_t) {
                        self->writing_ = false;
                        self->out_ = std::string();
                        if (!ec) return self->pump();
                        beast::error_code ignored;  // the pending read fails too, and ends it
                        beast::get_lowest_layer(self->ws_).close(ignored);
                      });
    } else if (close_ && !close_sent_) {
      close_sent_ = true;
      const websocket::close_reason reason = *close_;
      lock.unlock();
      writing_ = true;
      ws_.async_close(reason, [self = shared_from_this()](beast::error_code ec) { self->end(ec); });
    }
  }

  // Server::stop(): close with 1001 now, whatever waits, and end within kStopGrace.
  void go_away() {
    arm_grace(kStopGrace);
    if (state_ == State::open) request_close(close_code::going_away, "servidor encerrando", true);
  }

  // The connection ends by `within` from now at the latest: the socket is closed, which
  // fails the pending operations (a client that neither reads nor answers the close).
  void arm_grace(std::chrono::seconds within) {
    const auto deadline = Clock::now() + within;
    if (close_deadline_ && *close_deadline_ <= deadline) return;
    close_deadline_ = deadline;
    grace_.expires_at(deadline);
    grace_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (ec) return;  // ended, or moved earlier
      beast::error_code ignored;
      beast::get_lowest_layer(self->ws_).close(ignored);
    });
  }

  // The code on_close reports for a connection that ended with `ec`, when the server had
  // not begun a close itself.
  std::uint16_t code_of(beast::error_code ec) const {
    if (ec == websocket::error::closed)
      return ws_.reason().code != websocket::close_code::none ? ws_.reason().code
                                                              : close_code::no_status;
    if (ec == websocket::error::message_too_big) return close_code::too_big;
    if (ec == websocket::error::bad_frame_payload) return close_code::bad_payload;
    if (ec == websocket::condition::protocol_violation) return close_code::protocol_error;
    return close_code::abnormal;  // reset, end of stream, idle timeout, the grace's close
  }

  // Once: the socket closes, on_close runs, the callbacks go and the server stops counting
  // the connection. Operations still pending complete later and find it ended.
  void end(beast::error_code ec) {
    if (state_ == State::ended) return;
    std::uint16_t code = 0;
    {
      std::lock_guard lock(mutex_);
      state_ = State::ended;
      code = close_ ? close_->code : code_of(ec);
      queue_.clear();
      queued_bytes_ = 0;
    }
    grace_.cancel();
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).close(ignored);
    on_message_.reset();
    handle_.reset();
    if (auto on_close = std::move(on_close_)) {
      try {
        (*on_close)(code);
      } catch (const std::exception&) {  // nothing is left to close
      }
    }
    e_.ended(this);  // last: the server may return from serve() as soon as it is told
  }

  Engine& e_;
  net::any_io_executor ex_;
  websocket::stream<tcp::socket> ws_;
  net::steady_timer grace_;
  std::optional<Clock::time_point> close_deadline_;
  std::string remote_;
  OnOpen on_open_;
  /// The handlers' handle, kept while the connection is open so that they may hold it weakly.
  std::shared_ptr<WebSocket> handle_;
  // Shared pointers, so that a callback running keeps itself alive when it is replaced.
  std::shared_ptr<const std::function<void(std::string_view)>> on_message_;
  std::shared_ptr<std::function<void(std::uint16_t)>> on_close_;
  beast::flat_buffer in_;
  std::string out_;  ///< the message being written
  bool writing_ = false;
  std::atomic<State> state_{State::handshake};
  std::atomic<bool> closing_{false};  ///< a close has begun (open() from any thread)

  std::mutex mutex_;  ///< guards what follows
  std::deque<std::string> queue_;
  std::size_t queued_bytes_ = 0;
  bool pump_posted_ = false;
  std::optional<websocket::close_reason> close_;  ///< the close the server began
  bool close_sent_ = false;
};

namespace {

/// One connection, from accept to close. Every member runs on the thread of the connection's
/// event loop, the handler and the writes of a streamed answer included.
class Session final : public Connection, public std::enable_shared_from_this<Session> {
 public:
  enum class Admission { normal, reserved, refused };

  Session(Engine& e, tcp::socket socket, Admission admission)
      : e_(e), socket_(std::move(socket)), timer_(socket_.get_executor()), admission_(admission) {
    beast::error_code ec;
    socket_.set_option(tcp::no_delay(true), ec);
    socket_.non_blocking(true, ec);  // answers are written at once when the socket takes them
    auto peer = socket_.remote_endpoint(ec);
    if (!ec) remote_ = peer.address().to_string();
  }
  ~Session() { e_.ended(this); }

  net::any_io_executor executor() override { return socket_.get_executor(); }

  void start() {
    if (admission_ == Admission::refused)
      return refuse(503, errc::unavailable,
                    "servidor no limite de conexões; tente de novo em instantes");
    next_request();
  }

  /// A connection waiting for its next request closes now; one whose request has begun to
  /// arrive is answered (within its deadlines), then closed.
  void server_stopping() override {
    if (phase_ == Phase::waiting) close();
  }

 private:
  enum class Phase { waiting, reading, handling, writing, draining, closed };

  // Deadlines: one timer per connection; arm() replaces the previous deadline. On expiry
  // the pending operation is cancelled and `timed_out_` tells its handler why.
  void arm(Clock::time_point deadline) {
    const auto generation = ++timer_generation_;
    timed_out_ = false;
    timer_.expires_at(deadline);
    timer_.async_wait([self = shared_from_this(), generation](beast::error_code ec) {
      if (ec || generation != self->timer_generation_) return;
      self->timed_out_ = true;
      beast::error_code ignored;
      self->socket_.cancel(ignored);
    });
  }
  void disarm() {
    ++timer_generation_;
    timer_.cancel();
  }
  Clock::time_point rate_deadline(Clock::time_point start, std::chrono::seconds grace,
                                  std::size_t bytes) const {
    return start + grace +
           std::chrono::milliseconds(bytes * 1000 / std::max<std::size_t>(1, e_.o.min_rate));
  }

  void next_request() {
    if (e_.stopping) return close();
    // A client may send blank lines between requests (RFC 9112 §2.2).
    while (buffer_.size() >= 2) {
      const char* p = static_cast<const char*>(buffer_.data().data());
      if (p[0] != '\r' || p[1] != '\n') break;
      buffer_.consume(2);
    }
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(e_.o.header_max_bytes));
    parser_->body_limit(e_.o.payload_max);
    parser_->eager(false);  // the first put() stops after the head, so its bytes are known
    if (buffer_.size() == 0) return wait_for_request();
    start_head();
    parse();
  }

  void wait_for_request() {
    phase_ = Phase::waiting;
    const auto wait = admission_ == Admission::reserved ? kReservedHeadTimeout
                      : served_ == 0                    ? e_.o.head_timeout
                                                        : e_.o.keep_alive_timeout;
    arm(Clock::now() + wait);
    socket_.async_read_some(buffer_.prepare(kReadChunk),
                            [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                              if (ec) return self->close();  // gone, idle too long, or stopping
                              self->buffer_.commit(n);
                              self->next_request();
                            });
  }

  void start_head() {
    phase_ = Phase::reading;
    arm(Clock::now() +
        (admission_ == Admission::reserved ? kReservedHeadTimeout : e_.o.head_timeout));
  }

  void read_more() {
    if (parser_->is_header_done()) arm(rate_deadline(body_started_, e_.o.body_timeout, body_seen_));
    socket_.async_read_some(buffer_.prepare(kReadChunk), [self = shared_from_this()](
                                                             beast::error_code ec, std::size_t n) {
      if (self->timed_out_) {
        const bool body = self->parser_->is_header_done();
        return self->refuse(408, errc::invalid_argument,
                            body ? "tempo esgotado lendo o corpo da requisição"
                                 : "tempo esgotado lendo o cabeçalho da requisição");
      }
      if (ec) return self->close();
      self->buffer_.commit(n);
      if (self->parser_->is_header_done()) self->body_seen_ += n;
      self->parse();
    });
  }

  void parse() {
    beast::error_code ec;
    while (buffer_.size() > 0 && !parser_->is_done()) {
      std::size_t used = 0;
      if (!parser_->is_header_done()) {
        auto data = buffer_.data();
        used = parser_->put(data, ec);
        if (!ec && parser_->is_header_done()) {
          std::string_view raw(static_cast<const char*>(data.data()), used);
          buffer_.consume(used);
          if (!on_head(raw)) return;
          if (expect_continue_ && !parser_->is_done() && buffer_.size() == 0)
            return send_continue();
          continue;
        }
      } else {
        used = parser_->put(buffer_.data(), ec);
      }
      buffer_.consume(used);
      if (ec == bhttp::error::need_more) {
        ec = {};
        break;
      }
      if (ec) return refuse_parse_error(ec);
      if (used == 0) break;
    }
    if (parser_->is_done()) return dispatch();
    read_more();
  }

  // The head is complete: the checks Beast does not make, then the body's deadline.
  bool on_head(std::string_view raw) {
    auto& m = parser_->get();
    minor_ = m.version() == 10 ? 0 : 1;
    fields_.clear();
    for (const auto& f : m) fields_.emplace_back(view(f.name_string()), view(f.value()));
    const wire::HeadView head{raw, view(m.method_string()), view(m.target()),
                              static_cast<int>(m.version()), &fields_};
    wire::HeadCheck check = wire::check_head(head, e_.o.header_max_fields);
    if (check.status != 0) {
      refuse(check.status, errc::invalid_argument, check.reason);
      return false;
    }
    if (admission_ == Admission::reserved && !is_reserved(view(m.target()))) {
      refuse(503, errc::unavailable, "servidor no limite de conexões; tente de novo em instantes");
      return false;
    }
    if (!within_route_limit(view(m.method_string()), view(m.target()))) return false;
    expect_continue_ = check.expect_continue;
    parser_->eager(true);
    body_started_ = Clock::now();
    body_seen_ = buffer_.size();
    return true;
  }

  // The route's own body limit, when it is below payload_max: a declared length above it is
  // refused now (before 100-continue, before any body byte); a chunked body is cut there.
  bool within_route_limit(std::string_view method, std::string_view target) {
    if (!e_.body_limit) return true;
    auto& m = parser_->get();
    if (!parser_->content_length() && !m.chunked()) return true;
    const std::string path = wire::percent_decode(target.substr(0, target.find('?')), false);
    const std::size_t limit = e_.body_limit(method, path);
    if (limit == 0 || limit >= e_.o.payload_max) return true;
    if (auto length = parser_->content_length(); length && *length > limit) {
      refuse(413, errc::payload_too_large,
             "corpo da requisição excede o limite desta rota (" + std::to_string(limit) + " bytes)");
      return false;
    }
    parser_->body_limit(limit);
    return true;
  }

  // The reserved path, with or without a final slash (services differ).
  bool is_reserved(std::string_view target) const {
    auto trimmed = [](std::string_view p) {
      p = p.substr(0, p.find('?'));
      return p.size() > 1 && p.back() == '/' ? p.substr(0, p.size() - 1) : p;
    };
    return trimmed(target) == trimmed(e_.o.reserved_path);
  }

  void send_continue() {
    static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
    expect_continue_ = false;
    arm(Clock::now() + e_.o.write_timeout);
    net::async_write(socket_, net::buffer(kContinue.data(), kContinue.size()),
                     [self = shared_from_this()](beast::error_code ec, std::size_t) {
                       if (ec) return self->close();
                       self->body_started_ = Clock::now();
                       self->read_more();
                     });
  }

  void refuse_parse_error(beast::error_code ec) {
    if (ec == bhttp::error::header_limit)
      return refuse(431, errc::invalid_argument, "cabeçalho da requisição grande demais");
    if (ec == bhttp::error::body_limit)
      return refuse(413, errc::payload_too_large, "corpo da requisição excede o limite");
    if (ec == bhttp::error::bad_version &&
        wire::names_other_http_version(
            std::string_view(static_cast<const char*>(buffer_.data().data()), buffer_.size())))
      return refuse(505, errc::invalid_argument,
                    "versão do protocolo não suportada (use HTTP/1.1)");
    refuse(400, errc::invalid_argument, "requisição inválida: " + ec.message());
  }

  void dispatch() {
    disarm();
    phase_ = Phase::handling;
    auto message = parser_->release();
    Request req;
    req.method = view(message.method_string());
    req.target = view(message.target());
    std::string_view target = req.target;
    const auto question = target.find('?');
    req.path = wire::percent_decode(target.substr(0, question), false);
    if (question != std::string_view::npos)
      req.query = wire::parse_query(target.substr(question + 1));
    req.headers.items = std::move(fields_);
    req.body = std::move(message.body());
    req.remote_addr = remote_;
    if (!e_.proxies.empty()) {
      std::vector<std::string_view> forwarded;
      for (const auto& [name, value] : req.headers.items)
        if (beast::iequals(name, "X-Forwarded-For")) forwarded.push_back(value);
      req.remote_addr = e_.proxies.client(remote_, forwarded);
    }
    if (const std::string* type = req.header("Content-Type"); type && e_.o.multipart) {
      std::string reason;
      if (!parse_multipart(*type, req.body, req.files, reason))
        return refuse(400, errc::invalid_argument, reason);
    }
    const bool keep = message.keep_alive() && ++served_ < e_.o.keep_alive_max;
    answer(req, keep, message);
  }

  // The handler, then the answer: the thread blocks while the handler waits on the database
  // or a destination (the other connections of its loop wait meanwhile, which is why there
  // are `threads` loops); clients that are slow to send or read hold no thread.
  void answer(Request& req, bool keep, const bhttp::request<bhttp::string_body>& message) {
    phase_ = Phase::handling;
    Response res = e_.handle(req);
    if (res.upgrade) return upgrade(message, res);
    keep = keep && !e_.stopping && !e_.draining;
    wire::Framing framing = wire::framing_for(req.method, res, minor_);
    const bool sends_body = !framing.head_only && !framing.bodyless;
    const bool compress = sends_body && e_.o.compress && !res.headers.find("Content-Encoding") &&
                          compressible_type(res.content_type) &&
                          accepts_gzip(req.header("Accept-Encoding")) &&
                          (res.stream || res.body.size() >= kCompressMin);
    if (compress) {
      res.headers.set("Content-Encoding", "gzip");
      res.headers.add("Vary", "Accept-Encoding");
      if (res.stream)
        res.stream_length.reset();  // the compressed length is known only at the end
      else
        res.body = gzip(res.body);
      framing = wire::framing_for(req.method, res, minor_);
    }
    if (framing.close_delimited) keep = false;
    std::string head = wire::response_head(res, framing, keep, minor_);
    if (!res.stream || !sends_body) {
      if (!sends_body) res.body.clear();
      return write_answer(std::move(head), std::move(res.body), keep);
    }
    const bool completed = stream_answer(res, head, framing, compress);
    after_answer(keep && completed);
  }

  // The handler answered with the WebSocket handshake: the socket goes to a channel, which
  // makes the handshake, and this session ends here. (Bytes the client sent after its
  // request are dropped: it may send frames only once it has the 101.)
  void upgrade(const bhttp::request<bhttp::string_body>& message, Response& res) {
    phase_ = Phase::closed;
    auto channel = std::make_shared<WebSocket::Channel>(e_, std::move(socket_), remote_,
                                                        std::move(res.upgrade));
    e_.upgraded(channel);
    channel->accept(message, std::move(res.headers));
  }

  // Writes the answer at once when the socket takes it (the usual case: no timer, no
  // asynchronous operation); what it does not take is written asynchronously with the
  // write deadline.
  void write_answer(std::string head, std::string body, bool keep) {
    phase_ = Phase::writing;
    out_head_ = std::move(head);
    out_body_ = std::move(body);
    beast::error_code ec;
    std::array<net::const_buffer, 2> parts{net::buffer(out_head_), net::buffer(out_body_)};
    const std::size_t written = socket_.write_some(parts, ec);
    if (ec && ec != net::error::would_block) return close();
    const std::size_t total = out_head_.size() + out_body_.size();
    if (written == total) return after_answer(keep);
    std::size_t skip = written;
    auto rest = [&skip](const std::string& s) {
      const std::size_t k = std::min(skip, s.size());
      skip -= k;
      return net::buffer(s.data() + k, s.size() - k);
    };
    parts = {rest(out_head_), rest(out_body_)};
    arm(rate_deadline(Clock::now(), e_.o.write_timeout, total - written));
    net::async_write(socket_, parts,
                     [self = shared_from_this(), keep](beast::error_code failed, std::size_t) {
                       self->after_answer(!failed && keep);
                     });
  }

  void after_answer(bool keep) {
    out_head_.clear();
    out_body_ = std::string();  // a large answer's memory goes back now, not at the next one
    if (timed_out_) return close();
    if (!keep) return linger();
    if (buffer_.size() == 0) return next_request();
    // A pipelined request is already here: parse it from a fresh handler, so that a long
    // pipeline does not nest one answer inside another on the stack.
    net::post(socket_.get_executor(), [self = shared_from_this()] { self->next_request(); });
  }

  // Writes the pieces of a streamed body as they come, each within the write deadline.
  // False when the body could not be completed.
  bool stream_answer(Response& res, const std::string& head, const wire::Framing& framing,
                     bool compress) {
    if (!write_blocking({net::buffer(head)})) return false;
    Response::BodyWriter raw;
    std::uint64_t sent = 0;
    const std::optional<std::uint64_t> announced = compress ? std::nullopt : res.stream_length;
    if (framing.chunked) {
      raw = [this](const char* data, std::size_t size) {
        if (size == 0) return true;
        char line[24];
        const int len = std::snprintf(line, sizeof line, "%zx\r\n", size);
        return write_blocking({net::buffer(line, static_cast<std::size_t>(len)),
                               net::buffer(data, size), net::buffer("\r\n", 2)});
      };
    } else {
      raw = [this, &sent, announced](const char* data, std::size_t size) {
        if (announced && sent + size > *announced) return false;
        sent += size;
        return write_blocking({net::buffer(data, size)});
      };
    }
    std::optional<GzipWriter> gz;
    Response::BodyWriter write = raw;
    if (compress) {
      gz.emplace(raw);
      write = [&gz](const char* data, std::size_t size) { return gz->write(data, size); };
    }
    if (!res.body.empty() && !write(res.body.data(), res.body.size())) return false;
    bool completed = false;
    try {
      completed = res.stream(write);
    } catch (const std::exception&) {  // a throwing producer ends this answer, not the process
    }
    if (!completed || (gz && !gz->finish())) return false;
    if (announced && sent != *announced) return false;
    return !framing.chunked || write_blocking({net::buffer("0\r\n\r\n", 5)});
  }

  // Writes every byte of `parts` before returning, waiting for the socket (poll) at most
  // until the write deadline of their size. False when the client left or was too slow.
  bool write_blocking(std::vector<net::const_buffer> parts) {
    std::size_t left = 0;
    for (const auto& p : parts) left += p.size();
    const auto deadline = rate_deadline(Clock::now(), e_.o.write_timeout, left);
    beast::buffers_suffix<std::vector<net::const_buffer>> rest(std::move(parts));
    while (left > 0) {
      beast::error_code ec;
      const std::size_t n = socket_.write_some(rest, ec);
      rest.consume(n);
      left -= n;
      if (!ec) continue;
      if (ec != net::error::would_block) return false;
      const auto wait =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      pollfd fd{socket_.native_handle(), POLLOUT, 0};
      if (wait <= 0 || ::poll(&fd, 1, static_cast<int>(wait)) <= 0) return false;
    }
    return true;
  }

  void refuse(int status, errc code, const std::string& message) {
    Response res = e_.refuse(status, code, message, remote_);
    std::string head = wire::response_head(res, wire::Framing{}, false, minor_);
    write_answer(std::move(head), std::move(res.body), false);
  }

  // Half-closes, then reads what the client still sends until it closes or kLinger passes.
  void linger() {
    phase_ = Phase::draining;
    beast::error_code ec;
    socket_.shutdown(tcp::socket::shutdown_send, ec);
    if (ec) return close();
    arm(Clock::now() + kLinger);
    drain();
  }
  void drain() {
    buffer_.clear();
    socket_.async_read_some(buffer_.prepare(kReadChunk),
                            [self = shared_from_this()](beast::error_code ec, std::size_t) {
                              if (ec) return self->close();
                              self->drain();
                            });
  }

  void close() {
    phase_ = Phase::closed;
    disarm();
    beast::error_code ec;
    socket_.close(ec);
  }

  Engine& e_;
  tcp::socket socket_;
  net::steady_timer timer_;
  std::uint64_t timer_generation_ = 0;
  bool timed_out_ = false;
  Admission admission_;
  Phase phase_ = Phase::waiting;
  std::string remote_;
  beast::flat_buffer buffer_;
  std::optional<Parser> parser_;
  std::vector<std::pair<std::string, std::string>> fields_;
  bool expect_continue_ = false;
  Clock::time_point body_started_;
  std::size_t body_seen_ = 0;
  int minor_ = 1;
  int served_ = 0;
  std::string out_head_, out_body_;
};

void Engine::accept() {
  net::io_context& loop = *loops[next_loop++ % loops.size()];
  acceptor.async_accept(loop, [this](beast::error_code ec, tcp::socket socket) {
    if (stopping || !acceptor.is_open()) return;
    if (ec) {
      // Out of descriptors or memory, or an aborted handshake: try again shortly.
      accept_pause.expires_after(std::chrono::milliseconds(10));
      accept_pause.async_wait([this](beast::error_code) { accept(); });
      return;
    }
    const int count = ++open;
    const auto admission = count <= o.max_connections ? Session::Admission::normal
                           : count <= o.max_connections + o.reserved_connections
                               ? Session::Admission::reserved
                               : Session::Admission::refused;
    std::shared_ptr<Session> session;
    try {
      session = std::make_shared<Session>(*this, std::move(socket), admission);
    } catch (const std::exception&) {  // no memory for it: drop this connection only
      --open;
      return accept();
    }
    {
      std::lock_guard lock(mutex);
      sessions.emplace(session.get(), session);
    }
    net::post(session->executor(), [session] { session->start(); });
    accept();
  });
}

}  // namespace

WebSocket::WebSocket(std::weak_ptr<Channel> channel, std::string remote_addr)
    : channel_(std::move(channel)), remote_addr_(std::move(remote_addr)) {}

void WebSocket::send(std::string text) {
  if (auto c = channel_.lock()) c->send(std::move(text));
}

void WebSocket::close(std::uint16_t code, std::string reason) {
  // What a close frame may carry (1004–1006 and 1014–2999 are reserved, RFC 6455 §7.4).
  const bool sendable = (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1013) ||
                        (code >= 3000 && code <= 4999);
  if (!sendable)
    throw std::invalid_argument("código de fechamento inválido: " + std::to_string(code));
  if (auto c = channel_.lock()) c->request_close(code, reason, false);
}

void WebSocket::on_message(std::function<void(std::string_view)> callback) {
  if (auto c = channel_.lock()) c->set_on_message(std::move(callback));
}

void WebSocket::on_close(std::function<void(std::uint16_t)> callback) {
  if (auto c = channel_.lock()) c->set_on_close(std::move(callback));
}

bool WebSocket::open() const {
  auto c = channel_.lock();
  return c && c->open();
}

struct Listener::Impl {
  Engine engine;
};

Listener::Listener(ListenerOptions options, Handle handle, Refuse refuse, BodyLimit body_limit)
    : impl_(std::make_unique<Impl>()) {
  impl_->engine.body_limit = std::move(body_limit);
  impl_->engine.proxies = TrustedProxies(options.trusted_proxies);  // throws for a malformed entry
  impl_->engine.o = std::move(options);
  impl_->engine.handle = std::move(handle);
  impl_->engine.refuse = std::move(refuse);
}

Listener::~Listener() {
  stop();
  beast::error_code ec;
  impl_->engine.acceptor.close(ec);
}

bool Listener::bind() {
  Engine& e = impl_->engine;
  raise_descriptor_limit();
  // Request bodies up to payload_max are allocated per request: with a fixed mmap
  // threshold, any block of 1 MiB or more is mapped and goes back to the system when freed,
  // so memory returns to its baseline after a large upload or an attack.
  ::mallopt(M_MMAP_THRESHOLD, 1 << 20);
  beast::error_code ec;
  tcp::resolver resolver(e.accept_loop);
  auto found = resolver.resolve(e.o.host, std::to_string(e.o.port), tcp::resolver::passive, ec);
  if (ec) return false;
  for (const auto& entry : found) {
    e.acceptor.open(entry.endpoint().protocol(), ec);
    if (ec) continue;
    e.acceptor.set_option(net::socket_base::reuse_address(true), ec);
    e.acceptor.bind(entry.endpoint(), ec);
    if (!ec) e.acceptor.listen(system_backlog(), ec);
    if (!ec) {
      e.port = e.acceptor.local_endpoint().port();
      return true;
    }
    beast::error_code ignored;
    e.acceptor.close(ignored);
  }
  return false;
}

void Listener::serve() {
  Engine& e = impl_->engine;
  e.running = true;
  for (int i = 0; i < std::max(1, e.o.threads); ++i)
    e.loops.push_back(std::make_unique<net::io_context>(1));
  std::vector<net::executor_work_guard<net::io_context::executor_type>> guards;
  guards.push_back(net::make_work_guard(e.accept_loop));
  for (auto& loop : e.loops) guards.push_back(net::make_work_guard(*loop));
  net::post(e.accept_loop, [&e] { e.accept(); });
  // An exception escaping a handler (out of memory, say) ends the handler and with it the
  // references to its connection, which closes; the loop goes on serving the others.
  auto run = [](net::io_context& loop) {
    while (true) {
      try {
        loop.run();
        return;
      } catch (const std::exception&) {
      }
    }
  };
  std::vector<std::thread> threads;
  threads.emplace_back([&e, &run] { run(e.accept_loop); });
  for (auto& loop : e.loops) threads.emplace_back([&loop, &run] { run(*loop); });
  {
    std::unique_lock lock(e.mutex);
    e.all_closed.wait(lock, [&e] { return e.stopping && e.sessions.empty(); });
  }
  guards.clear();
  e.accept_loop.stop();
  for (auto& loop : e.loops) loop->stop();
  for (auto& t : threads) t.join();
  e.running = false;
}

void Listener::stop() {
  Engine& e = impl_->engine;
  std::vector<std::shared_ptr<Connection>> sessions;
  {
    std::lock_guard lock(e.mutex);
    if (e.stopping.exchange(true)) return;
    for (auto& [raw, weak] : e.sessions)
      if (auto s = weak.lock()) sessions.push_back(std::move(s));
    e.all_closed.notify_all();
  }
  // Outside the lock: the last reference to a session may be dropped here, and a session's
  // end takes the lock.
  net::post(e.accept_loop, [&e] {
    beast::error_code ec;
    e.acceptor.close(ec);
    e.accept_pause.cancel();
  });
  for (auto& s : sessions) net::post(s->executor(), [s] { s->server_stopping(); });
}

void Listener::drain() noexcept { impl_->engine.draining = true; }

bool Listener::running() const noexcept { return impl_->engine.running; }
int Listener::port() const noexcept { return impl_->engine.port; }
int Listener::open_connections() const noexcept { return impl_->engine.open; }

}  // namespace cadastre::http
