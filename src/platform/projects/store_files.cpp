#include "platform/projects/store_files.hpp"

#include <soci/soci.h>

#include "cadastre/error.hpp"
#include "store/sql.hpp"

namespace cadastre::platform::projects {
namespace fs = std::filesystem;
namespace {

bool present(const fs::path& p) {
  std::error_code ec;
  return fs::symlink_status(p, ec).type() != fs::file_type::not_found && !ec;
}

}  // namespace

FileCopies::FileCopies(const common::FileStore& store, const std::string& from_slug, const std::string& to_slug,
                       const std::vector<LayerCopy>& layers) {
  if (!store.enabled()) {
    // Without a store no layer has files; one that names a file cannot be copied without it.
    for (const LayerCopy& l : layers)
      if (l.arquivo) store.tenant_dir(from_slug);  // throws 503
    return;
  }
  try {
    for (const LayerCopy& l : layers) {
      fs::path from = store.layer_dir(from_slug, l.from).lexically_normal();
      fs::path to = store.layer_dir(to_slug, l.to).lexically_normal();
      if (fs::is_directory(fs::symlink_status(from))) {
        fs::create_directories(to);
        made_.push_back(to);
        // Attachments (arquivos/) are records of their own in projeto.arquivos, which a copy
        // does not carry: only the layer's own files come along.
        for (const fs::directory_entry& e : fs::directory_iterator(from)) {
          if (e.path().filename() == "arquivos") continue;
          fs::copy(e.path(), to / e.path().filename(), fs::copy_options::recursive | fs::copy_options::skip_symlinks);
        }
      }
      if (!l.arquivo) continue;
      fs::path main = store.resolve(from_slug, *l.arquivo);
      if (!present(main)) continue;  // a broken record stays as broken as it was
      fs::path rel = main.lexically_relative(from);
      if (rel.empty() || *rel.begin() == "..") {  // kept outside the layer's directory: bring it in
        fs::create_directories(to);
        if (made_.empty() || made_.back() != to) made_.push_back(to);
        rel = main.filename();
        fs::copy_file(main, to / rel);
      }
      main_files_[l.to] = (fs::path("camadas") / std::to_string(l.to) / rel).generic_string();
    }
  } catch (const fs::filesystem_error&) {
    undo();
    throw Error(errc::unavailable, "não foi possível copiar os arquivos das camadas do projeto");
  }
}

FileCopies::~FileCopies() {
  if (!kept_) undo();
}

void FileCopies::undo() noexcept {
  std::error_code ec;
  for (const fs::path& p : made_) fs::remove_all(p, ec);
  made_.clear();
}

void FileCopies::record(soci::session& s) const {
  for (const auto& [layer, arquivo] : main_files_) {
    store::Sql q("update projeto.camadas set arquivo = ");
    q.bind(arquivo) << " where id = " << std::to_string(layer);
    store::execute(s, q);
  }
}

ProjectFilesAside::ProjectFilesAside(const common::FileStore& store, soci::session& s, const std::string& slug,
                                     std::int64_t project) {
  store::Sql q("select id::text, arquivo from projeto.camadas where projeto_id = " + std::to_string(project));
  for (const store::Row& r : store::fetch(s, q))
    layers_.push_back(std::make_unique<common::SetAside>(store, slug, std::stoll(*r[0]), r[1]));
  // The project's own attachments (projetos/<id>/) go with it too.
  layers_.push_back(std::make_unique<common::SetAside>(
      store, slug, fs::path("projetos") / std::to_string(project), "projeto-" + std::to_string(project)));
}

void ProjectFilesAside::commit() noexcept {
  for (auto& l : layers_) l->commit();
}

}  // namespace cadastre::platform::projects
