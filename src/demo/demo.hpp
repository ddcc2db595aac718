#pragma once
#include <cstdint>
#include <string>
typedef struct pg_conn PGconn;   // from libpq-fe.h
namespace cadastre::store {
struct DemoOptions {
  std::int64_t lots = 2000;       // exact number of lots to create (1..5,000,000)
  std::uint64_t seed = 1;
  double center_lon = -47.0608;   // Campinas-SP
  double center_lat = -22.9056;
  bool replace = false;           // truncate existing cadastral data first
};
struct DemoReport {                 // counts of rows loaded, for the CLI and the tests
  std::int64_t bairros = 0, logradouros = 0, quadras = 0, faces = 0, lotes = 0, edificacoes = 0,
               imobiliarios = 0, pessoas = 0, proprietarios = 0, panoramas = 0,
               perfis_lidar = 0;  // LIDAR samples along the first streets
  double seconds = 0;
};
/// Loads the demo city into the tenant database behind `conn` (schema from
/// db/migrations/tenant). One transaction. Throws cadastre::Error on failure.
DemoReport load_demo(PGconn* conn, const DemoOptions& options);
/// True when `digits` (11 digits) is a CPF with valid check digits.
bool valid_cpf(const std::string& digits);
/// True when `digits` (14 digits) is a CNPJ with valid check digits.
bool valid_cnpj(const std::string& digits);
}
