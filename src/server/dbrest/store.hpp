// Every statement of /dbrest: the reads of the tenant's schema `formulario`
// (db/migrations/tenant/0008_formularios.sql), each one SQL statement whose JSON is built
// by PostgreSQL.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace soci {
class session;
}

namespace cadastre::server::dbrest {

/// One page of the values of form `formulario` of layer `camada`:
/// {"camada","formulario","titulo","limite","offset","total","campos":[...],"valores":[
///  {"geometria_id", "atualizado_em", "valores": {campo: valor}}]}, geometries ordered by
/// id; nullopt when the form does not exist.
std::optional<std::string> form_page(soci::session& s, const std::string& camada, const std::string& formulario,
                                     std::int64_t limite, std::int64_t offset);

/// The layers that have forms.
std::vector<std::string> form_layers(soci::session& s);

/// For each id (in the given order): {"geometria_id", "formularios": [{"camada",
/// "formulario", "titulo", "campos": [{"nome","rotulo","tipo","obrigatorio",
/// "valores_permitidos","valor","atualizado_em","atualizado_por"}]}]}, only the forms of
/// `layers` that hold values for that id; returned as {"geometrias": [...]}.
std::string value_types(soci::session& s, const std::vector<std::int64_t>& ids, const std::vector<std::string>& layers);

}  // namespace cadastre::server::dbrest
