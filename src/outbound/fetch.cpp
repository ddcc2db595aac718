#include "outbound/fetch.hpp"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "cadastre/error.hpp"
#include "http/http.hpp"

namespace cadastre::outbound {
namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void failed(std::string message) {
  throw Error(errc::upstream_failed, std::move(message));
}

[[noreturn]] void forbidden(std::string reason) {
  throw Error(errc::forbidden, "destino não permitido: " + std::move(reason));
}

bool is_redirect(int status) {
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

// One hop of the call: what is sent where.
struct Hop {
  std::string method;
  Target target;
  HeaderList headers;
  std::string body, content_type;
};

// A resolved address, as connect() takes it and as the policy judges it.
struct Endpoint {
  sockaddr_storage storage{};
  socklen_t size = 0;
  Address address;
};

std::vector<Endpoint> endpoints_of(const addrinfo* list) {
  std::vector<Endpoint> out;
  for (const addrinfo* a = list; a; a = a->ai_next) {
    Endpoint e;
    if (a->ai_family == AF_INET) {
      const auto* in = reinterpret_cast<const sockaddr_in*>(a->ai_addr);
      std::memcpy(e.address.bytes.data(), &in->sin_addr, 4);
    } else if (a->ai_family == AF_INET6) {
      const auto* in6 = reinterpret_cast<const sockaddr_in6*>(a->ai_addr);
      e.address.v6 = true;
      std::memcpy(e.address.bytes.data(), &in6->sin6_addr, 16);
    } else {
      continue;
    }
    std::memcpy(&e.storage, a->ai_addr, a->ai_addrlen);
    e.size = a->ai_addrlen;
    out.push_back(e);
  }
  return out;
}

// getaddrinfo() has no time-out of its own (the resolver's retries can take tens of
// seconds), so a name is resolved on a thread of its own while the call waits at most until
// the deadline; a lookup still running then finishes and frees its result by itself.
struct Lookup {
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  int rc = 0;
  addrinfo* list = nullptr;
  ~Lookup() {
    if (list) ::freeaddrinfo(list);
  }
};

std::vector<Endpoint> resolve(const Target& t, Clock::time_point deadline) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = t.literal ? AI_NUMERICHOST : 0;
  const std::string port = std::to_string(t.port);
  auto lookup = std::make_shared<Lookup>();
  if (t.literal) {
    lookup->rc = ::getaddrinfo(t.host.c_str(), port.c_str(), &hints, &lookup->list);
  } else {
    std::thread([lookup, host = t.host, port, hints] {
      addrinfo* list = nullptr;
      int rc = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &list);
      std::lock_guard lock(lookup->mutex);
      lookup->rc = rc;
      lookup->list = list;
      lookup->done = true;
      lookup->finished.notify_one();
    }).detach();
    std::unique_lock lock(lookup->mutex);
    if (!lookup->finished.wait_until(lock, deadline, [&] { return lookup->done; }))
      throw Error(errc::upstream_timeout, "tempo esgotado ao resolver o nome '" + t.host + "'");
  }
  if (lookup->rc != 0)
    failed("não foi possível resolver o nome '" + t.host + "': " + ::gai_strerror(lookup->rc));
  auto out = endpoints_of(lookup->list);
  if (out.empty()) failed("o nome '" + t.host + "' não tem endereço IP");
  return out;
}

// The client context of every https call with the same ca_file: TLS ≥ 1.2, peers verified
// against the system's CAs plus ca_file. Loading the CA store is the costly part, so
// contexts are built once and kept for the life of the process.
SSL_CTX* tls_context(const std::string& ca_file) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)>> contexts;
  std::lock_guard lock(mutex);
  if (auto it = contexts.find(ca_file); it != contexts.end()) return it->second.get();
  std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)> ctx(SSL_CTX_new(TLS_client_method()),
                                                        &SSL_CTX_free);
  if (!ctx) throw Error(errc::internal, "não foi possível iniciar o TLS (OpenSSL)");
  SSL_CTX_set_min_proto_version(ctx.get(), TLS1_2_VERSION);
  SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
  SSL_CTX_set_default_verify_paths(ctx.get());
  // Servers that close without close_notify are common; framing by length or chunks still
  // detects a truncated body.
  SSL_CTX_set_options(ctx.get(), SSL_OP_IGNORE_UNEXPECTED_EOF);
  if (!ca_file.empty() && SSL_CTX_load_verify_locations(ctx.get(), ca_file.c_str(), nullptr) != 1)
    throw Error(errc::internal, "ca_file ilegível ou sem certificados PEM: " + ca_file);
  return contexts.emplace(ca_file, std::move(ctx)).first->second.get();
}

