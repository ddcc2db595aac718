// Demo digital proofs (provas.prova_digital, db/migrations/tenant/0013_provas_digitais.sql).
#pragma once

#include <cstdint>

typedef struct pg_conn PGconn;  // from libpq-fe.h

namespace cadastre::store {

/// Address prefix of the demo proofs' files: their rows are the ones the loader replaces.
inline constexpr const char* kDemoProvasUrl = "https://provas.demo.cadastre.example/";

/// Replaces the demo proofs: ten records on the first five units (by id) — facade photos,
/// field reports and documents — dated in January 2026, each with the SHA-256 of its
/// (notional) file. Needs the demo city. Idempotent. Returns the number of demo proofs.
/// Throws cadastre::Error.
std::int64_t load_demo_provas(PGconn* conn);

}  // namespace cadastre::store
