#include "gateway/upstream.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "cadastre/error.hpp"
#include "gateway/url.hpp"
#include "outbound/wire.hpp"

namespace cadastre::gateway {
namespace wire = outbound::wire;  // HTTP/1.1 on the wire, shared with cadastre_outbound

using Clock = std::chrono::steady_clock;
using Outcome = UpstreamResult::Outcome;

struct Failure {
  UpstreamResult::Outcome outcome;
  std::string detail;
};

/// One kept-alive connection to a destination: the socket (with its TLS session for https)
/// and the bytes read past the last response (none, unless the destination misbehaves).
class UpstreamConnection {
 public:
  UpstreamConnection(int fd, std::string host) : fd_(fd), host_(std::move(host)) {}
  ~UpstreamConnection() {
    if (ssl_) SSL_free(ssl_);
    ::close(fd_);
  }
  UpstreamConnection(const UpstreamConnection&) = delete;
  UpstreamConnection& operator=(const UpstreamConnection&) = delete;

  int fd() const noexcept { return fd_; }
  const std::string& host() const noexcept { return host_; }  ///< the Host header value
  std::string buffer;  ///< received, not yet consumed

  /// Sets the per-call read and write time-outs (SO_RCVTIMEO / SO_SNDTIMEO).
  void set_timeouts(std::chrono::milliseconds read, std::chrono::milliseconds write) {
    if (read != read_) set_option(SO_RCVTIMEO, read_ = read);
    if (write != write_) set_option(SO_SNDTIMEO, write_ = write);
  }

  /// TLS handshake with certificate and host name verification (SNI for names).
  bool start_tls(SSL_CTX* ctx, const std::string& name, Failure& failure) {
    ssl_ = SSL_new(ctx);
    if (!ssl_ || SSL_set_fd(ssl_, fd_) != 1) return tls_failed(failure, 0);
    X509_VERIFY_PARAM* param = SSL_get0_param(ssl_);
    if (X509_VERIFY_PARAM_set1_ip_asc(param, name.c_str()) != 1) {  // not an IP literal
      SSL_set_tlsext_host_name(ssl_, name.c_str());
      if (SSL_set1_host(ssl_, name.c_str()) != 1) return tls_failed(failure, 0);
    }
    int rc = SSL_connect(ssl_);
    return rc == 1 || tls_failed(failure, rc);
  }

  /// True when the destination has not closed (or written to) the idle connection.
  bool usable() const {
    char c;
    ssize_t n = ::recv(fd_, &c, 1, MSG_PEEK | MSG_DONTWAIT);
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
  }

