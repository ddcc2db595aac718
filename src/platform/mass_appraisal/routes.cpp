// Mass appraisal: multiple linear regression over a layer's samples (/rlm), the model chosen
// and stored (/rlm/final), its diagnostic plots (/rlm/grafico), its application to a layer
// (/rlm/:idModelo), the generic value map generated from a kriged raster or a stored model
// into the municipality's cadastre (/gerarPVGEO), and the residual features of a model
// (/update/pvg/residuos/*). The statistics come from the library (cadastre/appraisal.hpp).
// docs/platform-geostatistics.md has the shapes and the choices.

#include <cmath>
#include <set>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "platform/app.hpp"
#include "platform/geostatistics/kriging.hpp"
#include "platform/guard/guard.hpp"
#include "platform/common/files.hpp"
#include "platform/mass_appraisal/input.hpp"
#include "platform/mass_appraisal/plot.hpp"
#include "platform/mass_appraisal/regression.hpp"
#include "platform/mass_appraisal/store.hpp"
#include "platform/schemas.hpp"
#include "platform/values/store_write.hpp"

namespace cadastre::platform::mass_appraisal {
namespace {

using http::Request;
using http::Response;
using service::Scope;

constexpr const char* kTag = "Avaliação em massa";

// ------------------------------------------------------------------ regression

Response rlm(const Scope& s, Request& req) {
  FitSpec spec = parse_fit(req.body, {});
  return Response::json(regression_json(fit_spec(s, spec)));
}

std::string specification_json(const Fitted& f) {
  JsonWriter w;
  auto variable = [&](const geostatistics::FieldInfo& info, appraisal::Transform t) {
    w.begin_object().key("idCampo").value(info.id).key("chave").value(info.chave);
    w.key("transformacao").value(transform_name(t)).end_object();
  };
  w.begin_object().key("idCamada").value(f.spec.camada).key("dependente");
  variable(f.fields[0], f.spec.dependente.transform);
  w.key("independentes").begin_array();
  for (std::size_t i = 0; i < f.spec.independentes.size(); ++i) variable(f.fields[i + 1], f.spec.independentes[i].transform);
  w.end_array().key("idChk");
  f.spec.chk ? w.value(*f.spec.chk) : w.null();
  w.key("nivel").value(f.spec.nivel).key("preditor").raw(predictor_json(f)).end_object();
  return std::move(w).str();
}

Response rlm_final(const Scope& s, Request& req) {
  auto [spec, nome] = parse_final(req.body);
  const service::Grant& layer = s.grant();
  guard::require(s, "projeto", layer.project_id, "admin", "idCamada");  // the model is the project's
  Fitted f = fit_spec(s, spec);
  NewModel m{layer.project_id, spec.camada, nome, specification_json(f), coefficients_json(f), regression_json(f),
             f.geometries, f.data.dependent.values, f.regression.fitted, f.regression.residuals};
  return Response::json(model_json(s, insert_model(s, m)), 201);
}

StoredModel model_of(const Scope& s, std::int64_t id, std::string_view role = "leitura") {
  auto m = find_model(s, id);
  if (!m) throw Error(errc::not_found, "modelo não encontrado", "idModelo");
  guard::require(s, "projeto", m->projeto, role, "idModelo");
  return *m;
}

// What the plots need of a stored model's regression, from what /rlm/final stored: the
// fitted values and residuals of its samples (in the fit's order) and its residual
// standard error, the residuals standardised as appraisal::fit does (e / s, 0 when s = 0).
// So the plot is the one of the model as it was fitted, even after the layer's values
// changed, and it equals the plot of the same fit body while they have not.
appraisal::Regression stored_regression(const Scope& s, const StoredModel& m) {
  appraisal::Regression r;
  r.residual_se = predictor_from_json(m.preditor).regression.residual_se;
  StoredFit fit = model_fit(s, m.id);
  r.fitted = std::move(fit.ajustado);
  r.residuals = std::move(fit.residuo);
  for (double e : r.residuals) r.standardized_residuals.push_back(r.residual_se > 0 ? e / r.residual_se : 0);
  return r;
}

Response rlm_graph(const Scope& s, Request& req) {
  GraphInput in = parse_graph(req.body);
  PlotKind kind = parse_plot_kind(in.tipo);
  appraisal::Regression r;
  if (in.modelo) {
    StoredModel m = model_of(s, *in.modelo);
    guard::require(s, "camada", m.camada, "leitura", "idModelo");  // the plot shows the layer's samples
    r = stored_regression(s, m);
  } else {
    guard::require(s, "camada", in.fit->camada, "leitura", "idCamada");
    r = fit_spec(s, *in.fit).regression;
  }
  Series series = plot_series(r, kind);
  if (in.formato == "svg") return Response::text(plot_svg(series, in.largura, in.altura), "image/svg+xml");
  return Response::text(plot_png(series, in.largura, in.altura), "image/png");
}

// ------------------------------------------------------------------ applying a stored model

struct Estimates {
  std::vector<std::pair<std::int64_t, double>> values;  ///< geometry → estimate (scale of y)
  std::string rows = "[]";                              ///< [{"idGeometria","estimativa","intervaloPredicao"}]
  std::vector<std::int64_t> missing;                    ///< geometries lacking a regressor
  std::vector<std::string> refused;                     ///< "id: reason" of values outside a transform
};

// The model's estimate at every geometry of `layer` with all its regressors. A regressor is
// the layer's numeric field with the model's chave, unless `campos` names another.
Estimates estimate(const Scope& s, const StoredModel& model, std::int64_t layer,
                   const std::map<std::string, std::int64_t>& campos, const std::string& campos_param) {
  Predictor p = predictor_from_json(model.preditor);
  for (const auto& [chave, id] : campos)
    if (std::find(p.regressors.begin(), p.regressors.end(), chave) == p.regressors.end())
      throw Error(errc::invalid_argument, campos_param + "." + chave + ": o modelo não tem esta variável",
                  campos_param + "." + chave);
  auto by_key = numeric_fields_by_key(s, layer, p.regressors);
  std::vector<geostatistics::FieldParam> fields;
  for (const auto& chave : p.regressors) {
    std::string param = campos_param + "." + chave;
    if (auto it = campos.find(chave); it != campos.end()) fields.push_back({it->second, param});
    else if (auto k = by_key.find(chave); k != by_key.end()) fields.push_back({k->second, param});
    else
      throw Error(errc::invalid_argument,
                  param + ": a camada " + std::to_string(layer) + " não tem campo numérico com a chave " + chave, param);
  }
  geostatistics::check_fields(s, layer, fields, std::nullopt);
  Estimates out;
  JsonWriter w;
  w.begin_array();
  std::vector<double> x(fields.size());
  for (const auto& r : geostatistics::load_rows(s, layer, fields, std::nullopt)) {
    bool complete = true;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (!r.values[i]) complete = false;
      else x[i] = *r.values[i];
    }
    if (!complete) {
      out.missing.push_back(r.geometry);
      continue;
    }
    try {
      appraisal::Prediction e = appraisal::predict(p.regression, x);
      out.values.emplace_back(r.geometry, e.estimate);
      w.begin_object().key("idGeometria").value(r.geometry).key("estimativa").value(e.estimate);
      w.key("intervaloPredicao").begin_array().value(e.prediction.lower).value(e.prediction.upper).end_array();
      w.end_object();
    } catch (const Error& e) {  // a value outside a transform's domain: this geometry only
      out.refused.push_back(std::to_string(r.geometry) + ": " + e.what());
    }
  }
  w.end_array();
  out.rows = std::move(w).str();
  return out;
}

Response rlm_apply(const Scope& s, Request& req) {
  StoredModel m = model_of(s, s.grant().id);
  ApplyInput in = parse_apply(req.body);
  guard::require(s, "camada", in.camada, in.destino ? "edicao" : "leitura", "idCamada");
  if (in.destino && !is_decimal_field(s, in.camada, *in.destino))
    throw Error(errc::invalid_argument, "idCampoDestino: deve ser um campo decimal da camada", "idCampoDestino");
  Estimates e = estimate(s, m, in.camada, in.campos, "campos");
  if (in.destino) values::write_numbers(*s.db, s.user.user_id, in.camada, *in.destino, e.values);
  JsonWriter w;
  w.begin_object().key("idModelo").value(m.id).key("idCamada").value(in.camada).key("idCampoDestino");
  in.destino ? w.value(*in.destino) : w.null();
  w.key("estimados").value(i64(e.values.size())).key("valores").raw(e.rows).key("semDados").begin_array();
  for (auto id : e.missing) w.value(id);
  w.end_array().key("recusados").begin_array();
  for (const auto& r : e.refused) w.value(r);
  w.end_array().end_object();
  return Response::json(std::move(w).str());
}

// ------------------------------------------------------------------ the value map

struct Pvg {
  common::FileStore files;

