#include "platform/files/storage.hpp"

#include "cadastre/error.hpp"
#include "file_store/keys.hpp"  // the media key syntax both services share
#include "store/crypto.hpp"

namespace cadastre::platform::files {

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

std::string Storage::path(const std::string& slug, const Folder& folder, const std::string& key) const {
  if (!store_.enabled()) throw Error(errc::unavailable, "a plataforma está sem armazenamento de arquivos");
  if (!valid_key(key, slug)) throw Error(errc::internal, "chave de arquivo inválida");
  return slug + "/" + folder_of(folder) + "/" + key;
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
  store_.write(path(slug, folder, out.key), bytes);
  return out;
}

std::optional<std::string> Storage::read(const std::string& slug, const Folder& folder, const std::string& key) const {
  return store_.read(path(slug, folder, key));
}

void Storage::remove(const std::string& slug, const Folder& folder, const std::string& key) const noexcept {
  if (!store_.enabled() || !valid_key(key, slug)) return;
  const std::string p = slug + "/" + folder_of(folder) + "/" + key;
  store_.remove(p);
  store_.remove(p + kPreviewSuffix);
  store_.remove(p + kNoPreviewSuffix);
}

void Storage::put_preview(const std::string& slug, const Folder& folder, const std::string& key,
                          std::string_view png) const {
  store_.write(path(slug, folder, key) + kPreviewSuffix, png);
}

std::optional<std::string> Storage::read_preview(const std::string& slug, const Folder& folder,
                                                 const std::string& key) const {
  return store_.read(path(slug, folder, key) + kPreviewSuffix);
}

// The note is the refusal's code (its number) on the first line, its message after.
void Storage::put_no_preview(const std::string& slug, const Folder& folder, const std::string& key,
                             const NoPreview& why) const {
  store_.write(path(slug, folder, key) + kNoPreviewSuffix,
                   std::to_string(static_cast<int>(why.code)) + "\n" + why.message);
}

std::optional<NoPreview> Storage::read_no_preview(const std::string& slug, const Folder& folder,
                                                  const std::string& key) const {
  auto note = store_.read(path(slug, folder, key) + kNoPreviewSuffix);
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
