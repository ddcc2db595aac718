// What the style routes write in the tenant's database: a layer's labelling
// (camadas.rotulo), the label overrides of single geometries (projeto.rotulos_geometria,
// migration 0017) and a layer's classes (camadas.categorias). Every write bumps the
// layer's generation: labels and colours are what the tiles show.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cadastre/categories.hpp"
#include "service/caller.hpp"

namespace cadastre::platform::layer_styles {

/// A field of one of the layer's forms.
struct Field {
  std::int64_t id = 0;
  std::string chave, nome, tipo;
};

/// The field `id` when it belongs to a form of layer `layer_id`; otherwise 400 naming
/// `param` (the query parameter that named it).
Field layer_field(const service::Caller& s, std::int64_t layer_id, std::int64_t id, const std::string& param);

/// camadas.rotulo := its rotation kept, labels from `fields` (in order) joined by `separator`.
void set_label(const service::Caller& s, std::int64_t layer_id, const std::vector<Field>& fields,
               const std::string& separator);
/// camadas.rotulo.rotacao := the numeric field `f`.
void set_label_rotation(const service::Caller& s, std::int64_t layer_id, const Field& f);

/// A geometry's label override; each part set when its flag is (its value null: cleared).
struct GeometryLabel {
  bool set_texto = false, set_posicao = false, set_rotacao = false;
  std::optional<std::string> texto;
  std::optional<std::pair<double, double>> posicao;  ///< lon, lat
  std::optional<double> rotacao;
};
/// Writes the override of geometry `geometry_id` of layer `layer_id` (a row with nothing
/// left is deleted).
void set_geometry_label(const service::Caller& s, std::int64_t layer_id, std::int64_t geometry_id,
                        const GeometryLabel& label);
/// The geometry's label rotates by its own value of the numeric field `f`.
void set_geometry_label_rotation(const service::Caller& s, std::int64_t layer_id, std::int64_t geometry_id,
                                 const Field& f);
/// {"idGeometria","idCamada","texto","posicao":[lon,lat]|null,"rotacao","idCampoRotacao"}.
std::string geometry_label_json(const service::Caller& s, std::int64_t geometry_id);

/// The classes of field `f` over the layer's geometries, counted by one grouped statement:
/// its distinct values (text, list and boolean fields) or `intervals` equal intervals
/// (numbers), coloured; stored in camadas.categorias. 400 naming idCampo for a field of
/// another type.
categories::Classes categorize(const service::Caller& s, std::int64_t layer_id, const Field& f,
                               int intervals, const std::string& ramp);
/// The stored classes and the layer's geometry type.
struct Stored {
  std::optional<std::string> categorias;
  std::string geometria;
};
Stored stored_classes(const service::Caller& s, std::int64_t layer_id);

}  // namespace cadastre::platform::layer_styles
