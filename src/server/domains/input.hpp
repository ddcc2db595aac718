// Requests of /dominio → domain records (the record rules are cadastre/domain.hpp's).
#pragma once

#include <string>

#include "cadastre/domain.hpp"
#include "http/http.hpp"

namespace cadastre::server::domains {

/// The code of the path's {id}: it names an existing code, so the record rules apply
/// (400 before any SQL).
std::string path_code(const http::Request& req);

/// The body of a POST: a new record (id = codigo, descricao, extra columns).
domain::Record parse_create(const http::Request& req);
/// The body of a PUT of code {id}: descricao and extra columns (id/codigo, if given, equal {id}).
domain::Record parse_update(const http::Request& req);

}  // namespace cadastre::server::domains
