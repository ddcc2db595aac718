// A layer's values in a table of its own (tenant migration 0035, decision 0023):
// camadas.l<camada id> holds one row per geometry with a value, `id` (the geometry) and
// one typed column c_<campo id> per field of the layer (field_values::column_of's family:
// text, numeric, date, boolean, jsonb for multipla). A NULL column is no value. The
// tables and columns follow projeto.camadas and projeto.campos by triggers; the stores
// read and write their rows. Table and column names are built from ids only, never from
// request text.
//
// A layer's geometries are in a partition of projeto.geometrias of their own,
// camadas.g<camada id> (tenant migration 0036, decision 0024): statements name
// projeto.geometrias and say the layer (`camada_id = …`) so that only its partition is
// planned and read. Only an import names the partition, to fill it before attaching it.
//
// A value's id is computed, not stored: kValueIdBase + geometry × 1024 + the field's
// position in its layer (projeto.campos.posicao); ids below kValueIdBase were issued
// before the move and are in projeto.valores_legado (SQL: projeto.valor_chave).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cadastre/field_values.hpp"
#include "store/sql.hpp"

namespace soci {
class session;
}
namespace cadastre::store {
class Pool;
}

namespace cadastre::platform::common {

/// "camadas.l<camada>".
std::string layer_table(std::int64_t camada);
/// "camadas.g<camada>": the layer's partition of projeto.geometrias.
std::string geometry_partition(std::int64_t camada);
/// Writes `<alias>id = <id> and <alias>camada_id = projeto.camada_da_geometria(<id>)` to
/// `q`: geometry `id` found on its layer's partition alone. A statement that knows the
/// layer says `camada_id = <layer>` instead. `alias` is "" or "g." (a table alias and dot).
void where_geometry(store::Sql& q, std::string_view alias, std::int64_t id);
/// The same for several geometries (`ids` a PostgreSQL bigint[] literal, "{1,2}").
void where_geometries(store::Sql& q, std::string_view alias, const std::string& ids);
/// Writes `(select total_geometrias from projeto.camadas where id = <camada>)` to `q`: the
/// layer's number of geometries, kept by the triggers of projeto.geometrias (tenant
/// migration 0039), in place of a count of its partition.
void layer_total(store::Sql& q, std::int64_t camada);
/// The layers of project `projeto` as a bigint[] literal ("{}" for none), for a statement
/// over several of its layers' geometries to say `camada_id = any(<these>)`: planned on
/// the project's partitions, not the tenant's. `of_geometry`: the project of that
/// geometry instead (projeto ignored).
std::string project_layers(soci::session& s, std::int64_t projeto, std::optional<std::int64_t> of_geometry = {});
/// "c_<campo>".
std::string field_column(std::int64_t campo);
/// The SQL type of the column holding values of field type `tipo` (projeto.tipo_coluna).
std::string column_type(std::string_view tipo);

inline constexpr std::int64_t kValueIdBase = std::int64_t{1} << 52;
/// The id of geometry `geometria`'s value of the field at `posicao` in its layer.
inline std::int64_t value_id(std::int64_t geometria, int posicao) {
  return kValueIdBase + geometria * 1024 + posicao;
}
/// The same as SQL, for a geometry id expression and a posicao expression.
std::string value_id_sql(const std::string& geometria, const std::string& posicao);

/// A field of a layer, as the statements over the layer's table need it.
struct LayerField {
  std::int64_t id = 0, form = 0;
  std::string chave, nome, tipo;
  int posicao = 0;
  /// field_values::column_of(tipo): texto, numero, data, booleano or lista.
  std::string family() const { return std::string(field_values::column_of(tipo)); }
  std::string column() const { return field_column(id); }
  bool operator==(const LayerField&) const = default;
};
/// Every field of layer `camada`, in form order then field order (id breaking ties).
std::vector<LayerField> layer_fields(soci::session& s, std::int64_t camada);
/// layer_fields' statement, and the fields of its rows: for store::fetch_ahead.
store::Sql layer_fields_statement(std::int64_t camada);
std::vector<LayerField> layer_fields_of(const std::vector<store::Row>& rows);

/// The fields of layer `camada` of the database `db` as a request of this process last
/// read them (remember_fields): a guess to build a statement ahead of their read, never an
/// answer, since another instance may have changed them since. At most 16,384 fields in all.
std::shared_ptr<const std::vector<LayerField>> fields_seen(const store::Pool& db, std::int64_t camada);
void remember_fields(const store::Pool& db, std::int64_t camada, const std::vector<LayerField>& fields);
/// The layer of field `campo` (nullopt for an unknown field).
std::optional<std::int64_t> layer_of_field(soci::session& s, std::int64_t campo);

/// A value read back as `column::text` (PostgreSQL's text of the typed column), typed as
/// field type `tipo` stores it; nullopt for NULL (no value).
std::optional<field_values::Typed> stored_value(std::string_view tipo, const store::Value& text);

/// An SQL expression of table alias `alias`: the jsonb object {chave: value} of `fields`
/// that hold a value ('{}' when none).
std::string values_object_sql(const std::vector<LayerField>& fields, const std::string& alias);

}  // namespace cadastre::platform::common