// One connection to a checked address, non-blocking throughout: every wait is a poll()
// bounded by the call's deadline.
class Connection {
 public:
  Connection(const Target& target, Clock::time_point deadline)
      : target_(target), deadline_(deadline) {}
  ~Connection() {
    if (ssl_) SSL_free(ssl_);
    if (fd_ >= 0) ::close(fd_);
  }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Tries the addresses in order, each for at most `timeout`.
  void connect(const std::vector<Endpoint>& endpoints, std::chrono::milliseconds timeout) {
    std::string error = "sem endereço";
    bool timed_out = false;
    for (const Endpoint& e : endpoints) {
      int fd = ::socket(e.storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
      if (fd < 0) {
        error = std::strerror(errno);
        continue;
      }
      int err =
          ::connect(fd, reinterpret_cast<const sockaddr*>(&e.storage), e.size) == 0 ? 0 : errno;
      if (err == EINPROGRESS) {
        err = ETIMEDOUT;
        if (poll_until(fd, POLLOUT, std::min(deadline_, Clock::now() + timeout))) {
          socklen_t len = sizeof err;
          if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0) err = errno;
        }
      }
      if (err == 0) {
        fd_ = fd;
        int one = 1;
        ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        return;
      }
      ::close(fd);
      timed_out = err == ETIMEDOUT;
      error = std::strerror(err);
      if (Clock::now() >= deadline_) break;
    }
    if (timed_out)
      throw Error(errc::upstream_timeout, "tempo de conexão esgotado com " + target_.authority());
    failed("falha ao conectar a " + target_.authority() + ": " + error);
  }

  // TLS handshake: SNI and certificate checked against the URL's host (its IP address when
  // the URL names one), never against the address connected to.
  void start_tls(SSL_CTX* ctx) {
    ssl_ = SSL_new(ctx);
    if (!ssl_ || SSL_set_fd(ssl_, fd_) != 1) tls_failed();
    X509_VERIFY_PARAM* param = SSL_get0_param(ssl_);
    if (target_.literal) {
      if (X509_VERIFY_PARAM_set1_ip_asc(param, target_.host.c_str()) != 1) tls_failed();
    } else if (SSL_set_tlsext_host_name(ssl_, target_.host.c_str()) != 1 ||
               SSL_set1_host(ssl_, target_.host.c_str()) != 1) {
      tls_failed();
    }
    for (;;) {
      ERR_clear_error();
      int rc = SSL_connect(ssl_);
      if (rc == 1) return;
      if (!wait_tls(rc)) tls_failed();
    }
  }

  void send_all(std::string_view data) {
    while (!data.empty()) {
      ssize_t n;
      if (ssl_) {
        ERR_clear_error();
        int rc = SSL_write(ssl_, data.data(),
                           static_cast<int>(std::min<std::size_t>(data.size(), 1 << 30)));
        if (rc <= 0) {
          if (!wait_tls(rc)) failed("falha ao enviar a " + target_.authority() + " (TLS)");
          continue;
        }
        n = rc;
      } else {
        n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
        if (n < 0) {
          if (errno == EAGAIN || errno == EWOULDBLOCK)
            wait(POLLOUT);
          else if (errno != EINTR)
            failed("falha ao enviar a " + target_.authority() + ": " + std::strerror(errno));
          continue;
        }
      }
      data.remove_prefix(static_cast<std::size_t>(n));
    }
  }

  // Appends what arrives to `buffer`; 0 when the server closed the connection.
  std::size_t receive(std::string& buffer) {
    std::array<char, 16384> chunk;
    for (;;) {
      ssize_t n;
      if (ssl_) {
        ERR_clear_error();
        int rc = SSL_read(ssl_, chunk.data(), static_cast<int>(chunk.size()));
        if (rc <= 0) {
          if (SSL_get_error(ssl_, rc) == SSL_ERROR_ZERO_RETURN) return 0;
          if (!wait_tls(rc)) failed("falha ao ler a resposta de " + target_.authority() + " (TLS)");
          continue;
        }
        n = rc;
      } else {
        n = ::recv(fd_, chunk.data(), chunk.size(), 0);
        if (n < 0) {
          if (errno == EAGAIN || errno == EWOULDBLOCK)
            wait(POLLIN);
          else if (errno != EINTR)
            failed("falha ao ler a resposta de " + target_.authority() + ": " +
                   std::strerror(errno));
          continue;
        }
      }
      buffer.append(chunk.data(), static_cast<std::size_t>(n));
      return static_cast<std::size_t>(n);
    }
  }

