#include "platform/rasters/importer.hpp"

#include <soci/soci.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "platform/layers/raster.hpp"
#include "platform/rasters/store.hpp"
#include "platform/rasters/tiff.hpp"
#include "store/crypto.hpp"

namespace cadastre::platform::rasters {
namespace {

namespace fs = std::filesystem;

// Files that go away when their holder does, unless kept.
struct Doomed {
  std::vector<fs::path> paths;
  ~Doomed() {
    std::error_code ec;
    for (const fs::path& p : paths) fs::remove_all(p, ec);
  }
};

void write_file(const fs::path& path, const std::string& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw Error(errc::unavailable, "não foi possível gravar o arquivo no armazenamento");
}

// Uploads whose job never ran because the process died with it queued are left in the
// staging folder (a job cancelled or abandoned while queued drops its work, which removes
// its file); a day later nothing will use them.
void sweep(const fs::path& folder) {
  std::error_code ec;
  const auto limit = fs::file_time_type::clock::now() - std::chrono::hours(24);
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code e;
    if (it->is_regular_file(e) && it->last_write_time(e) < limit) fs::remove(it->path(), e);
  }
}

// The job: convert, then (in one transaction) the layer's row, its file moved into the
// layer's folder, and the job's final row.
void run(jobs::Context& ctx, const common::FileStore& files, const fs::path& staging, std::int64_t projeto,
         const std::string& nome) {
  Doomed doomed{{staging, fs::path(staging).replace_extension(".cog.tif")}};
  const fs::path cog = doomed.paths[1];
  ctx.counts().lidas = 1;
  ctx.progress(0, 100);
  to_cog(staging.string(), cog.string(), [&](double done) {
    ctx.progress(static_cast<std::int64_t>(done * 90), 100);
    return true;
  });
  std::optional<std::array<double, 4>> bbox;
  if (auto b = layers::raster::extent(cog.string())) bbox = std::array<double, 4>{b->minx, b->miny, b->maxx, b->maxy};
  ctx.db().run([&](soci::session& s) {
    soci::transaction tx(s);
    std::int64_t id = insert_layer(s, projeto, nome, ctx.user_id(), bbox);
    fs::path dir = files.layer_dir(ctx.tenant_slug(), id);
    Doomed placed{{dir}};
    fs::create_directories(dir);
    fs::rename(cog, dir / "raster.tif");
    set_file(s, id, "camadas/" + std::to_string(id) + "/raster.tif");
    // The uploaded bytes go before the job is seen as finished (they are of no further use
    // even if the commit fails, which fails the job).
    std::error_code ec;
    fs::remove(staging, ec);
    ctx.counts().importadas = 1;
    ctx.layer({.id = id, .nome = nome, .geometria = "raster", .feicoes = 0});
    ctx.complete(s);
    tx.commit();
    placed.paths.clear();  // committed: the file is the layer's now
  });
}

}  // namespace

std::string submit(jobs::Runner& runner, const common::FileStore& files, const service::Scope& scope,
                   const Upload& up, const std::string& bytes) {
  if (bytes.empty()) throw Error(errc::invalid_argument, "o arquivo está vazio", "file");
  fs::path staging = staging_folder(files, scope.tenant.slug) / (store::random_token() + ".tif");
  Doomed doomed{{staging}};
  write_file(staging, bytes);
  doomed.paths.clear();  // submit_file owns it now
  return submit_file(runner, files, scope, up, staging);
}

fs::path staging_folder(const common::FileStore& files, const std::string& slug) {
  fs::path folder = files.tenant_dir(slug) / "importacoes" / "tiff";
  fs::create_directories(folder);
  sweep(folder);
  return folder;
}

std::string submit_file(jobs::Runner& runner, const common::FileStore& files, const service::Scope& scope,
                        const Upload& up, const fs::path& file) {
  fs::path staging = staging_folder(files, scope.tenant.slug) / (store::random_token() + ".tif");
  // Owned by the job's work once submitted: the file goes when the work is destroyed —
  // after it ran, or unrun (cancelled while pendente, or an earlier job of the same codigo).
  auto staged = std::make_shared<Doomed>();  // (a temporary Doomed would remove them at once)
  staged->paths = {file, staging};
  fs::rename(file, staging);
  const auto bytes = static_cast<std::int64_t>(fs::file_size(staging));
  Info info = inspect(staging.string(), up.limits);

  JsonWriter p;
  p.begin_object().key("idProjeto").value(up.projeto).key("nomeCamada").value(up.nome).key("arquivo").value(up.arquivo);
  p.key("tamanho").value(bytes).key("largura").value(info.width);
  p.key("altura").value(info.height).key("bandas").value(info.bands).key("crs").value(info.crs).end_object();
  jobs::Job job{.tipo = "tiff", .parametros = std::move(p).str(), .codigo = up.codigo, .projeto = up.projeto};
  std::int64_t projeto = up.projeto;
  std::string nome = up.nome;
  jobs::Submitted done = runner.submit(scope, std::move(job), [files, staged, projeto, nome, held = up.held](jobs::Context& ctx) {
    run(ctx, files, staged->paths.back(), projeto, nome);
  });
  staged.reset();
  auto json = runner.find(scope, done.id);
  if (!json) throw Error(errc::internal, "importação recém-criada não encontrada");
  return *json;
}

}  // namespace cadastre::platform::rasters
