#include "file_store/file_store.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "cadastre/error.hpp"

namespace cadastre::file_store {
namespace {

constexpr std::string_view kTemporary = ".tmp-";

class Fd {
 public:
  Fd() noexcept : fd_(-1) {}
  explicit Fd(int fd) noexcept : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  Fd& operator=(Fd&& o) noexcept {
    std::swap(fd_, o.fd_);
    return *this;
  }
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const noexcept { return fd_; }
  explicit operator bool() const noexcept { return fd_ >= 0; }

 private:
  int fd_;
};

// Not a catalog error: the server logs the system's words (they name paths of the store)
// and answers the generic 500, so they never reach the client.
[[noreturn]] void failed(const char* what) {
  throw std::runtime_error(std::string("falha no armazenamento de arquivos (") + what + ": " + std::strerror(errno) +
                           ")");
}

bool valid_name(std::string_view n) {
  if (n.empty() || n == "." || n == ".." || n.size() > 255) return false;
  for (char c : n)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
          c == '-'))
      return false;
  return true;
}

// The names of `rel`; empty when one is not valid (the store's temporaries allowed only
// when `own`, for the store's own scratch files).
std::vector<std::string> split(std::string_view rel, bool own) {
  std::vector<std::string> names;
  while (true) {
    auto slash = rel.find('/');
    std::string_view n = rel.substr(0, slash);
    if (!valid_name(n) || (!own && n.substr(0, kTemporary.size()) == kTemporary)) return {};
    names.emplace_back(n);
    if (slash == std::string_view::npos) break;
    rel.remove_prefix(slash + 1);
  }
  return names;
}