 private:
  // Waits until `fd` is ready for `events` or `until`; false on time-out.
  static bool poll_until(int fd, short events, Clock::time_point until) {
    for (;;) {
      auto left = std::chrono::ceil<std::chrono::milliseconds>(until - Clock::now()).count();
      if (left <= 0) return false;
      pollfd p{fd, events, 0};
      int rc = ::poll(&p, 1, static_cast<int>(left));
      if (rc > 0) return true;
      if (rc == 0) return false;
      if (errno != EINTR) return true;  // the next read or write reports the error
    }
  }

  void wait(short events) {
    if (!poll_until(fd_, events, deadline_))
      throw Error(errc::upstream_timeout, "tempo esgotado esperando " + target_.authority());
  }

  // After an SSL call returned `rc`: waits for what it wants and returns true, or false on a
  // real failure.
  bool wait_tls(int rc) {
    switch (SSL_get_error(ssl_, rc)) {
      case SSL_ERROR_WANT_READ:
        wait(POLLIN);
        return true;
      case SSL_ERROR_WANT_WRITE:
        wait(POLLOUT);
        return true;
      default:
        return false;
    }
  }

  [[noreturn]] void tls_failed() {
    std::string reason;
    if (long verify = ssl_ ? SSL_get_verify_result(ssl_) : X509_V_OK; verify != X509_V_OK)
      reason = std::string("certificado recusado: ") + X509_verify_cert_error_string(verify);
    else if (const char* r = ERR_reason_error_string(ERR_get_error()))
      reason = r;
    else
      reason = "falha no aperto de mão";
    failed("TLS com " + target_.authority() + ": " + reason);
  }

  const Target& target_;
  Clock::time_point deadline_;
  int fd_ = -1;
  SSL* ssl_ = nullptr;
};

[[noreturn]] void too_large(const Target& t, std::size_t max) {
  failed("resposta de " + t.authority() + " acima do limite de " + std::to_string(max) + " bytes");
}

// Reads the body that follows `head` (its first bytes may already be in `buffer`).
std::string read_body(Connection& conn, const wire::ResponseHead& head, std::string& buffer,
                      const Target& t, std::size_t max) {
  std::string body;
  auto more = [&] {
    if (conn.receive(buffer) == 0) failed(t.authority() + " fechou a conexão no meio da resposta");
  };
  switch (head.framing) {
    case wire::Framing::none:
      break;
    case wire::Framing::length:
      if (head.content_length > max) too_large(t, max);
      while (buffer.size() < head.content_length) more();
      body = buffer.substr(0, static_cast<std::size_t>(head.content_length));
      break;
    case wire::Framing::chunked: {
      wire::ChunkedDecoder decoder;
      for (;;) {
        buffer.erase(0, decoder.feed(buffer, body));
        if (decoder.failed())
          failed("codificação chunked inválida na resposta de " + t.authority());
        if (body.size() > max) too_large(t, max);
        if (decoder.done()) break;
        more();
      }
      break;
    }
    case wire::Framing::until_close:
      for (;;) {
        body += buffer;
        buffer.clear();
        if (body.size() > max) too_large(t, max);
        if (conn.receive(buffer) == 0) break;
      }
      break;
  }
  return body;
}

// One request and its answer. The body of a redirect that will be followed is not read.
Response exchange(const Policy& policy, const Hop& hop, Clock::time_point deadline) {
  const Target& t = hop.target;
  if (!host_allowed(policy, t))
    forbidden("o host '" + t.host + "' não está na lista de hosts permitidos");
  const auto endpoints = resolve(t, deadline);
  for (const Endpoint& e : endpoints) {
    if (auto why = address_refusal(policy, e.address))
      forbidden(t.literal ? e.address.str() + " é " + *why
                          : "'" + t.host + "' resolve para " + e.address.str() + ", " + *why);
  }
  Connection conn(t, deadline);
  conn.connect(endpoints, policy.connect_timeout);
  if (t.scheme == "https") conn.start_tls(tls_context(policy.ca_file));

  std::string out = wire::request_head(hop.method, t.authority(), t.target, hop.headers,
                                       hop.body.size(), hop.content_type);
  out += hop.body;
  conn.send_all(out);

  std::string buffer;
  wire::ResponseHead head;
  for (;;) {
    auto parsed = wire::parse_response_head(buffer, hop.method, head);
    if (parsed == wire::HeadResult::malformed) failed("resposta inválida de " + t.authority());
    if (parsed == wire::HeadResult::complete) {
      buffer.erase(0, head.size);
      if (head.status == 101) failed("resposta inesperada (101) de " + t.authority());
      if (head.status >= 200) break;
      continue;  // an interim 1xx answer
    }
    if (conn.receive(buffer) == 0) failed(t.authority() + " fechou a conexão sem responder");
  }

  Response r;
  r.status = head.status;
  r.headers = std::move(head.headers);
  r.final_url = t.str();
  if (!(is_redirect(r.status) && r.header("Location")))
    r.body = read_body(conn, head, buffer, t, policy.max_bytes);
  return r;
}

