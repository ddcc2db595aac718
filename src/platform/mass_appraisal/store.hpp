// SQL of the mass appraisal routes: stored regression models (projeto.modelos_avaliacao,
// projeto.modelo_amostras), estimates written as values, residual features
// (projeto.modelo_residuos) and the versions of the generic value map
// (avaliacao.pvg_versoes, avaliacao.pvg_valores, cadastro.face_quadra.valor_m2).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "service/caller.hpp"

namespace cadastre::platform::mass_appraisal {

struct NewModel {
  std::int64_t projeto = 0, camada = 0;
  std::string nome, especificacao, coeficientes, resultado;
  std::vector<std::int64_t> geometrias;
  std::vector<double> observado, ajustado, residuo;
};
/// Stores the model and its samples in one transaction; the new id.
std::int64_t insert_model(const service::Caller& s, const NewModel& m);
/// {"id","idProjeto","idCamada","nome","especificacao","coeficientes","resultado","criadoPor","criadoEm"}.
std::string model_json(const service::Caller& s, std::int64_t id);

struct StoredModel {
  std::int64_t id = 0, projeto = 0, camada = 0;
  std::string preditor;  ///< especificacao.preditor (regression.hpp's predictor_json)
};
std::optional<StoredModel> find_model(const service::Caller& s, std::int64_t id);

/// The fit stored with a model (projeto.modelo_amostras): per sample, ordered by geometry id
/// as /rlm fits them, the fitted value and the residual on the transformed scale of y.
struct StoredFit {
  std::vector<double> ajustado, residuo;
};
StoredFit model_fit(const service::Caller& s, std::int64_t modelo);

/// The numeric fields of `layer` whose chave is in `chaves`: chave → id.
std::map<std::string, std::int64_t> numeric_fields_by_key(const service::Caller& s, std::int64_t layer,
                                                          const std::vector<std::string>& chaves);
/// Whether `campo` is a decimal field of `layer`.
bool is_decimal_field(const service::Caller& s, std::int64_t layer, std::int64_t campo);

/// The residual of each sample of a model: geometry → residual (transformed scale).
std::map<std::int64_t, double> model_residuals(const service::Caller& s, std::int64_t modelo);

struct ResidualWrite {
  std::int64_t modelo = 0, camada = 0, campo = 0;
  std::string tipo;  ///< linha | poligono | ponto
  std::vector<std::int64_t> amostras;
  std::vector<std::string> geojson;
  std::vector<double> residuos;
};
/// Replaces the model's residual features of that kind: the previous ones deleted, the new
/// geometries (checked: readable, valid, of the kind) created with their residual value,
/// audited. 400 naming feicoes[i].geometria for a bad geometry. The new geometry ids.
std::vector<std::int64_t> write_residuals(const service::Caller& s, const ResidualWrite& w);

/// A layer's type, file, project and geometry type (404 for none).
struct LayerFile {
  std::string tipo;
  std::optional<std::string> arquivo;
  std::int64_t projeto = 0;
  std::string geometria;
};
LayerFile layer_file(const service::Caller& s, std::int64_t layer);

/// The midpoint (lon/lat) of every block face of the municipality's cadastre.
struct FacePoint {
  std::int64_t id = 0;
  double lon = 0, lat = 0;
};
std::vector<FacePoint> face_points(const service::Caller& s);

/// Per block face, the median of `values` (by geometry) of the geometries within `raio`
/// metres of it.
std::vector<std::pair<std::int64_t, double>> face_medians(const service::Caller& s,
                                                          const std::vector<std::pair<std::int64_t, double>>& values,
                                                          double raio);

struct PvgVersion {
  std::string origem;  ///< krigagem | modelo
  std::optional<std::int64_t> projeto, camada, modelo;
  std::optional<std::string> descricao;
  std::vector<std::pair<std::int64_t, double>> valores;  ///< face → R$/m² (rounded to cents)
};
/// Writes a new version of the value map (the first generation also records the map as it
/// was, version 1 'inicial') and sets face_quadra.valor_m2 to it, in one transaction.
/// The version's JSON: {"id","numero","origem","idProjeto","idCamada","idModelo","descricao",
/// "facesAlteradas","criadoPor","criadoEm","versaoAnterior"}.
std::string write_pvg_version(const service::Caller& s, const PvgVersion& v);

}  // namespace cadastre::platform::mass_appraisal
