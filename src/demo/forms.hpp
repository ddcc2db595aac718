// Demo forms per layer (/dbrest): two forms with typed fields and values for a few hundred
// demo features (see db/migrations/tenant/0008_formularios.sql).
#pragma once

#include <cstdint>

typedef struct pg_conn PGconn;  // from libpq-fe.h

namespace cadastre::store {

/// Replaces the demo forms and their values: "vistoria_campo" on lote (ocupacao: lista,
/// muro: booleano, data_vistoria: data, calcada_metros: decimal, observacao: texto) for up
/// to 300 lots, and "fachada" on edificacao (material: lista, pavimentos_visiveis:
/// inteiro, pintura_conservada: booleano, fotografada_em: data) for up to 200 buildings.
/// Values derive from the feature ids, so a reload gives the same data. Runs as one
/// transaction. Returns the number of (form, feature) pairs with values. Throws
/// cadastre::Error.
std::int64_t load_demo_forms(PGconn* conn);

}  // namespace cadastre::store
