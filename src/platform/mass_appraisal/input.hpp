// Parsing and checking of the mass appraisal routes' bodies (/rlm*, /gerarPVGEO,
// /update/pvg/residuos/*).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cadastre/appraisal.hpp"
#include "platform/common/request_schema.hpp"

namespace cadastre::platform::mass_appraisal {

/// "nenhuma", "ln", "inversa", "quadrado", "raiz" ↔ the library's transforms.
std::string_view transform_name(appraisal::Transform t) noexcept;

struct VariableSpec {
  std::int64_t campo = 0;
  appraisal::Transform transform = appraisal::Transform::none;
  std::string param;  ///< where it came from in the body, for errors
};

/// What a regression is fitted from: a layer, its dependent field and regressors.
struct FitSpec {
  std::int64_t camada = 0;
  VariableSpec dependente;
  std::vector<VariableSpec> independentes;
  std::optional<std::int64_t> chk;
  double nivel = 0.80;  ///< level of the intervals
};

/// POST /rlm (and the fit part of /rlm/final and /rlm/grafico): {"idCamada",
/// "dependente": {"idCampo", "transformacao"?}, "independentes": [{"idCampo",
/// "transformacao"?}...], "idChk"?, "nivel"?}; `extra` are the other members the route
/// takes (returned by name as raw JSON), any other member is a 400.
FitSpec parse_fit(std::string_view body, const std::vector<std::string>& extra,
                  std::map<std::string, std::string>* extras = nullptr);

/// POST /rlm/final: the /rlm body and the model's "nome" (1 to 200 characters).
struct FinalInput {
  FitSpec fit;
  std::string nome;
};
FinalInput parse_final(std::string_view body);

/// POST /rlm/grafico: the plot of a fit (the /rlm body) or of a stored model
/// ({"idModelo"}), never both (400 naming the fit member sent with idModelo); plus
/// "tipo"? (checked by plot.hpp's parse_plot_kind), "formato"? (png | svg), "largura"? and
/// "altura"? (200–2000 pixels).
struct GraphInput {
  std::optional<std::int64_t> modelo;
  std::optional<FitSpec> fit;  ///< exactly one of modelo and fit
  std::string tipo = "residuos", formato = "png";
  int largura = 640, altura = 480;
};
GraphInput parse_graph(std::string_view body);

/// A text member of `extras` (JSON string) or `fallback`; `allowed` (when not empty) lists
/// the values accepted.
std::string extra_text(const std::map<std::string, std::string>& extras, const std::string& key,
                       const std::string& fallback, const std::vector<std::string>& allowed = {});

/// POST /rlm/:idModelo.
struct ApplyInput {
  std::int64_t camada = 0;
  std::map<std::string, std::int64_t> campos;  ///< regressor chave → field of the layer
  std::optional<std::int64_t> destino;        ///< decimal field the estimates are written to
};
ApplyInput parse_apply(std::string_view body);

/// POST /gerarPVGEO: from a kriged raster layer, or a stored model applied to a layer's
/// geometries (median of the estimates within `raio` metres of each block face).
struct PvgInput {
  std::optional<std::int64_t> raster, modelo, camada;
  double raio = 50;
  std::optional<std::string> descricao;
  std::map<std::string, std::int64_t> campos;
};
PvgInput parse_pvg(std::string_view body);

/// POST /update/pvg/residuos/{line,polygon,point}.
struct ResidualFeature {
  std::int64_t amostra = 0;
  std::string geojson;  ///< the geometry as GeoJSON text
};
struct ResidualsInput {
  std::int64_t modelo = 0, camada = 0, campo = 0;
  std::vector<ResidualFeature> feicoes;
};
ResidualsInput parse_residuals(std::string_view body);

/// The bodies this area's parsers read: their JSON Schemas (/swagger.json), each with a
/// body the parser accepts (common/request_schema.hpp).
std::vector<common::RequestSchema> request_schemas();

}  // namespace cadastre::platform::mass_appraisal
