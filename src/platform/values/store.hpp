// Reading the values of platform geometries: the layer's table, one typed column per field
// (platform/common/layer_table.hpp; tenant migration 0035, decision 0023). Writes are in
// store_write.hpp. Every statement builds its JSON in PostgreSQL
// and binds every value; identifiers (tables and columns) are built from ids, never from
// the request.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "platform/common/layer_table.hpp"
#include "platform/paging.hpp"
#include "platform/values/input.hpp"
#include "service/caller.hpp"
#include "store/pool.hpp"
#include "store/sql.hpp"

namespace soci {
class session;
}

namespace cadastre::platform::values {

/// The most values GET /valores/camada/:id answers; a larger layer is read by pages
/// (/valores/camada/:id/pg) or one field at a time.
inline constexpr std::int64_t kLayerCap = 10000;
/// The most geometries GET /valores/projeto/:id and /valores/edificacao/:id answer.
inline constexpr std::int64_t kGeometryCap = 1000;

/// A value: {"id","idGeometria","idCampo","valor","atualizadoPor","atualizadoEm"} (404 for
/// an unknown id).
std::string one(soci::session& s, std::int64_t id);
/// The geometry value `id` belongs to (0 when it is gone).
std::int64_t geometry_of_value(soci::session& s, std::int64_t id);
/// A layer's tile generation (projeto.camadas.geracao) as JSON number text ("0" when gone).
std::string layer_generation(soci::session& s, std::int64_t layer);
/// Every value of a geometry, each with its field's chave, nome and tipo, in form and
/// field order.
std::string of_geometry(soci::session& s, std::int64_t geometria);

/// GET /valores: a page of the values of one geometry, field or layer, by id.
store::PageRows list(store::Pool& pool, const ListFilter& filter, const Page& page);
/// GET /valores/camada/:id: {"valores": [...], "limite", "truncado"}: at most kLayerCap
/// values of the layer (of one field when `campo` is set), by geometry and field.
std::string of_layer(store::Pool& pool, std::int64_t camada, std::optional<std::int64_t> campo);

/// GET /valores/camada/:id/pg: one row per geometry, {"idGeometria", "valores": {chave:
/// valor...}} (only field `campo`'s when set), ordered by page.order_by: "id" or the chave
/// of a field of the layer (400 orderBy otherwise); geometries without a value of that
/// field come last, by id.
store::PageRows page_of_layer(store::Pool& pool, std::int64_t camada, std::optional<std::int64_t> campo,
                              const Page& page);
/// The page's one statement (also for the benchmark and the EXPLAIN test) over the layer
/// `camada` of `fields` (common::layer_fields), ordered by the field `order` (its id and
/// column's SQL type), or by id when none.
struct OrderField {
  std::int64_t campo = 0;
  std::string type;
};
store::Sql page_statement(std::int64_t camada, const std::vector<common::LayerField>& fields,
                          std::optional<std::int64_t> campo, const std::optional<OrderField>& order,
                          const Page& page);

/// The text field a search reads, and its layer.
struct SearchField {
  std::int64_t camada = 0;
  common::LayerField field;
};
/// Field `campo` for GET /valores/search: 404 for an unknown field, 400 campoId unless its
/// values are texts (the search's index).
SearchField text_field(store::Pool& pool, std::int64_t campo);
/// GET /valores/search: the values of the text field containing `termo`, ignoring accents
/// and case (page.paging), by text and geometry. The one statement (also for the benchmark
/// and the EXPLAIN test).
store::Sql search_statement(std::int64_t camada, const common::LayerField& field, const std::string& termo,
                            const Page& page);
store::PageRows search(store::Pool& pool, const SearchField& field, const std::string& termo, const Page& page);

/// GET /valores/projeto/:id: the values of the geometries of the project's active layers
/// the caller may read that contain `at`, grouped by layer then geometry.
std::string at_point(const service::Caller& scope, std::int64_t projeto, const Point& at);

/// GET /valores/edificacao/:id: the buildings of lot geometry `lote`, with their values.
/// linked: the geometries whose vinculo_id is the lot; not linked: the geometries of the
/// project's other layers whose point on surface lies within the lot and whose vinculo_id
/// is not the lot (unlinked ones, or linked to another lot: candidates to link). Only
/// layers the caller may read.
std::string buildings(const service::Caller& scope, std::int64_t lote, bool linked);

}  // namespace cadastre::platform::values