std::string random_hex(std::size_t bytes) {
  std::string raw(bytes, '\0');
  std::size_t got = 0;
  while (got < bytes) {
    ssize_t n = ::getrandom(raw.data() + got, bytes - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) failed("getrandom");
    got += static_cast<std::size_t>(n);
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : raw) {
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

void write_all(int fd, std::string_view bytes, off_t offset = -1) {
  while (!bytes.empty()) {
    ssize_t n = offset < 0 ? ::write(fd, bytes.data(), bytes.size()) : ::pwrite(fd, bytes.data(), bytes.size(), offset);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) failed("write");
    bytes.remove_prefix(static_cast<std::size_t>(n));
    if (offset >= 0) offset += n;
  }
}

// A path inside the store, opened component by component.
struct Place {
  Fd dir;            // the directory holding the last name
  std::string name;  // the last name
};

class Walker {
 public:
  explicit Walker(const std::string& root) : root_(root) {
    if (root_.empty()) throw Error(errc::unavailable, "o serviço está sem armazenamento de arquivos");
  }

  // The directory of `rel`'s last name. The root itself is the operator's choice and may be
  // a link; nothing below it is followed. Invalid `rel` or a missing directory (without
  // `create`): an invalid Fd.
  Place open(std::string_view rel, bool create, bool own = false) const {
    std::vector<std::string> names = split(rel, own);
    if (names.empty()) return {};
    if (create) {
      std::error_code ec;  // the root and its parents, the operator's to choose
      std::filesystem::create_directories(root_, ec);
    }
    Fd dir(::open(root_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    for (std::size_t i = 0; dir && i + 1 < names.size(); ++i) {
      const char* n = names[i].c_str();
      if (create && ::mkdirat(dir.get(), n, 0750) != 0 && errno != EEXIST) failed("mkdir");
      dir = Fd(::openat(dir.get(), n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    }
    if (create && !dir) failed("diretório");
    return {std::move(dir), names.back()};
  }

 private:
  const std::string& root_;
};

// The regular file of `rel` open for reading, or an invalid Fd.
Fd open_regular(const std::string& root, std::string_view rel, struct stat& st) {
  Place p = Walker(root).open(rel, false);
  if (!p.dir) return Fd();
  // O_NONBLOCK: a FIFO planted in the store must not hang the worker; regular files ignore it.
  Fd f(::openat(p.dir.get(), p.name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
  if (!f || ::fstat(f.get(), &st) != 0 || !S_ISREG(st.st_mode)) return Fd();
  return f;
}

void sync_dir(const Fd& dir) { ::fsync(dir.get()); }  // the new name survives a crash

}  // namespace

bool valid_relative(std::string_view rel) { return !split(rel, false).empty(); }

void Store::write(std::string_view rel, std::string_view bytes) const {
  Place p = Walker(root_).open(rel, true);
  if (p.name.empty()) throw Error(errc::internal, "caminho inválido no armazenamento de arquivos");
  const std::string tmp = std::string(kTemporary) + random_hex(8);
  {
    Fd f(::openat(p.dir.get(), tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0640));
    if (!f) failed("criação");
    try {
      write_all(f.get(), bytes);
      if (::fsync(f.get()) != 0) failed("fsync");
    } catch (...) {
      ::unlinkat(p.dir.get(), tmp.c_str(), 0);
      throw;
    }
  }
  if (::renameat(p.dir.get(), tmp.c_str(), p.dir.get(), p.name.c_str()) != 0) {
    int saved = errno;
    ::unlinkat(p.dir.get(), tmp.c_str(), 0);
    errno = saved;
    failed("rename");
  }
  sync_dir(p.dir);
}

std::optional<std::string> Store::read(std::string_view rel) const {
  struct stat st {};
  Fd f = open_regular(root_, rel, st);
  if (!f) return std::nullopt;
  std::string out;
  out.reserve(static_cast<std::size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(f.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) failed("read");
    if (n == 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  return out;
}

std::optional<std::uintmax_t> Store::size(std::string_view rel) const {
  struct stat st {};
  if (!open_regular(root_, rel, st)) return std::nullopt;
  return static_cast<std::uintmax_t>(st.st_size);
}

void Store::remove(std::string_view rel) const noexcept {
  if (root_.empty() || !valid_relative(rel)) return;
  try {
    Place p = Walker(root_).open(rel, false);
    if (!p.dir) return;
    if (::unlinkat(p.dir.get(), p.name.c_str(), 0) == 0 || errno != EISDIR) return;
    // A directory: removed with what it holds, its links as links (never followed).
    std::error_code ec;
    std::filesystem::remove_all(path(rel), ec);
  } catch (...) {  // noexcept: a file left behind is space, not inconsistency
  }
}

void Store::rename(std::string_view from, std::string_view to) const {
  Place a = Walker(root_).open(from, false, true);
  if (!a.dir) throw std::runtime_error("arquivo a mover não encontrado no armazenamento");
  Place b = Walker(root_).open(to, true);
  if (b.name.empty()) throw Error(errc::internal, "caminho inválido no armazenamento de arquivos");
  if (::renameat(a.dir.get(), a.name.c_str(), b.dir.get(), b.name.c_str()) != 0) failed("rename");
  sync_dir(b.dir);
}

bool Store::write_at(std::string_view rel, std::uintmax_t offset, std::string_view bytes) const {
  Place p = Walker(root_).open(rel, offset == 0);
  if (!p.dir) return false;
  const int flags = O_WRONLY | O_NOFOLLOW | O_CLOEXEC | (offset == 0 ? O_CREAT : 0);
  Fd f(::openat(p.dir.get(), p.name.c_str(), flags, 0640));
  struct stat st {};
  if (!f || ::fstat(f.get(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  if (static_cast<std::uintmax_t>(st.st_size) < offset) return false;
  if (::ftruncate(f.get(), static_cast<off_t>(offset)) != 0) failed("ftruncate");
  write_all(f.get(), bytes, static_cast<off_t>(offset));
  if (::fsync(f.get()) != 0) failed("fsync");
  if (offset == 0) sync_dir(p.dir);
  return true;
}

std::filesystem::path Store::path(std::string_view rel) const {
  if (root_.empty()) throw Error(errc::unavailable, "o serviço está sem armazenamento de arquivos");
  if (split(rel, true).empty()) throw Error(errc::internal, "caminho inválido no armazenamento de arquivos");
  return std::filesystem::path(root_) / std::string(rel);
}

Store::Scratch Store::scratch(std::string_view dir, std::string_view suffix) const {
  std::string rel = std::string(dir) + "/" + std::string(kTemporary) + random_hex(8) + std::string(suffix);
  Walker(root_).open(rel, true, true);  // its directories
  return Scratch(*this, std::move(rel));
}

std::filesystem::path Store::Scratch::path() const { return store_->path(rel_); }

void Store::Scratch::write(std::string_view bytes) const {
  Fd f(::open(path().c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0640));
  if (!f) failed("criação");
  write_all(f.get(), bytes);
}

void Store::Scratch::publish(std::string_view rel) {
  Fd f(::open(path().c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  if (!f || ::fsync(f.get()) != 0) failed("fsync");
  store_->rename(rel_, rel);
  rel_.clear();
}

Store::Scratch::~Scratch() {
  if (rel_.empty()) return;
  std::error_code ec;
  std::filesystem::remove(std::filesystem::path(store_->root()) / rel_, ec);
}

}  // namespace cadastre::file_store
