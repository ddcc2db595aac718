// Handlers of the characterization section (/caracterizacao) kept out of the route table.
#pragma once

#include "http/http.hpp"
#include "server/app.hpp"

namespace cadastre::server {

/// GET .../get-data/{id_lote}: the lot with its buildings, units and their people, media
/// and inspections, built by one SQL statement.
http::Response lot_package(App& app, http::Request& req);
/// POST .../lookups/batch: value/label lists of several catalog tables in one statement.
http::Response batch_lookups(App& app, http::Request& req);

}  // namespace cadastre::server
