// Geostatistics: variogram models of a project (/variogramas), their automatic fit over a
// layer's samples (/variogramas/automatico) and ordinary kriging over a domain polygon
// (/krigar/:idVariograma), optionally saved as a raster layer of the project. The numbers
// come from the library (cadastre/geostat.hpp); this area reads the samples, checks the
// caller's rights and stores the results. docs/platform-geostatistics.md has the shapes.
#include <regex>

#include "cadastre/json.hpp"
#include "platform/app.hpp"
#include "platform/geostatistics/input.hpp"
#include "platform/geostatistics/kriging.hpp"
#include "platform/geostatistics/prepared.hpp"
#include "platform/geostatistics/store.hpp"
#include "platform/guard/guard.hpp"
#include "platform/common/files.hpp"
#include "platform/schemas.hpp"

namespace cadastre::platform::geostatistics {
namespace {

using http::Request;
using http::Response;
using service::Scope;

constexpr const char* kTag = "Geoestatística";

void model_json(JsonWriter& w, const geostat::Model& m) {
  w.key("tipo").value(type_name(m.type)).key("pepita").value(m.nugget).key("contribuicao").value(m.psill);
  w.key("alcance").value(m.range).key("patamar").value(m.sill());
}

Response list(const Scope& s, Request& req) {
  auto projeto = query_int(req, "idProjeto", 1, INT64_MAX);
  if (projeto) guard::require(s, "projeto", *projeto, "leitura", "idProjeto");
  Page page = parse_page(req, "id");
  return Response::json(page_json(list_variograms(s, projeto, page), page));
}

Response create(const Scope& s, Request& req) {
  VariogramInput in = parse_variogram(req.body, true);
  const service::Grant& g = s.grant();
  if (in.projeto && *in.projeto != g.project_id)
    throw Error(errc::invalid_argument, "idProjeto: a camada " + std::to_string(*in.camada) + " é de outro projeto",
                "idProjeto");
  Variogram v;
  v.projeto = g.project_id;
  v.camada = *in.camada;
  v.campo = *in.campo;
  v.campo_chk = in.campo_chk;
  v.nome = *in.nome;
  v.model = {*in.tipo, *in.pepita, *in.contribuicao, *in.alcance};
  v.log = in.log.value_or(false);
  geostat::validate(v.model);
  // The UTM zone the range is measured in: the one sent (the zone /variogramas/automatico
  // fitted in), else the samples' centroid zone; the samples must be usable in it.
  v.epsg = prepare_samples(s, v.camada, {v.campo, "idCampo"},
                           v.campo_chk ? std::optional<FieldParam>({*v.campo_chk, "idCampoChk"}) : std::nullopt, v.log,
                           in.epsg)
               .projected.epsg;
  return Response::json(variogram_json(s, insert_variogram(s, v)), 201);
}

Response change(const Scope& s, Request& req) {
  VariogramInput in = parse_variogram(req.body, false);
  auto v = find_variogram(s, s.grant().id);
  if (!v) throw Error(errc::not_found, "variograma não encontrado", "id");
  if (in.projeto && *in.projeto != v->projeto)
    throw Error(errc::invalid_argument, "idProjeto: o variograma é de outro projeto", "idProjeto");
  if (in.nome) v->nome = *in.nome;
  if (in.tipo) v->model.type = *in.tipo;
  if (in.pepita) v->model.nugget = *in.pepita;
  if (in.contribuicao) v->model.psill = *in.contribuicao;
  if (in.alcance) v->model.range = *in.alcance;
  if (in.log) v->log = *in.log;
  if (in.campo_chk_null) v->campo_chk.reset();
  if (in.campo_chk) {
    check_fields(s, v->camada, {}, FieldParam{*in.campo_chk, "idCampoChk"});
    v->campo_chk = in.campo_chk;
  }
  geostat::validate(v->model);
  if (in.epsg) {  // a new zone must hold the samples (422 otherwise, as kriging would say)
    prepare_samples(s, v->camada, {v->campo, "idCampo"},
                    v->campo_chk ? std::optional<FieldParam>({*v->campo_chk, "idCampoChk"}) : std::nullopt, v->log,
                    in.epsg);
    v->epsg = *in.epsg;
  }
  update_variogram(s, *v);
  return Response::json(variogram_json(s, v->id));
}

Response automatic(const Scope& s, Request& req) {
  AutoQuery q = parse_auto(req);
  Prepared p = prepare_samples(s, q.camada, {q.campo, "idvm2"},
                               q.campo_chk ? std::optional<FieldParam>({*q.campo_chk, "idChk"}) : std::nullopt, q.log);
  auto bins = geostat::experimental_variogram(p.projected.samples, q.options);
  JsonWriter w;
  w.begin_object().key("idCamada").value(q.camada).key("idCampo").value(q.campo);
  w.key("idCampoChk");
  q.campo_chk ? w.value(*q.campo_chk) : w.null();
  w.key("log").value(q.log).key("amostras").value(static_cast<std::int64_t>(p.projected.samples.size()));
  w.key("epsg").value(p.projected.epsg).key("bins").begin_array();
  for (const auto& b : bins)
    w.begin_object().key("inicio").value(b.lower).key("fim").value(b.upper).key("pares")
        .value(static_cast<std::int64_t>(b.np)).key("distancia").value(b.dist).key("semivariancia").value(b.gamma)
        .end_object();
  w.end_array().key("modelos").begin_array();
  std::optional<geostat::FitResult> best;
  for (auto type : {geostat::ModelType::spherical, geostat::ModelType::exponential, geostat::ModelType::gaussian}) {
    w.begin_object();
    try {
      geostat::FitResult f = geostat::fit_variogram(bins, type);
      model_json(w, f.model);
      w.key("wsse").value(f.wsse).key("iteracoes").value(static_cast<std::int64_t>(f.iterations));
      w.key("convergiu").value(f.converged);
      if (!best || f.wsse < best->wsse) best = f;
    } catch (const Error& e) {  // one type that does not fit leaves the others' answers
      w.key("tipo").value(type_name(type)).key("erro").value(e.what());
    }
    w.end_object();
  }
  w.end_array().key("melhor");
  best ? w.value(type_name(best->model.type)) : w.null();
  w.end_object();
  return Response::json(std::move(w).str());
}

// The library names duplicate samples by index (#i); the caller knows them by geometry.
std::vector<geostat::Sample> duplicates_handled(const Prepared& p, bool merge) {
  try {
    return geostat::handle_duplicates(p.projected.samples,
                                      merge ? geostat::Duplicates::merge : geostat::Duplicates::refuse);
  } catch (const Error& e) {
    static const std::regex index("#([0-9]+)");
    std::string message = e.what(), out;
    auto last = message.cbegin();
    for (std::sregex_iterator it(message.begin(), message.end(), index), end; it != end; ++it) {
      out.append(last, (*it)[0].first);
      std::size_t i = std::stoul((*it)[1].str());
      out += i < p.geometries.size() ? "geometria " + std::to_string(p.geometries[i]) : it->str();
      last = (*it)[0].second;
    }
    out.append(last, message.cend());
    if (e.code() == errc::unprocessable) out += " (mesclarDuplicatas=true usa a média de cada grupo)";
    throw Error(e.code(), out, "amostras");
  }
}

struct Kriging {
  common::FileStore files;

