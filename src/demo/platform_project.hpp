// The demo's platform project: the workloads of docs/platform-projects.md measured on a
// realistic size. A project "Cadastro imobiliário (demonstração)" with one polygon layer of
// `geometries` lots in a grid around (lon, lat), one form of ten fields (texts, lists,
// numbers, a date, a boolean) and a value for every (lot, field).
#pragma once

#include <cstdint>

typedef struct pg_conn PGconn;  // from libpq-fe.h

namespace cadastre::store {

struct DemoProjectReport {
  std::int64_t project_id = 0, layer_id = 0, form_id = 0, geometries = 0, values = 0;
  double seconds = 0;
};

/// Replaces the demo project (by its name) in the tenant database behind `conn`, owned by
/// the platform user `owner_id`. Values derive from the lot ids, so a reload gives the same
/// data. One transaction. Throws cadastre::Error (400 for a size outside 1..1,000,000).
DemoProjectReport load_demo_platform_project(PGconn* conn, std::int64_t owner_id, std::int64_t geometries,
                                             double lon, double lat);

}  // namespace cadastre::store