  bool send_all(std::string_view data, Failure& failure) {
    while (!data.empty()) {
      ssize_t n;
      if (ssl_) {
        ERR_clear_error();
        int rc = SSL_write(ssl_, data.data(), static_cast<int>(std::min<std::size_t>(data.size(), 1 << 30)));
        if (rc <= 0) return io_failed(failure, rc, "escrita");
        n = rc;
      } else {
        n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return io_failed(failure, -1, "escrita");
      }
      data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
  }

  /// Appends what arrives to `buffer`: >0 bytes read, 0 the destination closed, <0 failure.
  ssize_t receive(Failure& failure) {
    char chunk[16384];
    for (;;) {
      ssize_t n;
      if (ssl_) {
        ERR_clear_error();
        int rc = SSL_read(ssl_, chunk, sizeof chunk);
        if (rc <= 0 && SSL_get_error(ssl_, rc) == SSL_ERROR_ZERO_RETURN) return 0;
        if (rc <= 0) {
          io_failed(failure, rc, "leitura");
          return -1;
        }
        n = rc;
      } else {
        n = ::recv(fd_, chunk, sizeof chunk, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
          io_failed(failure, -1, "leitura");
          return -1;
        }
      }
      buffer.append(chunk, static_cast<std::size_t>(n));
      return n;
    }
  }

 private:
  void set_option(int name, std::chrono::milliseconds ms) {
    timeval tv{static_cast<time_t>(ms.count() / 1000), static_cast<suseconds_t>((ms.count() % 1000) * 1000)};
    ::setsockopt(fd_, SOL_SOCKET, name, &tv, sizeof tv);
  }

  // A socket time-out shows as EAGAIN (plain) or SSL_ERROR_WANT_* / SYSCALL with EAGAIN.
  bool io_failed(Failure& failure, int rc, const char* what) {
    const int saved = errno;
    bool timed_out = saved == EAGAIN || saved == EWOULDBLOCK;
    if (ssl_) {
      int err = SSL_get_error(ssl_, rc);
      timed_out = err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE || (err == SSL_ERROR_SYSCALL && timed_out);
    }
    failure = timed_out ? Failure{UpstreamResult::Outcome::timeout, std::string("tempo de ") + what + " esgotado"}
                        : Failure{UpstreamResult::Outcome::failed, std::string(what) + ": " + std::strerror(saved)};
    return false;
  }

  bool tls_failed(Failure& failure, int rc) {
    if (ssl_ && rc <= 0) {
      int err = SSL_get_error(ssl_, rc);
      if (err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE) {
        failure = {UpstreamResult::Outcome::timeout, "tempo esgotado no aperto de mão TLS"};
        return false;
      }
    }
    std::string detail = "TLS: ";
    long verify = ssl_ ? SSL_get_verify_result(ssl_) : X509_V_OK;
    if (verify != X509_V_OK) detail += X509_verify_cert_error_string(verify);
    else if (unsigned long e = ERR_get_error()) detail += ERR_reason_error_string(e) ? ERR_reason_error_string(e) : "erro";
    else detail += "falha no aperto de mão";
    failure = {UpstreamResult::Outcome::connect_failed, detail};
    return false;
  }

  int fd_;
  std::string host_;
  SSL* ssl_ = nullptr;
  std::chrono::milliseconds read_{0}, write_{0};
};

namespace {

bool idempotent(const std::string& method) { return method == "GET" || method == "HEAD"; }

// Connects with a bounded wait: a non-blocking connect() polled for `timeout`, then the
// socket is made blocking again (reads and writes are bounded by SO_RCVTIMEO/SO_SNDTIMEO).
std::unique_ptr<UpstreamConnection> connect_to(const std::string& origin, const Timeouts& t, SSL_CTX* tls,
                                               Failure& failure) {
  const std::chrono::milliseconds timeout = t.connect;
  auto url = parse_url(origin);
  if (!url) {
    failure = {Outcome::connect_failed, "destino inválido: " + origin};
    return nullptr;
  }
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const std::string port = std::to_string(url->port);
  if (int rc = ::getaddrinfo(url->host.c_str(), port.c_str(), &hints, &found); rc != 0) {
    failure = {Outcome::connect_failed, std::string("resolução de nome: ") + ::gai_strerror(rc)};
    return nullptr;
  }
  std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> list(found, &::freeaddrinfo);
  failure = {Outcome::connect_failed, "sem endereço"};
  for (addrinfo* a = found; a; a = a->ai_next) {
    int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    int rc = ::connect(fd, a->ai_addr, a->ai_addrlen);
    if (rc < 0 && errno == EINPROGRESS) {
      pollfd p{fd, POLLOUT, 0};
      rc = ::poll(&p, 1, static_cast<int>(timeout.count()));
      if (rc == 0) {
        ::close(fd);
        failure = {Outcome::timeout, "tempo de conexão esgotado"};
        continue;
      }
      int err = 0;
      socklen_t len = sizeof err;
      if (rc < 0 || ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0 || err != 0) {
        ::close(fd);
        failure = {Outcome::connect_failed, std::string("conexão: ") + std::strerror(err ? err : errno)};
        continue;
      }
    } else if (rc < 0) {
      failure = {Outcome::connect_failed, std::string("conexão: ") + std::strerror(errno)};
      ::close(fd);
      continue;
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    const bool https = url->scheme == "https";
    const bool default_port = url->port == (https ? 443 : 80);
    auto conn = std::make_unique<UpstreamConnection>(fd, default_port ? url->host : url->host + ":" + port);
    conn->set_timeouts(t.read, t.write);  // also bounds the TLS handshake
    if (https && !conn->start_tls(tls, url->host, failure)) return nullptr;
    return conn;
  }
  return nullptr;
}

}  // namespace

// ---- BodyStream --------------------------------------------------------------------------

// The body still to be read: its framing, progress and the connection it arrives on.
struct BodyStream::State {
  UpstreamPool* pool = nullptr;
  std::string origin;
  std::unique_ptr<UpstreamConnection> conn;
  wire::Framing framing = wire::Framing::until_close;
  std::uint64_t remaining = 0;  ///< Framing::length: bytes still to come
  wire::ChunkedDecoder chunked;
  std::uint64_t delivered = 0;  ///< body bytes handed out so far (inline part included)
  std::uint64_t max = 0;
  bool keep_alive = false;

