// Request bodies of the characterization section.
//
// POST .../lookups/batch: {"queries": [q0, q1, ...]} (1..50), each
//   {"tabela": "dominio.uso"}                                    → valor codigo, rotulo descricao
//   {"tabela": "cadastro.bairro", "valor": "id", "rotulo": "nome",
//    "filtro": {"coluna": valor, ...}, "limite": 100}            → equality filters, AND-ed
// Every query is checked (names against the catalog, read permission, filter values)
// before the one statement runs; the first invalid one is reported with its index.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "cadastre/error.hpp"
#include "server/characterization/store.hpp"
#include "service/scope.hpp"

namespace cadastre::server::characterization {

/// The error of one query of the batch: `error` as the query alone would have it, `index`
/// its position (0-based) in "queries".
struct LookupError {
  Error error;
  std::size_t index;
};

/// Parses and checks the lookups body: errors of the body itself throw Error, errors of one
/// query throw LookupError. Tables are resolved as viewer360's catalog_table does (shape,
/// schema, the caller's read permission — `cadastro.x`: layer x, `dominio.*`: the
/// pseudo-layer dominio).
std::vector<Lookup> parse_lookups(const service::Scope& s, std::string_view body);

}  // namespace cadastre::server::characterization