  Response generate(const Scope& s, Request& req) const {
    PvgInput in = parse_pvg(req.body);
    PvgVersion v;
    v.descricao = in.descricao;
    std::size_t total = 0;
    if (in.raster) {
      guard::require(s, "camada", *in.raster, "leitura", "idCamadaRaster");
      LayerFile lf = layer_file(s, *in.raster);
      if (lf.tipo != "tiff" || !lf.arquivo)
        throw Error(errc::invalid_argument, "idCamadaRaster: a camada não é um raster (tiff)", "idCamadaRaster");
      auto faces = face_points(s);
      total = faces.size();
      std::vector<std::pair<double, double>> points;
      for (const auto& f : faces) points.emplace_back(f.lon, f.lat);
      auto sampled = geostatistics::sample_raster(files.resolve(s.tenant.slug, *lf.arquivo).string(), points);
      for (std::size_t i = 0; i < faces.size(); ++i)
        if (sampled[i] && *sampled[i] >= 0.005) v.valores.emplace_back(faces[i].id, *sampled[i]);
      v.origem = "krigagem";
      v.projeto = lf.projeto;
      v.camada = in.raster;
    } else {
      StoredModel m = model_of(s, *in.modelo);
      guard::require(s, "camada", *in.camada, "leitura", "idCamada");
      Estimates e = estimate(s, m, *in.camada, in.campos, "campos");
      total = face_points(s).size();
      for (const auto& [face, value] : face_medians(s, e.values, in.raio))
        if (value >= 0.005) v.valores.emplace_back(face, value);
      v.origem = "modelo";
      v.projeto = m.projeto;
      v.camada = in.camada;
      v.modelo = m.id;
    }
    if (v.valores.empty())
      throw Error(errc::unprocessable, "nenhuma face de quadra recebeu valor: a fonte não cobre as faces do cadastro",
                  in.raster ? "idCamadaRaster" : "idCamada");
    std::string version = write_pvg_version(s, v);
    JsonWriter w;
    w.begin_object().key("versao").raw(version).key("faces").value(i64(total));
    w.key("facesComValor").value(i64(v.valores.size())).key("facesSemValor").value(i64(total - v.valores.size()));
    w.end_object();
    return Response::json(std::move(w).str(), 201);
  }
};

// ------------------------------------------------------------------ residual features

Response residuals(const std::string& kind, const Scope& s, Request& req) {
  ResidualsInput in = parse_residuals(req.body);
  StoredModel m = model_of(s, in.modelo);
  LayerFile layer = layer_file(s, in.camada);
  if (layer.projeto != m.projeto)
    throw Error(errc::invalid_argument, "idCamada: a camada não é do projeto do modelo", "idCamada");
  if (layer.tipo != "vetor" || (layer.geometria != kind && layer.geometria != "qualquer"))
    throw Error(errc::invalid_argument, "idCamada: a camada deve ser vetorial de geometria " + kind, "idCamada");
  if (!is_decimal_field(s, in.camada, in.campo))
    throw Error(errc::invalid_argument, "idCampo: deve ser um campo decimal da camada", "idCampo");
  auto residual = model_residuals(s, m.id);
  if (in.feicoes.size() != residual.size())
    throw Error(errc::invalid_argument,
                "feicoes: o modelo tem " + std::to_string(residual.size()) + " amostras; recebidas " +
                    std::to_string(in.feicoes.size()) + " feições",
                "feicoes");
  ResidualWrite write{m.id, in.camada, in.campo, kind, {}, {}, {}};
  std::set<std::int64_t> seen;
  for (std::size_t i = 0; i < in.feicoes.size(); ++i) {
    const auto& f = in.feicoes[i];
    std::string field = "feicoes[" + std::to_string(i) + "].idAmostra";
    auto it = residual.find(f.amostra);
    if (it == residual.end())
      throw Error(errc::invalid_argument, field + ": " + std::to_string(f.amostra) + " não é amostra do modelo", field);
    if (!seen.insert(f.amostra).second)
      throw Error(errc::invalid_argument, field + ": amostra repetida " + std::to_string(f.amostra), field);
    write.amostras.push_back(f.amostra);
    write.geojson.push_back(f.geojson);
    write.residuos.push_back(it->second);
  }
  auto created = write_residuals(s, write);
  JsonWriter w;
  w.begin_object().key("idModelo").value(m.id).key("tipo").value(kind).key("idCamada").value(in.camada);
  w.key("idCampo").value(in.campo).key("feicoes").begin_array();
  for (std::size_t i = 0; i < created.size(); ++i)
    w.begin_object().key("idAmostra").value(write.amostras[i]).key("idGeometria").value(created[i])
        .key("residuo").value(write.residuos[i]).end_object();
  w.end_array().end_object();
  return Response::json(std::move(w).str());
}

}  // namespace
}  // namespace cadastre::platform::mass_appraisal