void check_request(const Request& request) {
  if (!wire::is_token(request.method))
    throw Error(errc::invalid_argument, "método HTTP inválido: '" + request.method + "'", "method");
  for (const auto& [name, value] : request.headers) {
    if (!wire::is_token(name) ||
        value.find_first_of(std::string_view("\r\n\0", 3)) != std::string::npos)
      throw Error(errc::invalid_argument, "cabeçalho inválido: '" + name + "'", "headers");
  }
}

void remove_header(HeaderList& headers, std::string_view name) {
  std::erase_if(headers, [&](const auto& h) { return http::equal_ignoring_case(h.first, name); });
}

bool has_header(const HeaderList& headers, std::string_view name) {
  return std::any_of(headers.begin(), headers.end(),
                     [&](const auto& h) { return http::equal_ignoring_case(h.first, name); });
}

}  // namespace

const std::string* Response::header(std::string_view name) const noexcept {
  for (const auto& [k, v] : headers)
    if (http::equal_ignoring_case(k, name)) return &v;
  return nullptr;
}

Response fetch(const Policy& policy, const Request& request) {
  const auto deadline = Clock::now() + policy.total_timeout;
  check_request(request);
  Hop hop{request.method, parse_target(request.url), request.headers, request.body,
          request.content_type};
  // The client frames the message and closes the connection after it: the caller's
  // versions of these would contradict it.
  for (std::string_view name : {"Host", "Content-Length", "Transfer-Encoding", "Connection"})
    remove_header(hop.headers, name);
  if (!hop.content_type.empty()) remove_header(hop.headers, "Content-Type");
  if (!has_header(hop.headers, "User-Agent")) hop.headers.emplace_back("User-Agent", "libcadastre");
  hop.headers.emplace_back("Connection", "close");

  std::string redirected_from;  // the URL whose answer sent us here, for the messages
  for (int redirects = 0;; ++redirects) {
    Response r;
    try {
      r = exchange(policy, hop, deadline);
    } catch (const Error& e) {
      if (redirected_from.empty() || e.code() != errc::forbidden) throw;
      throw Error(errc::forbidden,
                  std::string(e.what()) + " (redirecionado por " + redirected_from + ")");
    }
    const std::string* location = is_redirect(r.status) ? r.header("Location") : nullptr;
    if (!location) return r;
    if (redirects == policy.max_redirects)
      failed("mais de " + std::to_string(policy.max_redirects) + " redirecionamentos a partir de " +
             request.url);

    Target next;
    try {
      next = parse_target(resolve_reference(hop.target, *location));
    } catch (const Error& e) {
      if (e.code() == errc::invalid_argument)
        failed("redirecionamento de " + r.final_url + " para URL inválida: " + *location);
      if (e.code() != errc::forbidden) throw;
      throw Error(errc::forbidden,
                  std::string(e.what()) + " (redirecionado por " + r.final_url + ")");
    }
    redirected_from = r.final_url;
    if (next.scheme != hop.target.scheme || next.host != hop.target.host ||
        next.port != hop.target.port) {
      // Credentials meant for one server are not handed to the next.
      for (std::string_view name : {"Authorization", "Cookie", "Proxy-Authorization"})
        remove_header(hop.headers, name);
    }
    if ((r.status == 303 && hop.method != "HEAD") ||
        ((r.status == 301 || r.status == 302) && hop.method == "POST")) {
      hop.method = "GET";
      hop.body.clear();
      hop.content_type.clear();
      remove_header(hop.headers, "Content-Type");
    }
    hop.target = std::move(next);
  }
}

}  // namespace cadastre::outbound
