// The SQL of the imports: creating the layers, forms and fields of an import and loading
// its rows with COPY (store_load.cpp), and the cadastre's layers (store_icad.cpp). Every
// function runs on the caller's session, inside the job's one transaction.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "platform/imports/features.hpp"
#include "platform/jobs/jobs.hpp"

namespace soci {
class session;
}

namespace cadastre::platform::imports {

/// Who and what a load belongs to.
struct LoadInfo {
  std::int64_t projeto = 0, user = 0, job = 0;
  std::string propriedades = "{}";  ///< the layers' propriedades (JSON object)
};

/// Prepares the transaction for a long load: no 15 s statement limit, and the layers it
/// creates get a bare geometry partition and unindexed columns, filled first (attach_layer
/// indexes the partition, the job `indices` the columns).
void begin_load(soci::session& s);

/// A new layer with one form (named as the layer) holding `fields`, in that order: the
/// layer's and the fields' ids. Shared by the file and the cadastre imports.
struct Created {
  std::int64_t camada = 0;
  std::vector<std::int64_t> campos;
};
Created create_layer(soci::session& s, const LoadInfo& info, const std::string& nome, const std::string& geometria,
                     const std::vector<FieldDef>& fields);
/// Attaches the geometry partition of a layer created and filled by the load, which builds
/// its key and GiST index (projeto.camada_anexar).
void attach_layer(soci::session& s, std::int64_t camada);
/// The job `indices` in one transaction on `db`: the missing indexes of layer `camada`'s
/// value columns (projeto.camada_indices; none when the layer is gone) and the job's final
/// row.
void index_columns(store::Pool& db, std::int64_t camada, jobs::Context& ctx);
/// Bumps the layer's tile generation (as every geometry write does).
void bump_generation(soci::session& s, std::int64_t camada);

/// Creates the layer of `t` (with one form holding its fields) and loads its rows with
/// COPY; the layer as the job reports it. Progress goes to ctx (`done` of `total` rows).
jobs::Layer load_target(soci::session& s, const LoadInfo& info, const Target& t, jobs::Context& ctx,
                        std::int64_t& done, std::int64_t total);

/// The project's event of the import (projeto.eventos: operacao "importacao").
void record_import(soci::session& s, const LoadInfo& info, const std::string& tipo,
                   const std::vector<jobs::Layer>& layers);

/// The municipality's cadastre layers (see docs/platform-imports.md): lotes, lotes_rurais,
/// edificacoes, logradouros.
struct CadastreLayer {
  std::string tipo;  ///< the job's tipo: icad_lotes, icad_lotes_rurais, ...
  std::string nome;  ///< the layer created
};
const CadastreLayer& cadastre_layer(const std::string& which);
/// What copying the layer would add to the tenant's database, estimated as stored_bytes()
/// estimates a file's features (features.hpp): for the storage quota, before the copy.
std::int64_t cadastre_bytes(soci::session& s, const CadastreLayer& which);
/// Copies the cadastre's features and attributes into a new layer of the project.
jobs::Layer load_cadastre(soci::session& s, const LoadInfo& info, const CadastreLayer& which, jobs::Context& ctx);

/// The end of an import's load, before its commit: the project's event (record_import),
/// its layers reported to `ctx`, for each the job `indices` left to follow it
/// (jobs::Context::follow: it builds the layer's column indexes once the import has
/// committed, decision 0025), and the job's final row (ctx.complete).
void finish_load(soci::session& s, const LoadInfo& info, const std::string& tipo,
                 const std::vector<jobs::Layer>& layers, jobs::Context& ctx);

/// A file import's whole load in one transaction on `db`: its layers, the project's
/// event, and the job's final row (ctx.complete), committed together or not at all.
void load_file(store::Pool& db, const LoadInfo& info, const std::string& tipo, const std::vector<Target>& targets,
               jobs::Context& ctx);
/// A file of one layer (every format but DXF) read and loaded at once, in one transaction
/// on `db`: the layer is created first, and `read` (read_features with the sink it is
/// given) streams the geometries into its partition while the file is read; then the
/// layer's type, its fields and values, as load_file does. `reserve` is given
/// stored_bytes() once the file is read, before the values are written, and throws to
/// refuse (the storage quota); what it reserves must be held until this returns.
void stream_file(store::Pool& db, const LoadInfo& info, const std::string& tipo, const std::string& nome,
                 const std::function<std::vector<Target>(const GeometrySink&)>& read,
                 const std::function<void(std::int64_t)>& reserve, jobs::Context& ctx);
/// The same for a cadastre layer; `require_storage` is given cadastre_bytes() in the job's
/// transaction before anything is written, and throws to refuse the copy (the quota).
void import_cadastre(store::Pool& db, const LoadInfo& info, const CadastreLayer& which, jobs::Context& ctx,
                     const std::function<void(std::int64_t)>& require_storage);

}  // namespace cadastre::platform::imports
