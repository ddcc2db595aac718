// The lot package: a lot with its buildings, units (with their people), media and
// inspections, in one answer. Served by GET /caracterizacao/{m}/get-data/{id_lote} and by
// GET /aplicativo/{m}/aplicativo/data/{id_lote}, which differ only in form (the app wants
// units as Features, media links and the read time; the form wants the inspections).
// Both follow decision 0006: a section whose layer the caller may not read is left out and
// named in `sem_permissao`; read permission on lote is the route's own (403 without it).
#pragma once

#include <string>

#include "service/scope.hpp"

namespace cadastre::server::characterization {

enum class LotPackageForm {
  characterization,  ///< lote, edificacoes, unidades (rows), midia, vistorias, sem_permissao
  mobile,            ///< lote, edificacoes, unidades (Features), midia (with link), sem_permissao, gerado_em
};

/// The package of lot `id_text` for the caller of `s`, as JSON text: 400 for an id that is
/// not a valid key, 404 for a missing lot.
std::string lot_package(const service::Scope& s, const std::string& id_text, LotPackageForm form);

}  // namespace cadastre::server::characterization