  // Moves the body bytes in conn->buffer to `out`; true once the body is complete.
  bool take(std::string& out) {
    std::string& in = conn->buffer;
    switch (framing) {
      case wire::Framing::none:
        return true;
      case wire::Framing::length: {
        std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(remaining, in.size()));
        out.append(in, 0, n);
        in.erase(0, n);
        remaining -= n;
        return remaining == 0;
      }
      case wire::Framing::chunked: {
        std::size_t used = chunked.feed(in, out);
        in.erase(0, used);
        return chunked.done();
      }
      case wire::Framing::until_close:
        out.append(in);
        in.clear();
        return false;  // complete only when the destination closes
    }
    return false;
  }

  // Reads the body into `out` until it is complete or `out` holds at least `limit` bytes.
  // Returns complete/ok; on failure sets `failure` and returns false via `ok`.
  bool read_until(std::string& out, std::size_t limit, bool& complete, Failure& failure) {
    complete = take(out);
    while (!complete && out.size() < limit) {
      if (chunked.failed()) {
        failure = {Outcome::failed, "codificação chunked inválida"};
        return false;
      }
      ssize_t n = conn->receive(failure);
      if (n < 0) return false;
      if (n == 0) {
        if (framing == wire::Framing::until_close) {
          complete = true;
          break;
        }
        failure = {Outcome::failed, "o destino fechou a conexão no meio do corpo"};
        return false;
      }
      complete = take(out);
    }
    if (chunked.failed()) {
      failure = {Outcome::failed, "codificação chunked inválida"};
      return false;
    }
    delivered += out.size();
    if (delivered > max) {
      failure = {Outcome::too_large, "corpo acima do limite"};
      return false;
    }
    return true;
  }