  Response run(const Scope& s, Request& req) const {
    KrigingQuery q = parse_kriging(req);
    auto v = find_variogram(s, s.grant().id);
    if (!v) throw Error(errc::not_found, "variograma não encontrado", "idVariograma");
    guard::require(s, "geometria", q.dominio, "leitura", "idDominioGeografico");
    if (q.salvar && !files.enabled())
      throw Error(errc::unavailable, "o armazenamento de arquivos da plataforma não está configurado");
    // The model's zone, not the samples' centroid's: the range is in its metres, and the
    // grid and the raster are in it.
    const int epsg = v->epsg;
    Domain d = load_domain(s, q.dominio, v->projeto, epsg);
    for (double lon : {d.lon_min, d.lon_max}) check_in_zone(lon, epsg, "o domínio", "idDominioGeografico");
    Prepared p = prepare_samples(s, v->camada, {v->campo, "idCampo"},
                                 v->campo_chk ? std::optional<FieldParam>({*v->campo_chk, "idCampoChk"}) : std::nullopt,
                                 v->log, epsg);
    auto samples = duplicates_handled(p, q.merge_duplicates);
    KrigingRequest r{d.wkt, d.minx, d.miny, d.maxx, d.maxy, q.celula, v->model, v->log, {}};
    r.options.nmax = q.nmax;
    if (q.raio) r.options.maxdist = *q.raio;
    KrigingResult k = krige_domain(samples, r);
    if (q.formato == "tiff" && !q.salvar) return Response::text(geotiff_bytes(k.grid, epsg), "image/tiff");

    std::optional<std::int64_t> layer;
    if (q.salvar) {
      // Written beside its place, then moved in before the layer's row commits: a failed
      // commit removes the file, so there is no file without its layer.
      const file_store::Store& store = files.store();
      std::string placed;
      try {
        layer = create_raster_layer(s, v->projeto, q.nome, d, epsg, [&](const std::string& relative, std::int64_t) {
          file_store::Store::Scratch grid = store.scratch(s.tenant.slug + "/importacoes/krigagem", ".tif");
          write_geotiff(grid.path().string(), k.grid, epsg);
          placed = s.tenant.slug + "/" + relative;
          grid.publish(placed);
        });
      } catch (...) {
        if (!placed.empty()) store.remove(placed.substr(0, placed.rfind('/')));
        throw;
      }
    }
    JsonWriter w;
    w.begin_object().key("idVariograma").value(v->id).key("idDominioGeografico").value(q.dominio);
    w.key("log").value(v->log).key("epsg").value(epsg).key("amostras").value(static_cast<std::int64_t>(samples.size()));
    w.key("grade").begin_object().key("origemX").value(k.grid.origin_x).key("origemY").value(k.grid.origin_y);
    w.key("celula").value(k.grid.cell_size).key("linhas").value(static_cast<std::int64_t>(k.grid.rows));
    w.key("colunas").value(static_cast<std::int64_t>(k.grid.cols)).end_object();
    w.key("celulasNoDominio").value(static_cast<std::int64_t>(k.inside));
    w.key("celulasEstimadas").value(static_cast<std::int64_t>(k.kriged));
    w.key("minimo").value(k.min).key("maximo").value(k.max).key("media").value(k.mean);
    w.key("varianciaMedia").value(k.mean_variance).key("idCamada");
    layer ? w.value(*layer) : w.null();
    w.end_object();
    return Response::json(std::move(w).str());
  }
};

}  // namespace
}  // namespace cadastre::platform::geostatistics

