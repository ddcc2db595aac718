#include "platform/rasters/importer.hpp"

#include <soci/soci.h>

#include <chrono>
#include <filesystem>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "platform/jobs/parameters.hpp"
#include "platform/layers/raster.hpp"
#include "platform/licenses/store.hpp"
#include "platform/rasters/store.hpp"
#include "platform/rasters/tiff.hpp"
#include "store/crypto.hpp"

namespace cadastre::platform::rasters {
namespace {

namespace fs = std::filesystem;

// Files of the store that go away when their holder does, unless kept.
struct Doomed {
  file_store::Store store{std::string()};  // a copy: the work may outlive its route's
  std::vector<std::string> paths;
  ~Doomed() {
    for (const std::string& p : paths) store.remove(p);
  }
};

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

}  // namespace

// The job: convert, then (in one transaction) the layer's row, its file placed in the
// layer's folder, and the job's final row. The staged upload (the job's entrada) goes
// before the commit.
void run(jobs::Context& ctx, const common::FileStore& files, store::Pool& platform) {
  const file_store::Store& store = files.store();
  const jobs::Parameters par(ctx.parametros());
  const std::int64_t projeto = par.required_integer("idProjeto");
  const std::string nome = par.required_text("nomeCamada");
  if (!ctx.entrada() || !store.exists(*ctx.entrada()))
    throw Error(errc::not_found, "o GeoTIFF enviado não está mais no armazenamento; envie de novo");
  const std::string& staging = *ctx.entrada();
  file_store::Store::Scratch cog = store.scratch(staging.substr(0, staging.rfind('/')), ".cog.tif");
  ctx.counts().lidas = 1;
  ctx.progress(0, 100);
  to_cog(store.path(staging).string(), cog.path().string(), [&](double done) {
    ctx.progress(static_cast<std::int64_t>(done * 90), 100);
    return true;
  });
  std::optional<std::array<double, 4>> bbox;
  if (auto b = layers::raster::extent(cog.path().string()))
    bbox = std::array<double, 4>{b->minx, b->miny, b->maxx, b->maxy};
  // The layer's file counts from its commit on: reserved until then.
  auto reservation = licenses::reserve_storage(platform, {ctx.db(), files, ctx.tenant_slug()}, ctx.tenant_id(),
                                               static_cast<std::int64_t>(std::filesystem::file_size(cog.path())));
  ctx.db().run([&](soci::session& s) {
    soci::transaction tx(s);
    std::int64_t id = insert_layer(s, projeto, nome, ctx.user_id(), bbox);
    const std::string layer_file = "camadas/" + std::to_string(id) + "/raster.tif";
    Doomed placed{store, {ctx.tenant_slug() + "/camadas/" + std::to_string(id)}};
    cog.publish(ctx.tenant_slug() + "/" + layer_file);
    set_file(s, id, layer_file);
    // The uploaded bytes go before the job is seen as finished (the runner would remove
    // them just after; a failed commit fails the job, which has no use for them either).
    store.remove(staging);
    ctx.counts().importadas = 1;
    ctx.layer({.id = id, .nome = nome, .geometria = "raster", .feicoes = 0});
    ctx.complete(s);
    tx.commit();
    placed.paths.clear();  // committed: the file is the layer's now
  });
}

std::string submit(jobs::Runner& runner, const common::FileStore& files, const service::Scope& scope,
                   const Upload& up, const std::string& bytes) {
  if (bytes.empty()) throw Error(errc::invalid_argument, "o arquivo está vazio", "file");
  const std::string staging = staging_folder(files, scope.tenant.slug) + "/" + store::random_token() + ".tif";
  Doomed doomed{files.store(), {staging}};
  files.store().write(staging, bytes);
  doomed.paths.clear();  // submit_file owns it now
  return submit_file(runner, files, scope, up, staging);
}

std::string staging_folder(const common::FileStore& files, const std::string& slug) {
  std::string folder = slug + "/importacoes/tiff";
  sweep(files.store().path(folder));
  return folder;
}

std::string submit_file(jobs::Runner& runner, const common::FileStore& files, const service::Scope& scope,
                        const Upload& up, const std::string& file) {
  const std::string staging = staging_folder(files, scope.tenant.slug) + "/" + store::random_token() + ".tif";
  // The job's once submitted (jobs.hpp: its entrada, removed when it ends); gone here when
  // the check refuses it.
  Doomed staged{files.store(), {file, staging}};
  files.store().rename(file, staging);
  const auto bytes = static_cast<std::int64_t>(files.store().size(staging).value_or(0));
  Info info = inspect(files.store().path(staging).string(), up.limits);

  JsonWriter p;
  p.begin_object().key("idProjeto").value(up.projeto).key("nomeCamada").value(up.nome).key("arquivo").value(up.arquivo);
  p.key("tamanho").value(bytes).key("largura").value(info.width);
  p.key("altura").value(info.height).key("bandas").value(info.bands).key("crs").value(info.crs).end_object();
  jobs::Job job{.tipo = "tiff", .handler = {}, .parametros = std::move(p).str(), .codigo = up.codigo,
                .projeto = up.projeto, .entrada = staging};
  staged.paths.clear();  // submit owns it now
  jobs::Submitted done = runner.submit(scope, std::move(job));
  auto json = runner.find(scope, done.id);
  if (!json) throw Error(errc::internal, "importação recém-criada não encontrada");
  return *json;
}

}  // namespace cadastre::platform::rasters
