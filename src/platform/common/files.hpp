// The platform's file store as the layer routes use it: each tenant's files under
// <files_dir>/<tenant slug>/, a layer's under camadas/<id>/ (its GeoTIFF or DXF, and
// whatever else is attached to it). camadas.arquivo names a layer's main file relative to
// the tenant's directory; it may live elsewhere in that directory (an import's folder).
//
// Removing a layer takes its files with it, never one without the other: the files are
// first moved aside (a rename inside the tenant's directory, so atomic), the row is deleted
// in its transaction, and only then are the moved files erased. When the deletion fails,
// the files go back where they were (SetAside's destructor).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "file_store/file_store.hpp"

namespace cadastre::platform::common {

class FileStore {
 public:
  explicit FileStore(std::string root) : store_(std::move(root)) {}

  /// False when the platform runs without a file store (AppOptions::files_dir empty).
  bool enabled() const noexcept { return store_.enabled(); }
  /// The one file store under the root, for writes and reads by path relative to it
  /// ("<slug>/..."): atomic, no link followed (file_store/file_store.hpp).
  const file_store::Store& store() const noexcept { return store_; }
  /// <root>/<slug> (503 when there is no store).
  std::filesystem::path tenant_dir(const std::string& slug) const;
  /// <root>/<slug>/camadas/<id>.
  std::filesystem::path layer_dir(const std::string& slug, std::int64_t layer_id) const;
  /// The file a layer's `arquivo` names, inside the tenant's directory: a path that is
  /// absolute or climbs out ("..") is refused (409: the record is broken, not the request).
  std::filesystem::path resolve(const std::string& slug, const std::string& relative) const;

 private:
  file_store::Store store_;
};

/// One stored file of a layer.
struct FileEntry {
  std::string nome;     ///< the file's name
  std::string caminho;  ///< relative to the tenant's directory
  std::uintmax_t tamanho = 0;
  std::string sha256;   ///< hex
  std::string tipo;     ///< media type, from the extension
  bool principal = false;  ///< the layer's `arquivo`
};

/// The regular files of the layer's directory (recursively, symbolic links not followed)
/// and its main file, sorted by path. At most `limit` files (the first ones, by path).
std::vector<FileEntry> layer_files(const FileStore& store, const std::string& slug, std::int64_t layer_id,
                                   const std::optional<std::string>& arquivo, std::size_t limit = 1000);

/// {"idCamada", "arquivos": [{"nome","caminho","tamanho","sha256","tipo","principal"}]}.
std::string files_json(std::int64_t layer_id, const std::vector<FileEntry>& files);

/// A layer's files moved aside, to <tenant>/.lixeira/, while its row is deleted: commit()
/// once the deletion committed erases them; otherwise the destructor moves them back.
class SetAside {
 public:
  /// Moves the layer's directory and its main file (when outside it) aside; a file that
  /// does not exist is simply not there to keep. Nothing is moved when the store is off.
  SetAside(const FileStore& store, const std::string& slug, std::int64_t layer_id,
           const std::optional<std::string>& arquivo);
  /// Moves a directory of the tenant (`relative`, e.g. projetos/12) aside; `label` names it
  /// in the bin.
  SetAside(const FileStore& store, const std::string& slug, const std::filesystem::path& relative,
           const std::string& label);
  SetAside(const SetAside&) = delete;
  SetAside& operator=(const SetAside&) = delete;
  ~SetAside();

  /// The row is gone: erase the files for good.
  void commit() noexcept;

 private:
  void move(const FileStore& store, const std::string& slug, const std::vector<std::filesystem::path>& targets,
            const std::string& label);
  void restore() noexcept;
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> moved_;  // from, to
  std::filesystem::path bin_;
  bool committed_ = false;
};

}  // namespace cadastre::platform::common