namespace cadastre::platform {

void add_geostatistics_routes(App& app) {
  using namespace geostatistics;
  auto k = std::make_shared<const Kriging>(Kriging{common::FileStore(app.options().files_dir)});
  auto& srv = app.server();
  const std::string model_body =
      R"({"nome", "tipo": "esferico"|"exponencial"|"gaussiano", "pepita", "contribuicao", "alcance" (metros), )"
      R"("log"?, "idCamada", "idCampo", "idCampoChk"?, "idProjeto"?, "epsg"? (SIRGAS 2000 / UTM; padrão: o fuso )"
      R"(das amostras)})";
  std::vector<http::Param> list_params = page_params({"id", "nome", "criadoEm"});
  list_params.push_back({.name = "idProjeto", .type = "integer", .description = "só os variogramas deste projeto"});
  srv.add({.method = "GET", .pattern = "/variogramas", .auth = "sessao",
           .access = http::members("só os variogramas dos projetos que o usuário vê"), .tag = kTag,
           .summary = "Os modelos de variograma dos projetos que o usuário vê, paginados", .params = list_params,
           .answer_schema = schemas::page_of("Variograma"), .handler = service::scoped(list)});
  srv.add({.method = "POST", .pattern = "/variogramas", .auth = "sessao",
           .access = http::on("camada", "corpo.idCamada", "admin"), .tag = kTag,
           .summary = "Cria um modelo de variograma no projeto da camada de amostras (administrador do projeto); "
                      "o EPSG UTM é o enviado ou o do fuso das amostras",
           .body = {.description = model_body, .max_bytes = 8192, .schema = schemas::ref("VariogramaNovo")},
           .answer_status = 201,
           .answer_schema = schemas::ref("Variograma"), .handler = service::scoped(create)});
  srv.add({.method = "PUT", .pattern = "/variogramas", .auth = "sessao",
           .access = http::on("variograma", "corpo.id", "admin"), .tag = kTag,
           .summary = "Altera um modelo de variograma: {\"id\", e os campos a alterar (nome, tipo, pepita, "
                      "contribuicao, alcance, log, epsg, idCampoChk)}",
           .body = {.description = R"({"id", "nome"?, "tipo"?, "pepita"?, "contribuicao"?, "alcance"?, "log"?, )"
                                   R"("epsg"?, "idCampoChk"?: id ou null})",
                    .max_bytes = 8192,
                    .schema = schemas::ref("VariogramaAlteracao")},
           .answer_schema = schemas::ref("Variograma"), .handler = service::scoped(change)});
  srv.add({.method = "GET", .pattern = "/variogramas/automatico", .auth = "sessao",
           .access = http::on("camada", "idcamada", "leitura"), .tag = kTag,
           .summary = "Variograma experimental das amostras de uma camada e o ajuste automático (mínimos quadrados "
                      "ponderados N/h², como o gstat) de cada modelo, com o melhor pelo WSSE",
           .params = {{.name = "idcamada", .type = "integer", .required = true, .description = "a camada das amostras"},
                      {.name = "idvm2", .type = "integer", .required = true,
                       .description = "o campo numérico com o valor (por m²) de cada amostra"},
                      {.name = "idChk", .type = "integer",
                       .description = "campo booleano da camada: só as amostras com ele verdadeiro"},
                      {.name = "log", .type = "boolean", .description = "ajusta sobre ln(valor)",
                       .values = {"true", "false"}},
                      {.name = "corte", .type = "number", .description = "distância máxima dos pares (metros)"},
                      {.name = "lags", .type = "integer", .description = "número de classes de distância (3 a 100)"}},
           .answer_schema = schemas::ref("AjusteVariograma"), .handler = service::scoped(automatic)});
  srv.add({.method = "GET", .pattern = "/krigar/{idVariograma}", .auth = "sessao",
           .access = http::on("variograma", "{idVariograma}", "leitura").raised_by("salvar", "admin"), .tag = kTag,
           .summary = "Krigagem ordinária das amostras do variograma sobre um polígono do projeto; salvar=true grava "
                      "o GeoTIFF como camada raster do projeto (administrador); formato=tiff responde o GeoTIFF",
           .params = {{.name = "idDominioGeografico", .type = "integer", .required = true,
                       .description = "geometria poligonal do projeto que limita a krigagem"},
                      {.name = "salvar", .type = "boolean", .description = "cria a camada raster",
                       .values = {"true", "false"}},
                      {.name = "celula", .type = "number", .description = "lado da célula em metros"},
                      {.name = "nmax", .type = "integer", .description = "vizinhos usados (1 a 500; padrão 32)"},
                      {.name = "raio", .type = "number", .description = "distância máxima dos vizinhos (metros)"},
                      {.name = "mesclarDuplicatas", .type = "boolean",
                       .description = "amostras no mesmo lugar: média (true) ou erro 422 (false, padrão)",
                       .values = {"true", "false"}},
                      {.name = "formato", .description = "json (resumo) ou tiff", .values = {"json", "tiff"}},
                      {.name = "nome", .description = "nome da camada raster criada"}},
           .answer_schema = schemas::ref("Krigagem"),
           .handler = service::scoped([k](const Scope& s, Request& r) { return k->run(s, r); })});
}

}  // namespace cadastre::platform
