#include "server/media/files.hpp"

#include "cadastre/error.hpp"
#include "file_store/keys.hpp"
#include "server/media/content.hpp"
#include "store/crypto.hpp"

namespace cadastre::server::media {
namespace {

// The key's path in the store; empty for a malformed key.
std::string path_of(std::string_view key) {
  auto k = cadastre::media::parse_key(key);
  return k ? cadastre::media::key_path(*k, key) : std::string();
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
  const std::string path = path_of(out.key);
  if (path.empty()) throw Error(errc::internal, "área de armazenamento inválida: " + std::string(area));
  store_.write(path, bytes);
  return out;
}

std::optional<std::string> Files::read(std::string_view key) const {
  const std::string path = path_of(key);
  return path.empty() ? std::nullopt : store_.read(path);
}

bool Files::exists(std::string_view key) const {
  const std::string path = path_of(key);
  return !path.empty() && store_.exists(path);
}

void Files::remove(std::string_view key) const noexcept {
  const std::string path = path_of(key);
  if (!path.empty()) store_.remove(path);
}

}  // namespace cadastre::server::media