namespace cadastre::platform {

void add_mass_appraisal_routes(App& app) {
  using namespace mass_appraisal;
  auto& srv = app.server();
  const std::string fit =
      R"({"idCamada", "dependente": {"idCampo", "transformacao"?}, "independentes": [{"idCampo", "transformacao"?}], )"
      R"("idChk"?, "nivel"?} — transformacao: nenhuma, ln, inversa, quadrado, raiz)";
  srv.add({.method = "POST", .pattern = "/rlm", .auth = "sessao", .access = http::on("camada", "corpo.idCamada", "leitura"), .tag = kTag,
           .summary = "Regressão linear múltipla sobre as amostras de uma camada: coeficientes, t, p, F, R², R² "
                      "ajustado, resíduos, outliers, intervalos, graus da NBR 14653-2 e estudo de razão IAAO",
           .body = {.description = fit, .max_bytes = 16384, .schema = schemas::ref("AjusteRlm")},
           .answer_schema = schemas::ref("Regressao"),
           .handler = service::scoped(rlm)});
  srv.add({.method = "POST", .pattern = "/rlm/final", .auth = "sessao", .access = http::on("camada", "corpo.idCamada", "leitura"), .tag = kTag,
           .summary = "Ajusta e grava o modelo escolhido no projeto da camada (administrador do projeto)",
           .body = {.description = "o corpo de /rlm e \"nome\"", .max_bytes = 16384, .schema = schemas::ref("ModeloRlmNovo")},
           .answer_status = 201,
           .answer_schema = schemas::ref("ModeloAvaliacao"), .handler = service::scoped(rlm_final)});
  srv.add({.method = "POST", .pattern = "/rlm/grafico", .auth = "sessao", .access = http::members("leitura na camada do ajuste, ou no projeto e na camada do modelo idModelo (verificada pelo guarda)"), .tag = kTag,
           .summary = "Gráfico de um ajuste ou de um modelo gravado (idModelo): tipo residuos (padronizados × "
                      "ajustados), observado_ajustado ou qq (normal); formato png ou svg",
           .body = {.description = "o corpo de /rlm, ou {\"idModelo\"} (modelo gravado; leitura no seu projeto e "
                                   "camada), e \"tipo\"?, \"formato\"?, \"largura\"?, \"altura\"?",
                    .max_bytes = 16384,
                    .schema = schemas::ref("GraficoRlm")},
           .answers = "image/png", .handler = service::scoped(rlm_graph)});
  srv.add({.method = "POST", .pattern = "/rlm/{idModelo}", .auth = "sessao", .access = http::on("modelo_avaliacao", "{idModelo}", "leitura"), .tag = kTag,
           .summary = "Aplica um modelo gravado às geometrias de uma camada: a estimativa de cada uma (e a grava "
                      "num campo decimal com idCampoDestino)",
           .body = {.description = R"({"idCamada", "campos"?: {"chave do regressor": idCampo}, "idCampoDestino"?})",
                    .max_bytes = 16384,
                    .schema = schemas::ref("AplicacaoModelo")},
           .answer_schema = schemas::ref("EstimativasModelo"), .handler = service::scoped(rlm_apply)});
  auto pvg = std::make_shared<const Pvg>(Pvg{common::FileStore(app.options().files_dir)});
  srv.add({.method = "POST", .pattern = "/gerarPVGEO", .auth = "sessao", .access = http::admins(), .tag = kTag,
           .summary = "Gera uma nova versão da planta genérica de valores (valor do m² por face de quadra do "
                      "cadastro) de uma camada krigada ou de um modelo gravado; o IPTU passa a usá-la",
           .body = {.description = R"({"idCamadaRaster"} ou {"idModelo", "idCamada", "raio"?, "campos"?}, )"
                                   R"("descricao"?)",
                    .max_bytes = 16384,
                    .schema = schemas::ref("PedidoPVG")},
           .answer_status = 201, .answer_schema = schemas::ref("GeracaoPVG"),
           .handler = service::scoped([pvg](const Scope& s, Request& r) { return pvg->generate(s, r); })});
  for (auto [route, kind] : {std::pair{"line", "linha"}, {"polygon", "poligono"}, {"point", "ponto"}}) {
    std::string k = kind;
    srv.add({.method = "POST", .pattern = std::string("/update/pvg/residuos/") + route, .auth = "sessao",
             .access = http::on("camada", "corpo.idCamada", "edicao"), .tag = kTag,
             .summary = "Grava os resíduos de um modelo gravado como feições (" + k +
                        ") de uma camada do projeto, uma por amostra, substituindo as anteriores",
             .body = {.description = R"({"idModelo", "idCamada", "idCampo", "feicoes": [{"idAmostra", "geometria": )"
                                     R"(GeoJSON}]})",
                      .max_bytes = 8 << 20,
                      .schema = schemas::ref("ResiduosModeloNovos")},
             .answer_schema = schemas::ref("ResiduosModelo"),
             .handler = service::scoped([k](const Scope& s, Request& r) { return residuals(k, s, r); })});
  }
}

}  // namespace cadastre::platform
