// Demo reports of the explorer (explorer.relatorio, db/migrations/tenant/0007_explorer.sql):
// saved query descriptions over the demo city's layers, ready to export as .xlsx or PDF.
#pragma once

#include <cstdint>

typedef struct pg_conn PGconn;  // from libpq-fe.h

namespace cadastre::store {

/// Stores the demo reports (criado_por = 'demo'), replacing the previous demo ones:
/// "Lotes acima de 500 m²", "Unidades por uso" and "Lotes de esquina do bairro <first
/// bairro>" (corner lots inside that district's bounding box). Needs the demo city (a
/// bairro). Runs in the caller's transaction if one is open, else in one of its own.
/// Returns the number of demo reports. Throws cadastre::Error.
std::int64_t load_demo_explorer(PGconn* conn);

}  // namespace cadastre::store
