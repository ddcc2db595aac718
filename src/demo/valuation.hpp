// Demo valuation profile: the demo municipality's valuation law (see
// db/migrations/tenant/0012_avaliacao.sql and cadastre/valuation_profile.hpp).
#pragma once

#include <cstdint>

typedef struct pg_conn PGconn;  // from libpq-fe.h

namespace cadastre::store {

/// Name of the demo profile row of avaliacao.perfil.
inline constexpr const char* kDemoValuationProfile = "Planta de valores de demonstração";

/// Stores the demo profile as the tenant's active one (other profiles are deactivated):
/// reference year 2026 and a CUB price for every NBR 12721 standard of
/// dominio.padrao_construtivo, so every demo building can be valued; the other numbers are
/// the library defaults. Idempotent (replaces its own row). Returns the number of profile
/// rows named kDemoValuationProfile (1). Throws cadastre::Error.
std::int64_t load_demo_valuation(PGconn* conn);

}  // namespace cadastre::store
