// Writing values: create, change, the v2 batch and the copy between geometries. Each is
// one transaction that
//   - checks every value with field_values::check_value (type and rules), a lista_dominio value
//     against its domain table (schema dominio), and `unico` under
//     pg_advisory_xact_lock(<field id>) so two writers of the same value cannot both pass;
//   - writes the value into the typed column field_values::column_of names, clearing the others;
//   - writes an audit row per value (projeto.valores_auditoria: before and after as
//     field_values::to_json, the user);
//   - recomputes the geometry's calculado fields (cadastre/formula.hpp), audited too;
//   - bumps projeto.camadas.geracao of the layer (the tiles' ETag).
// Locks, always in this order (no deadlock between writers): the advisory locks of the
// unique fields by ascending id, the geometry's row, the layer's row (the bump, last).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "platform/values/input.hpp"
#include "service/scope.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::values {

/// Why one field of a batch was refused.
struct Problem {
  std::int64_t campo = 0;
  std::string chave, motivo;
};

/// POST /values: the new value's JSON. 400 naming the field for a field of another layer or
/// a value its rules refuse; 409 for a unique value another geometry holds, or when the
/// geometry already has a value of the field (change it with PUT).
std::string create(store::Pool& pool, std::int64_t user, const service::Grant& geometry, const Entry& entry);

/// PUT /valores/:id (`value` is the route's grant on the value): the value's JSON.
std::string change(store::Pool& pool, std::int64_t user, const service::Grant& value, const std::string& valor);

/// POST /v2/valores: all or nothing. With problems nothing is written.
struct BatchResult {
  std::vector<Problem> problems;
  std::int64_t written = 0;
  std::string values = "[]";  ///< the geometry's values afterwards (as GET /valores/geometria/:id)
};
BatchResult write_batch(store::Pool& pool, std::int64_t user, const service::Grant& geometry,
                        const std::vector<Entry>& entries);

/// write_batch inside the caller's open transaction on `s` (neither commits nor rolls back):
/// for values written together with something else of the same transaction, as a geometry
/// and its values by POST /geometrias and offline items. The same checks, writes, audit
/// rows, recompute and generation bump (values of the caller's own new geometry included).
/// With problems nothing is written here and the caller must roll back its own writes;
/// throws as write_batch does (409 an inactive field, 400 a calculado formula failing).
/// `layer` is the geometry's; the caller has checked edicao on it.
BatchResult write_batch_in(soci::session& s, std::int64_t user, std::int64_t geometry, std::int64_t layer,
                           const std::vector<Entry>& entries);

/// POST /copiar-valores: the values of `from` into `to` (same layer: field by field; another
/// layer: by chave), upserted and audited as 'copiar'. `campos` (fields of the origin's
/// layer) limits the copy; an origin field without a counterpart in the destination is
/// then a 400, and skipped (reported) when copying everything. Calculado fields are not
/// copied: they are recomputed from the copy.
struct CopyResult {
  std::int64_t copied = 0;
  std::vector<Problem> skipped;  ///< origin fields not copied, and why
  std::string values = "[]";     ///< the destination's values afterwards
};
CopyResult copy(store::Pool& pool, std::int64_t user, const service::Grant& from, const service::Grant& to,
                const std::optional<std::vector<std::int64_t>>& campos);

/// POST /geometrias/copiar-valores/:idCamada: into every geometry of `layer`, the values
/// of the geometry of layer `origin` that covers its point on surface (the lowest id when
/// several do), field by field of the same chave and type (`keys`: only those chaves).
/// Each value is written as a single write would be: the destination field's rules, its
/// domain table and `unico`; inactive and calculado destination fields are skipped, and
/// the calculado fields of each geometry written are recomputed. Audited as 'copiar'; all
/// or nothing (400 naming the field and geometry for a value the rules refuse, 409 for a
/// unique value taken); one generation bump. A layer of more than kMaxLocationCopy
/// geometries → 422, before anything is read.
inline constexpr std::int64_t kMaxLocationCopy = 20000;
struct LocationCopy {
  std::int64_t geometrias = 0, com_origem = 0, valores = 0;
  std::vector<std::int64_t> written;  ///< the geometries that received values, ascending
};
LocationCopy copy_by_location(store::Pool& pool, std::int64_t user, std::int64_t origin, std::int64_t layer,
                              const std::optional<std::vector<std::string>>& keys);

/// Numbers of one field on many geometries of a layer (POST /rlm/:idModelo writing its
/// estimates), all or nothing, in one transaction: each value passes the field's type and
/// rules and `unico`, is written and audited (criar or alterar), and its geometry's calculado
/// fields are recomputed, as a single write would; one generation bump at the end. 400 for
/// a field that is not of the layer or a value its rules refuse (naming the geometry), 404
/// for a geometry of another layer. Returns the number of values written.
std::int64_t write_numbers(store::Pool& pool, std::int64_t user, std::int64_t layer, std::int64_t campo,
                           const std::vector<std::pair<std::int64_t, double>>& values);

}  // namespace cadastre::platform::values
