// One function per cadastral table: streams the demo city into it with COPY and returns
// the number of rows. Called in foreign-key order by load_demo.
#pragma once

#include <cstdint>
#include <string>

#include "demo/city.hpp"

typedef struct pg_conn PGconn;

namespace cadastre::store::demo {

std::int64_t copy_bairros(PGconn* conn, const City& city);
std::int64_t copy_logradouros(PGconn* conn, const City& city);
std::int64_t copy_quadras(PGconn* conn, const City& city);
std::int64_t copy_faces(PGconn* conn, const City& city);
std::int64_t copy_lotes(PGconn* conn, const City& city);
std::int64_t copy_edificacoes(PGconn* conn, const City& city);
/// Returns the number of people (pessoa rows).
std::int64_t copy_pessoas(PGconn* conn, const City& city);
std::int64_t copy_imobiliarios(PGconn* conn, const City& city);
/// imobiliario_pessoa rows (owners).
std::int64_t copy_proprietarios(PGconn* conn, const City& city);
std::int64_t copy_panoramas(PGconn* conn, const City& city);
/// LIDAR elevation samples every 5 m along the first 40 streets (after the streets are
/// loaded); a smooth deterministic terrain plus a few building returns. Replaces the demo's
/// earlier samples when `replace`, and adds none when the table already has data.
std::int64_t insert_lidar_profiles(PGconn* conn, bool replace);

/// "2025-MM-DD HH:MM:SS-03" for a 0-based day of 2025 and seconds after midnight
/// (seconds beyond one day roll over into the following days).
std::string timestamp_2025(int day, std::int64_t seconds);

}  // namespace cadastre::store::demo
