// The layers' files (a GeoTIFF, a DXF, whatever is attached: <tenant>/camadas/<id>/ in the
// platform's file store, layers/files.hpp) when a whole project is copied, versioned,
// transferred or deleted: they follow their rows. A copied layer gets copies of its files
// under its own id, so deleting one layer never takes another's files; a transferred one
// gets them under the target tenant's directory.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "platform/common/files.hpp"
#include "platform/projects/store_copy.hpp"

namespace soci {
class session;
}

namespace cadastre::platform::projects {

/// The copies of the layers' files for the new layers, made at construction; removed again
/// by the destructor unless keep() was called, so rows that roll back leave no files.
class FileCopies {
 public:
  /// Copies <from_slug>/camadas/<from>/ to <to_slug>/camadas/<to>/ (symbolic links are not
  /// followed), and a main file kept outside that directory into the new one. 503 when a
  /// file cannot be copied (nothing stays copied), or when a layer names a file and the
  /// platform has no file store.
  FileCopies(const common::FileStore& store, const std::string& from_slug, const std::string& to_slug,
             const std::vector<LayerCopy>& layers);
  FileCopies(const FileCopies&) = delete;
  FileCopies& operator=(const FileCopies&) = delete;
  ~FileCopies();

  /// Writes the new layers' main files (relative to the target tenant's directory) into
  /// projeto.camadas.arquivo, inside the caller's transaction.
  void record(soci::session& s) const;
  /// The rows committed: the copies stay.
  void keep() noexcept { kept_ = true; }

 private:
  void undo() noexcept;
  std::vector<std::filesystem::path> made_;
  std::map<std::int64_t, std::string> main_files_;  // new layer id → its arquivo
  bool kept_ = false;
};

/// Every layer's files of project `project`, set aside while its rows are deleted (see
/// common::SetAside): commit() once the deletion committed, or let them go back.
class ProjectFilesAside {
 public:
  ProjectFilesAside(const common::FileStore& store, soci::session& s, const std::string& slug, std::int64_t project);
  void commit() noexcept;

 private:
  std::vector<std::unique_ptr<common::SetAside>> layers_;
};

}  // namespace cadastre::platform::projects
