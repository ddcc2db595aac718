// The classes of a categorised layer (camadas.categorias) and the map expression a web
// client applies them with. Pure: the store computes the counts, these functions give them
// colours and shapes.
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

namespace cadastre::platform::layer_styles {

/// Distinct values beyond this many (the least frequent) are lumped into "outros".
inline constexpr int kMaxValues = 50;

struct Class {
  std::optional<std::string> valor;      ///< valores: the value as JSON ("\"residencial\"", "true")
  std::optional<double> minimo, maximo;  ///< intervalos
  std::string cor;
  std::int64_t total = 0;
};

struct Classes {
  std::int64_t campo = 0;
  std::string chave, nome, tipo_campo;
  std::string tipo;    ///< "valores" or "intervalos"
  std::string paleta;  ///< intervalos: the ramp
  std::vector<Class> classes;
  std::optional<Class> outros;
  Class sem_valor;
  std::string gerado_em;  ///< ISO 8601, UTC

  std::int64_t total() const;
};

/// Colours the classes: a qualitative colour per value (by frequency rank), the ramp's
/// colours in order for intervals, grey for "outros" and no value.
void paint(Classes& c);

/// The stored JSON, and back (for a stored categorisation: 500 if it is not this shape).
std::string to_json(const Classes& c);
Classes from_json(std::string_view json);

/// POST /camadas/categorizarFront's answer: the MapLibre expression of the classes over
/// the tile property named after the field's chave, the paint properties for the layer's
/// geometry (fill-color, line-color, circle-color), and a legend:
///   {"idCamada","idCampo","propriedade","tipo","expressao":[...],"pintura":{...},
///    "legenda":[{"rotulo","cor","total"}],"geradoEm"}.
std::string front_json(const Classes& c, std::int64_t layer_id, const std::string& geometria);

}  // namespace cadastre::platform::layer_styles
