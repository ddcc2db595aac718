// Reading an opened file into the layers an import creates: each feature's geometry made
// 2D (its Z kept as the field "cota" when xdzs), repaired (MakeValid, counted) or refused
// when invalid, transformed to SIRGAS 2000 (EPSG:4674), written as EWKB; its attributes
// typed by the file's field types. Runs on the job's worker thread.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "platform/imports/source.hpp"
#include "platform/jobs/jobs.hpp"

namespace cadastre::platform::imports {

/// A field of the layer's form: nome as in the file, chave derived from it, tipo one of
/// texto, inteiro, decimal, data.
struct FieldDef {
  std::string nome, chave, tipo;
};

struct Row {
  std::string ewkb;  ///< EWKB bytes, SRID 4674 (empty when it was streamed: GeometrySink)
  std::vector<std::optional<std::string>> values;  ///< per field: the value's text, or none
};

/// One layer to create.
struct Target {
  std::string nome, geometria;  ///< geometria: ponto, linha, poligono or qualquer
  std::vector<FieldDef> fields;
  std::vector<Row> rows;
  std::size_t streamed_bytes = 0;  ///< the EWKB given to a GeometrySink, in all
};

/// Where a streamed read sends each geometry (EWKB bytes, SRID 4674) as soon as its feature
/// is accepted, in the order of its target's rows: the import copies it while the file is
/// still being read. Only for a file of one target (every format but DXF).
using GeometrySink = std::function<void(std::string ewkb)>;

/// The layers of `src` (one; a DXF: one per geometry type that has features). Counts,
/// progress and per-feature errors go to `ctx`. Throws when the file breaks a limit (413:
/// features, fields, vertices of one geometry, attribute text kept in all) or no feature
/// could be imported. With a `sink` (not for a DXF), the geometries go to it and the rows
/// keep only their values.
std::vector<Target> read_features(Source& src, const Params& params, jobs::Context& ctx,
                                  const limits::TableLimits& limits, const GeometrySink& sink = {});

/// What PostgreSQL will take to store `targets` (projeto.geometrias and the layers' tables
/// camadas.l<id> with their indexes), for the storage quota before the write. Measured on
/// the demo when each value was a row of its own: a value cost about 300 bytes besides its
/// text, and its text about 3.5 times its length (heap, B-tree and trigram indexes); a
/// geometry about 200 bytes besides twice its WKB (heap and GiST). A layer's table holds
/// them in less (bench/storage.sh: a fifth of the disk), so this errs on the safe side.
std::int64_t stored_bytes(const std::vector<Target>& targets);

/// The machine name of a field from its name in the file ("Área Útil" → "area_util"),
/// unique among `taken` (then added to it).
std::string field_key(const std::string& name, std::vector<std::string>& taken);

}  // namespace cadastre::platform::imports
