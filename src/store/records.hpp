// Writes of layer records: create, update, delete (with the main relations) and batches,
// each with its audit rows and a bump of the layer generation, inside the caller's
// transaction. Column values are converted by PostgreSQL itself
// (jsonb_populate_record), so every type the catalog knows is handled the same way and a
// bad value is a 400 from PostgreSQL's own cast; geometries are validated with GEOS first.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/catalog.hpp"
#include "store/identity.hpp"

namespace soci {
class session;
}

namespace cadastre::store {

/// One record from a request body, checked against its layer.
struct RecordInput {
  std::string properties_json = "{}";  ///< object of the non-geometry columns given
  std::vector<std::string> columns;    ///< their names, in body order
  std::optional<std::string> geometry_geojson;
  std::optional<std::string> id;       ///< primary key value, when given
};

/// Parses one record: a flat object of columns (geometry as GeoJSON under the geometry
/// column's name or "geometry") or a GeoJSON Feature. Unknown columns → 400
/// campo_desconhecido; invalid geometry → 400 geometria_invalida with GEOS's reason;
/// coordinates outside lon/lat ranges → 400. `field_prefix` names the record in errors
/// (e.g. "registros[3]").
RecordInput parse_record(const Layer& layer, std::string_view json, std::string_view field_prefix = {});
/// Same, from an already-parsed element (simdjson's dom::element, passed opaquely).
RecordInput parse_record_element(const Layer& layer, const void* simdjson_element, std::string_view field_prefix);

struct Written {
  std::string id;       ///< primary key value, as text
  std::string feature;  ///< the record as a GeoJSON Feature (after the write)
};

Written insert_record(soci::session& s, const Layer& layer, const RecordInput& in, const Principal& user);
/// Updates the columns given; Error(not_found) when the id does not exist.
Written update_record(soci::session& s, const Layer& layer, const RecordInput& in, const Principal& user);
/// Deletes the record and its main relations (lot → units, their owner links and the
/// lot's buildings; unit → its owner links), auditing each row removed. Returns the
/// number of rows removed in all. Error(not_found) when the id does not exist.
long long delete_record(soci::session& s, const Layer& layer, const std::string& id, const Principal& user);

/// For a member `lote_id` or `imobiliario_id` of a record of another schema (a reservation,
/// a media record): 400 naming the member when no such lot or property unit exists. Other
/// members are not references and pass.
void check_cadastre_reference(soci::session& s, std::string_view member, const std::string& id);

}  // namespace cadastre::store
