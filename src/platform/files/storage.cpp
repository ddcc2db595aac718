#include "platform/files/storage.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "cadastre/error.hpp"
#include "media_layout/layout.hpp"  // header-only: the media key syntax both services share
#include "store/crypto.hpp"

namespace cadastre::platform::files {
namespace fs = std::filesystem;
namespace {

// Not a catalog error: the server logs the system's words (they name paths of the store)
// and answers the generic 500, so they never reach the client.
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

// Writes `bytes` to a temporary name in the target's folder (which no key matches), fsyncs
// it and renames it into place: a reader never sees a partial file, a failure leaves none.
void write_atomically(const fs::path& target, std::string_view bytes) {
  std::error_code ec;
  fs::create_directories(target.parent_path(), ec);
  if (ec) throw std::runtime_error("falha ao criar a pasta do arquivo: " + ec.message());
  fs::path tmp = target.parent_path() / (".tmp-" + store::random_token().substr(0, 16));
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0640);
  if (fd < 0) write_failed("criação");
  try {
    write_all(fd, bytes);
    if (::fsync(fd) != 0) write_failed("fsync");
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  ::close(fd);
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    int saved = errno;
    ::unlink(tmp.c_str());
    errno = saved;
    write_failed("rename");
  }
  int dir = ::open(target.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);  // the new name survives a crash
    ::close(dir);
  }
}

}  // namespace

std::string folder_of(const Folder& f) {
  if (f.camada) return "camadas/" + std::to_string(*f.camada) + "/arquivos";
  if (f.projeto) return "projetos/" + std::to_string(*f.projeto) + "/arquivos";
  return "plataforma";
}

bool valid_key(std::string_view key) { return cadastre::media::parse_key(key).has_value(); }

bool valid_key(std::string_view key, std::string_view slug) {
  auto k = cadastre::media::parse_key(key);
  return k && k->area == slug;
}

fs::path Storage::path(const std::string& slug, const Folder& folder, const std::string& key) const {
  if (root_.empty()) throw Error(errc::unavailable, "a plataforma está sem armazenamento de arquivos");
  if (!valid_key(key, slug)) throw Error(errc::internal, "chave de arquivo inválida");
  return fs::path(root_) / slug / folder_of(folder) / key;
}

Stored Storage::put(const std::string& slug, const Folder& folder, std::string_view bytes, std::size_t limit,
                    bool images_only, const std::string& field) const {
  if (bytes.size() > limit)
    throw Error(errc::payload_too_large,
                "arquivo de " + std::to_string(bytes.size()) + " bytes excede o limite de " + std::to_string(limit) +
                    " bytes",
                field);
  if (bytes.empty()) throw Error(errc::invalid_argument, "arquivo vazio", field);
  Kind kind = require_kind(bytes, images_only, field);
  Stored out{cadastre::media::make_key(slug, store::random_token(), "." + kind.extension), kind.media_type,
             store::sha256_hex(bytes), bytes.size(), kind.image};
  write_atomically(path(slug, folder, out.key), bytes);
  return out;
}

std::optional<std::string> Storage::read(const std::string& slug, const Folder& folder, const std::string& key) const {
  return read_path(path(slug, folder, key));
}

std::optional<std::string> Storage::read_path(const fs::path& p) {
  // O_NOFOLLOW: a link planted in the store under a key's name is not followed; O_NONBLOCK:
  // a FIFO does not hang the worker (regular files ignore it).
  int fd = ::open(p.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  std::optional<std::string> out;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    out.emplace();
    char buf[1 << 16];
    for (;;) {
      ssize_t n = ::read(fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      out->append(buf, static_cast<std::size_t>(n));
    }
  }
  ::close(fd);
  return out;
}

void Storage::remove(const std::string& slug, const Folder& folder, const std::string& key) const noexcept {
  if (root_.empty() || !valid_key(key, slug)) return;
  std::error_code ec;
  fs::path p = fs::path(root_) / slug / folder_of(folder) / key;
  fs::remove(p, ec);
  fs::remove(p.string() + kPreviewSuffix, ec);
  fs::remove(p.string() + kNoPreviewSuffix, ec);
}

void Storage::put_preview(const std::string& slug, const Folder& folder, const std::string& key,
                          std::string_view png) const {
  write_atomically(path(slug, folder, key).string() + kPreviewSuffix, png);
}

std::optional<std::string> Storage::read_preview(const std::string& slug, const Folder& folder,
                                                 const std::string& key) const {
  return read_path(path(slug, folder, key).string() + kPreviewSuffix);
}

// The note is the refusal's code (its number) on the first line, its message after.
void Storage::put_no_preview(const std::string& slug, const Folder& folder, const std::string& key,
                             const NoPreview& why) const {
  write_atomically(path(slug, folder, key).string() + kNoPreviewSuffix,
                   std::to_string(static_cast<int>(why.code)) + "\n" + why.message);
}

std::optional<NoPreview> Storage::read_no_preview(const std::string& slug, const Folder& folder,
                                                  const std::string& key) const {
  auto note = read_path(path(slug, folder, key).string() + kNoPreviewSuffix);
  if (!note) return std::nullopt;
  const auto nl = note->find('\n');
  NoPreview out;
  out.message = nl == std::string::npos ? *note : note->substr(nl + 1);
  out.code = errc::unprocessable;
  for (errc known : {errc::payload_too_large, errc::not_found})
    if (note->rfind(std::to_string(static_cast<int>(known)) + "\n", 0) == 0) out.code = known;
  return out;
}

}  // namespace cadastre::platform::files
