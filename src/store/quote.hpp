// Quoting for the few statements that cannot bind their values: DDL and role commands
// (CREATE DATABASE, CREATE ROLE, GRANT), whose names and passwords are SQL text.
#pragma once

#include <string>

typedef struct pg_conn PGconn;

namespace cadastre::store {

/// `s` as an SQL identifier ("name"), escaped by libpq for connection `c`.
std::string quote_ident(PGconn* c, const std::string& s);
/// `s` as an SQL string literal ('text'), escaped by libpq for connection `c`.
std::string quote_literal(PGconn* c, const std::string& s);

}  // namespace cadastre::store
