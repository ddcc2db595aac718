// Portal: reads of the tenant database (cadastro.imobiliario, lote, face_quadra,
// edificacao, logradouro, quadra, bairro).
#pragma once

#include "server/portal/input.hpp"
#include "server/portal/property.hpp"
#include "store/sql.hpp"

namespace soci {
class session;
}

namespace cadastre::server::portal {

/// The unit named by `key` with its lot and block face; `with_buildings` also reads the
/// lot's buildings, by id. 404 when it does not exist.
StoredProperty load_property(soci::session& s, const PropertyKey& key, bool with_buildings);

/// A page of units matching `search`, by id: {id, inscricao_cartografica,
/// numero_cadastro, complemento, uso, fracao_ideal, area_privativa, lote: {id, inscricao},
/// endereco: {logradouro, numero, bairro}}.
store::PageRows search_properties(soci::session& s, const Search& search);

}  // namespace cadastre::server::portal
