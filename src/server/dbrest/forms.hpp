// Forms per layer (/dbrest): the request body of POST tipos/valores/geometrias/ and the
// reads of the tenant's schema `formulario` (db/migrations/tenant/0008_formularios.sql),
// each one SQL statement whose JSON is built by PostgreSQL.
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

/// Most geometry ids one POST may ask about.
inline constexpr std::size_t kMaxGeometryIds = 1000;

/// Body of POST /dbrest/tipos/valores/geometrias/:
/// {"geometrias": [ids...] (1..1000 positive integers), "camada": "lote" (optional)}.
struct GeometryQuery {
  std::vector<std::int64_t> ids;       ///< unique, in the order first given
  std::optional<std::string> camada;   ///< only forms of this layer (still to be checked)
};

/// Parses and validates the body; unknown members, non-integer or non-positive ids, an
/// empty or too long list → Error 400 naming the member.
GeometryQuery parse_geometry_query(std::string_view body);

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
