// The steps every geometry write is made of, on the caller's session and transaction
// (store_write.cpp): shared by the single writes, the edits and the offline batches.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "platform/geometries/store.hpp"

namespace soci {
class session;
}

namespace cadastre::platform::geometries::steps {

/// The geometry read and checked by the database (hex EWKB in 4674), or the reason it was
/// refused.
struct Read {
  std::string geom;
  std::optional<std::string> erro;
};
Read read(soci::session& s, const Shape& shape);
/// read(), throwing 400 (naming the shape's field) with the reason.
std::string read_or_throw(soci::session& s, const Shape& shape);

/// Whether geom (hex EWKB) is of the layer's type; the refusal's text when not.
std::optional<std::string> type_mismatch(soci::session& s, const std::string& geom, std::int64_t layer);

/// A geometry's row taken FOR UPDATE: its layer, version, audit state and box.
struct Locked {
  std::int64_t id = 0, layer = 0, versao = 0;
  std::string estado;  ///< projeto.geometria_estado
  std::array<double, 4> box{};
};
std::optional<Locked> lock(soci::session& s, std::int64_t id);
/// lock(), throwing Stale (current 0 when gone) unless at `versao`.
Locked lock_at(soci::session& s, std::int64_t id, std::int64_t versao);

/// Values copied into a new geometry: those of geometry `from` whose field's chave and type
/// match a field of the destination layer (of its form `form` only, when not 0).
struct ValuesFrom {
  std::int64_t from = 0, form = 0;
  std::int64_t copied = 0;  ///< out: how many
};
/// Inserts into the layer (400 when not of the layer's type), copies the values and audits
/// ("criar" or `operacao`); the touched geometry.
Touched insert(soci::session& s, std::int64_t user, std::int64_t layer, const std::string& geom,
               std::optional<std::int64_t> vinculo, const std::string& operacao = "criar",
               ValuesFrom* values = nullptr);
/// insert() with the values the client sent (POST /geometrias, offline criar): the values
/// area writes them (values::write_batch_in: checks, audit rows, calculado fields) after the
/// row and before the geometry's audit, whose "depois" then shows them. ValuesRefused when
/// it refuses any (the caller rolls the row back). `values_json`: the geometry's values
/// afterwards, as GET /valores/geometria/:id answers them.
Touched insert_with_values(soci::session& s, std::int64_t user, std::int64_t layer, const std::string& geom,
                           std::optional<std::int64_t> vinculo, const std::vector<values::Entry>& entries,
                           std::string& values_json);
/// Replaces the geometry of a locked row (version + 1) and audits.
Touched replace(soci::session& s, std::int64_t user, const Locked& row, const std::string& geom,
                const std::string& operacao = "alterar");
/// Deletes a locked row and audits.
Touched erase(soci::session& s, std::int64_t user, const Locked& row);

/// The SQL of a geometry's JSON for the row aliased g (the one shape every route answers).
const std::string& geometry_sql();
/// A geometry as the routes answer it; `valores` (a JSON array: its values as written
/// with it) becomes one more member.
std::string json_of(soci::session& s, std::int64_t id, const std::optional<std::string>& valores = std::nullopt);

}  // namespace cadastre::platform::geometries::steps
