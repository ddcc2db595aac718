// The classes of a categorised layer (camadas.categorias) and the map expression a web
// client applies them with. Pure: the platform's store computes the counts (one grouped
// statement: the values ranked by frequency, or width_bucket over equal intervals), these
// functions give them colours and shapes.
//
// Stored shape (served with the layer):
//   {"idCampo","chave","nome","tipoCampo","tipo":"valores"|"intervalos",
//    "metodo":"valores_distintos"|"intervalos_iguais","paleta","classes":[...],
//    "outros":{"cor","total"}|null,"semValor":{"cor","total"},"total","geradoEm"}
// with classes {"valor","cor","total"} (the most frequent values, at most kMaxValues) or
// {"minimo","maximo","cor","total"} (equal intervals, lower bound included).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cadastre::categories {

/// Distinct values beyond this many (the least frequent) are lumped into "outros".
inline constexpr int kMaxValues = 50;

/// One class: a value (valores) or an interval (intervalos), its colour and how many
/// geometries fall in it.
struct Class {
  std::optional<std::string> valor;      ///< valores: the value as JSON ("\"residencial\"", "true")
  std::optional<double> minimo, maximo;  ///< intervalos
  std::string cor;                       ///< "#rrggbb"
  std::int64_t total = 0;                ///< geometries in the class
};

/// The classes of one field over a layer's geometries (the stored camadas.categorias).
struct Classes {
  std::int64_t campo = 0;               ///< the field's id (idCampo)
  std::string chave, nome, tipo_campo;  ///< the field's key, name and type
  std::string tipo;                     ///< "valores" or "intervalos"
  std::string paleta;                   ///< intervalos: the ramp
  std::vector<Class> classes;           ///< by frequency rank (valores) or in order (intervalos)
  std::optional<Class> outros;          ///< valores: the values beyond kMaxValues, if any
  Class sem_valor;                      ///< the geometries without a value
  std::string gerado_em;                ///< ISO 8601, UTC

  /// Every geometry counted: the classes, outros and sem valor.
  std::int64_t total() const;
};

/// Colours the classes: a qualitative colour per value (by frequency rank), the ramp's
/// colours in order for intervals, grey for "outros" and no value.
void paint(Classes& c);

/// The stored JSON (the shape above).
std::string to_json(const Classes& c);
/// A stored categorisation read back; std::runtime_error (a 500) if it is not the shape above.
Classes from_json(std::string_view json);

/// POST /camadas/categorizarFront's answer: the MapLibre expression of the classes over
/// the tile property named after the field's chave, the paint properties for the layer's
/// geometry (fill-color, line-color, circle-color), and a legend:
///   {"idCamada","idCampo","propriedade","tipo","expressao":[...],"pintura":{...},
///    "legenda":[{"rotulo","cor","total"}],"geradoEm"}.
std::string front_json(const Classes& c, std::int64_t layer_id, const std::string& geometria);

}  // namespace cadastre::categories