  // A complete body: the connection may serve the next call.
  void finish() {
    if (keep_alive && conn->buffer.empty() && framing != wire::Framing::until_close) pool->give_back(origin, std::move(conn));
    conn.reset();
  }
};

BodyStream::BodyStream(std::unique_ptr<State> state) : state_(std::move(state)) {}
BodyStream::~BodyStream() = default;

bool BodyStream::pump(const Write& write) {
  if (!state_ || !state_->conn) return false;
  for (;;) {
    std::string piece;
    bool complete = false;
    Failure failure{Outcome::failed, ""};
    // Whatever one read brings is passed on at once: waiting for more would hold back bytes
    // the caller could already have while the destination pauses.
    if (!state_->read_until(piece, 1, complete, failure)) {
      state_->conn.reset();
      return false;
    }
    if (!piece.empty() && !write(piece.data(), piece.size())) {
      state_->conn.reset();  // the caller left mid-body: the connection is not reusable
      return false;
    }
    if (complete) {
      state_->finish();
      return true;
    }
  }
}

// ---- UpstreamPool ------------------------------------------------------------------------

namespace {

// The client context of every https connection: TLS ≥ 1.2, peers verified against the
// system's CAs plus `ca_file`. Loading the CA store is the costly part, hence built once.
std::shared_ptr<ssl_ctx_st> make_tls_context(const std::string& ca_file) {
  std::shared_ptr<ssl_ctx_st> ctx(SSL_CTX_new(TLS_client_method()), &SSL_CTX_free);
  if (!ctx) throw Error(errc::internal, "não foi possível iniciar o TLS (OpenSSL)");
  SSL_CTX_set_min_proto_version(ctx.get(), TLS1_2_VERSION);
  SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
  SSL_CTX_set_default_verify_paths(ctx.get());
  if (!ca_file.empty() && SSL_CTX_load_verify_locations(ctx.get(), ca_file.c_str(), nullptr) != 1)
    throw Error(errc::invalid_argument, "upstream.ca_file ilegível ou sem certificados PEM: " + ca_file,
                "upstream.ca_file");
  return ctx;
}

}  // namespace

UpstreamPool::UpstreamPool(Timeouts timeouts, UpstreamLimits limits) : timeouts_(timeouts), limits_(limits) {
  // A configured CA file is checked at start-up; otherwise the context waits for the first
  // https destination (most deployments have none).
  if (!limits_.ca_file.empty()) tls_context();
}

SSL_CTX* UpstreamPool::tls_context() {
  std::call_once(tls_once_, [this] { tls_ = make_tls_context(limits_.ca_file); });
  return tls_.get();
}

UpstreamPool::~UpstreamPool() = default;

std::unique_ptr<UpstreamConnection> UpstreamPool::lease(const std::string& origin, bool retryable, bool& reused) {
  auto now = Clock::now();
  std::vector<std::unique_ptr<UpstreamConnection>> stale;  // closed outside the lock
  std::unique_ptr<UpstreamConnection> out;
  bool recently_used = false;
  {
    std::lock_guard lock(mutex_);
    Host& h = hosts_[origin];
    while (!h.idle.empty()) {
      Idle item = std::move(h.idle.back());
      h.idle.pop_back();
      if (now - item.since > limits_.idle) {
        stale.push_back(std::move(item.connection));
        continue;
      }
      out = std::move(item.connection);
      recently_used = now - item.since < kTrustedIdle;
      break;
    }
  }
  // Destinations close idle connections after seconds, not milliseconds: a connection
  // used a moment ago is taken as it is (a retryable request retries if it was closed
  // after all), which saves a system call per request under load.
  if (out && !(retryable && recently_used) && !out->usable()) {
    stale.push_back(std::move(out));
    out.reset();
  }
  reused = out != nullptr;
  std::lock_guard lock(mutex_);
  Host& h = hosts_[origin];
  if (reused) ++h.reused;
  return out;
}

void UpstreamPool::give_back(const std::string& origin, std::unique_ptr<UpstreamConnection> connection) {
  std::lock_guard lock(mutex_);
  Host& h = hosts_[origin];
  if (h.idle.size() >= limits_.max_idle_per_host) return;  // `connection` closes as it goes out of scope
  h.idle.push_back({std::move(connection), Clock::now()});
}

UpstreamResult UpstreamPool::exchange(std::unique_ptr<UpstreamConnection>& conn, const UpstreamRequest& req,
                                      const Timeouts& t, bool& got_bytes) {
  UpstreamResult out;
  Failure failure{Outcome::failed, ""};
  auto fail = [&]() {
    out.outcome = failure.outcome;
    out.detail = std::move(failure.detail);
    out.body.clear();
    conn.reset();
    return std::move(out);
  };
  if (!conn) {
    SSL_CTX* tls = req.origin.rfind("https://", 0) == 0 ? tls_context() : nullptr;
    conn = connect_to(req.origin, t, tls, failure);
    if (!conn) return fail();
    std::lock_guard lock(mutex_);
    ++hosts_[req.origin].opened;
  }
  conn->set_timeouts(t.read, t.write);
  conn->buffer.clear();

  std::string head = wire::request_head(req.method, conn->host(), req.target, req.headers, req.body.size(), req.content_type);
  if (req.body.size() < 16 * 1024) {  // one write for the common small request
    head += req.body;
    if (!conn->send_all(head, failure)) return fail();
  } else if (!conn->send_all(head, failure) || !conn->send_all(req.body, failure)) {
    return fail();
  }

  wire::ResponseHead rh;
  for (;;) {
    auto parsed = wire::parse_response_head(conn->buffer, req.method, rh);
    if (parsed == wire::HeadResult::malformed) {
      failure = {Outcome::failed, "cabeçalho de resposta inválido"};
      return fail();
    }
    if (parsed == wire::HeadResult::complete) {
      conn->buffer.erase(0, rh.size);
      if (rh.status >= 100 && rh.status < 200 && rh.status != 101) continue;  // interim answer
      break;
    }
    ssize_t n = conn->receive(failure);
    if (n < 0) return fail();
    if (n == 0) {
      failure = {Outcome::failed, "o destino fechou a conexão sem responder"};
      return fail();
    }
    got_bytes = true;
  }
  got_bytes = true;
  out.status = rh.status;
  out.headers = std::move(rh.headers);
  if (rh.framing == wire::Framing::length) {
    out.content_length = rh.content_length;
    if (rh.content_length > limits_.max_response_bytes) {
      failure = {Outcome::too_large, "corpo anunciado acima do limite"};
      return fail();
    }
  }

  auto state = std::make_unique<BodyStream::State>();
  state->pool = this;
  state->origin = req.origin;
  state->framing = rh.framing;
  state->remaining = rh.content_length;
  state->keep_alive = rh.keep_alive;
  state->max = limits_.max_response_bytes;
  state->conn = std::move(conn);
  // Read whole unless the caller can stream and the body is (or may be) large.
  const std::size_t limit = req.stream_large_body ? limits_.inline_body_bytes : limits_.max_response_bytes + 1;
  bool complete = false;
  if (!state->read_until(out.body, limit, complete, failure)) return fail();
  out.outcome = Outcome::ok;
  if (complete) state->finish();
  else out.rest = std::shared_ptr<BodyStream>(new BodyStream(std::move(state)));
  return out;
}

UpstreamResult UpstreamPool::send(const UpstreamRequest& req) {
  bool reused = false;
  auto conn = lease(req.origin, idempotent(req.method), reused);
  bool got_bytes = false;
  auto started = Clock::now();
  UpstreamResult r = exchange(conn, req, timeouts_, got_bytes);
  if (r.outcome == Outcome::failed && reused && !got_bytes && idempotent(req.method)) {
    // The destination closed the idle connection just as it was reused: try a new one.
    conn.reset();
    got_bytes = false;
    r = exchange(conn, req, timeouts_, got_bytes);
  }
  r.elapsed = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - started);
  return r;
}

UpstreamResult UpstreamPool::probe(const std::string& url, std::chrono::milliseconds timeout) {
  UpstreamResult r;
  auto u = parse_url(url);
  if (!u) {
    r.outcome = Outcome::connect_failed;
    r.detail = "endereço inválido";
    return r;
  }
  UpstreamRequest req;
  req.origin = u->origin();
  req.target = u->target();
  req.headers.emplace_back("Connection", "close");
  std::unique_ptr<UpstreamConnection> conn;  // a fresh connection, not pooled
  bool got_bytes = false;
  auto started = Clock::now();
  r = exchange(conn, req, Timeouts{timeout, timeout, timeout}, got_bytes);
  r.elapsed = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - started);
  return r;
}

std::map<std::string, UpstreamPool::HostStats> UpstreamPool::stats() const {
  std::lock_guard lock(mutex_);
  std::map<std::string, HostStats> out;
  for (const auto& [origin, h] : hosts_) out[origin] = {h.idle.size(), h.opened, h.reused};
  return out;
}

}  // namespace cadastre::gateway
