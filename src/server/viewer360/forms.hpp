// The attribute side of the 360 viewer (/visualizador360): the form of a catalog table,
// the values of one record, its last change from the audit trail, and batch writes of
// attributes in one transaction. Tables are named "schema.table" (viewer360_tables.hpp).
#pragma once

#include "http/http.hpp"
#include "server/app.hpp"

namespace cadastre::server {

/// GET .../formularios/{schema_table}: columns, types, nullability, references and the
/// lookup values of columns referencing a domain table.
http::Response form_fields(App& app, http::Request& req);
/// GET .../valores/{schema_table}/{id}: the record as a GeoJSON Feature (404 when absent).
http::Response record_values(App& app, http::Request& req);
/// GET .../ultima-alteracao/{schema_table}/{id}: the latest audit row of the record.
http::Response last_change(App& app, http::Request& req);
/// POST .../atts: inserts and updates of one layer, all or nothing.
http::Response batch_attributes(App& app, http::Request& req);

}  // namespace cadastre::server
