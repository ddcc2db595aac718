#include "server/media/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "cadastre/error.hpp"
#include "server/media/content.hpp"
#include "media_layout/layout.hpp"
#include "store/crypto.hpp"

namespace cadastre::server::media {
namespace {

using cadastre::media::Key;

class Fd {
 public:
  explicit Fd(int fd = -1) noexcept : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  Fd& operator=(Fd&&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const noexcept { return fd_; }
  explicit operator bool() const noexcept { return fd_ >= 0; }

 private:
  int fd_;
};

// A directory below `parent`, never through a symbolic link; created first if asked.
Fd open_child_dir(int parent, const std::string& name, bool create) {
  if (create && ::mkdirat(parent, name.c_str(), 0750) != 0 && errno != EEXIST) return Fd();
  return Fd(::openat(parent, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
}

// The directory of a key: <root>/<area>/<2 hex>. The root itself is the operator's
// choice and may be a link; nothing below it is followed.
Fd open_key_dir(const std::string& root, const Key& k, bool create) {
  Fd r(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!r) return Fd();
  Fd area = open_child_dir(r.get(), std::string(k.area), create);
  if (!area) return Fd();
  return open_child_dir(area.get(), std::string(k.hex.substr(0, 2)), create);
}

// The open regular file of a key, or an invalid Fd.
Fd open_file(const std::string& root, std::string_view key) {
  auto k = cadastre::media::parse_key(key);
  if (!k) return Fd();
  Fd dir = open_key_dir(root, *k, false);
  if (!dir) return Fd();
  // O_NONBLOCK: a FIFO planted in the store must not hang the worker; regular files ignore it.
  Fd f(::openat(dir.get(), std::string(key).c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
  struct stat st {};
  if (!f || ::fstat(f.get(), &st) != 0 || !S_ISREG(st.st_mode)) return Fd();
  return f;
}

// Not a catalog error: the server logs the system's words (they name paths of the store)
// with the request id and answers the generic 500, so they never reach the client.
[[noreturn]] void write_failed(const char* what) {
  throw std::runtime_error(std::string("falha ao gravar o arquivo no armazenamento (") + what + ": " +
                           std::strerror(errno) + ")");
}

void write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) write_failed("write");
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

}  // namespace

StoredFile Files::put(std::string_view area, std::string nome, std::string_view extensao, std::string_view bytes,
                      std::size_t limit) const {
  if (bytes.size() > limit)
    throw Error(errc::payload_too_large,
                "arquivo de " + std::to_string(bytes.size()) + " bytes excede o limite de " + std::to_string(limit) +
                    " bytes",
                "arquivo");
  StoredFile out;
  out.content_type = check_content(extensao, bytes, options_.extensions);
  out.nome = std::move(nome);
  out.extensao = std::string(extensao);
  out.tamanho = bytes.size();
  out.sha256 = store::sha256_hex(bytes);
  out.key = cadastre::media::make_key(area, store::random_token(), extensao);
  auto k = cadastre::media::parse_key(out.key);
  if (!k) throw Error(errc::internal, "área de armazenamento inválida: " + std::string(area));

  std::error_code ec;
  std::filesystem::create_directories(options_.root, ec);
  Fd dir = open_key_dir(options_.root, *k, true);
  if (!dir) write_failed("diretório");
  std::string tmp = ".tmp-" + store::random_token().substr(0, 16);
  {
    Fd f(::openat(dir.get(), tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0640));
    if (!f) write_failed("criação");
    try {
      write_all(f.get(), bytes);
      if (::fsync(f.get()) != 0) write_failed("fsync");
    } catch (...) {
      ::unlinkat(dir.get(), tmp.c_str(), 0);
      throw;
    }
  }
  if (::renameat(dir.get(), tmp.c_str(), dir.get(), out.key.c_str()) != 0) {
    int saved = errno;
    ::unlinkat(dir.get(), tmp.c_str(), 0);
    errno = saved;
    write_failed("rename");
  }
  ::fsync(dir.get());  // the new name survives a crash
  return out;
}

std::optional<std::string> Files::read(std::string_view key) const {
  Fd f = open_file(options_.root, key);
  if (!f) return std::nullopt;
  std::string out;
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(f.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error(std::string("falha ao ler o arquivo: ") + std::strerror(errno));
    if (n == 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  return out;
}

bool Files::exists(std::string_view key) const { return static_cast<bool>(open_file(options_.root, key)); }

void Files::remove(std::string_view key) const noexcept {
  auto k = cadastre::media::parse_key(key);
  if (!k) return;
  Fd dir = open_key_dir(options_.root, *k, false);
  if (dir) ::unlinkat(dir.get(), std::string(key).c_str(), 0);
}

}  // namespace cadastre::server::media
