// /variogramas (list, create, change), /variogramas/automatico and /krigar/:idVariograma:
// their effects, who may call them, and the refusals of bad input.
#include <cpl_vsi.h>
#include <gdal.h>
#include <ogr_srs_api.h>

#include <cmath>
#include <sstream>

#include "cadastre/geom.hpp"
#include "cadastre/geostat.hpp"
#include "integration/platform/openapi_check.hpp"
#include "samples.hpp"

using namespace cadastre;
using test::GeostatFixture;
using test::refused;
using test::Samples;

namespace {

std::string model_body(const Samples& w, const std::string& extra = "") {
  return R"({"nome":"vm2","tipo":"esferico","pepita":10,"contribuicao":5000,"alcance":2000,"idCamada":)" +
         Samples::n(w.layer) + R"(,"idCampo":)" + Samples::n(w.field.at("vm2")) + extra + "}";
}

// A GeoTIFF (a file, or bytes put under /vsimem/): its CRS's EPSG code, geotransform and
// the value and variance of one cell.
struct Tiff {
  std::string epsg;
  double t[6] = {};
  int cols = 0, rows = 0;
  GDALDatasetH ds = nullptr;
  explicit Tiff(const std::string& path) {
    GDALAllRegister();
    ds = GDALOpen(path.c_str(), GA_ReadOnly);
    REQUIRE_MESSAGE(ds, path);
    OGRSpatialReferenceH srs = GDALGetSpatialRef(ds);
    REQUIRE(srs);
    const char* code = OSRGetAuthorityCode(srs, nullptr);
    epsg = code ? code : "";
    GDALGetGeoTransform(ds, t);
    cols = GDALGetRasterXSize(ds);
    rows = GDALGetRasterYSize(ds);
  }
  ~Tiff() { GDALClose(ds); }
  double at(int band, int col, int row) const {
    double v = 0;
    REQUIRE(GDALRasterIO(GDALGetRasterBand(ds, band), GF_Read, col, row, 1, 1, &v, 1, 1, GDT_Float64, 0, 0) == CE_None);
    return v;
  }
};

}  // namespace

TEST_CASE_FIXTURE(GeostatFixture, "variogram models are created, changed and listed in their project") {
  Samples w(*this);
  auto a = post("/variogramas", model_body(w), w.owner);
  REQUIRE_MESSAGE(a->status == 201, a->body);
  const std::string id = std::to_string(int64_t(a->json()["id"]));
  CHECK(int64_t(a->json()["idProjeto"]) == w.project);
  CHECK(std::string_view(a->json()["tipo"]) == "esferico");
  CHECK(double(a->json()["alcance"]) == 2000);
  CHECK(!bool(a->json()["log"]));
  CHECK(w.db("select tipo || ' ' || pepita || ' ' || contribuicao || ' ' || alcance || ' ' || epsg "
             "from projeto.variogramas where id = " + id)
            .rfind("esferico 10 5000 2000 319", 0) == 0);

  a = put("/variogramas", R"({"id":)" + id + R"(,"tipo":"gaussiano","alcance":1500.5,"log":true})", w.owner);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(std::string_view(a->json()["tipo"]) == "gaussiano");
  CHECK(w.db("select tipo || ' ' || alcance || ' ' || log || ' ' || pepita from projeto.variogramas where id = " +
             id) == "gaussiano 1500.5 true 10");

  // Lists: the reader sees it; a user without a share and another tenant do not.
  a = get("/variogramas?idProjeto=" + Samples::n(w.project), w.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(int64_t(a->json()["totalElements"]) == 1);
  CHECK(std::to_string(int64_t(a->json()["content"].at(0)["id"])) == id);
  CHECK(int64_t(get("/variogramas", w.stranger)->json()["totalElements"]) == 0);
  refused(*get("/variogramas?idProjeto=" + Samples::n(w.project), w.stranger), 404, "nao_encontrado");
  refused(*get("/variogramas?idProjeto=" + Samples::n(w.project), w.other_tenant), 404, "nao_encontrado");
  refused(*get("/variogramas?idProjeto=1;drop", w.owner), 400, "parametro_invalido", "idProjeto");

  // Writing needs admin of the project; another tenant's ids are unknown.
  refused(*request("POST", "/variogramas", {}, model_body(w)), 401, "nao_autenticado");
  refused(*post("/variogramas", model_body(w), w.reader), 403, "acesso_negado");
  refused(*post("/variogramas", model_body(w), w.editor), 403, "acesso_negado");
  refused(*post("/variogramas", model_body(w), w.stranger), 404, "nao_encontrado");
  refused(*post("/variogramas", model_body(w), w.other_tenant), 404, "nao_encontrado");
  refused(*put("/variogramas", R"({"id":)" + id + R"(,"pepita":1})", w.reader), 403, "acesso_negado");
  refused(*put("/variogramas", R"({"id":)" + id + R"(,"pepita":1})", w.other_tenant), 404, "nao_encontrado");
  refused(*put("/variogramas", R"({"id":999999,"pepita":1})", w.owner), 404, "nao_encontrado");

  // Bad input names the field.
  refused(*post("/variogramas", model_body(w, R"(,"tipo":"cubico")"), w.owner), 400, "parametro_invalido", "tipo");
  refused(*post("/variogramas", R"({"nome":"x","tipo":"esferico","pepita":-1,"contribuicao":1,"alcance":1,"idCamada":)" +
                                    Samples::n(w.layer) + R"(,"idCampo":)" + Samples::n(w.field.at("vm2")) + "}",
                w.owner),
          400, "parametro_invalido", "pepita");
  refused(*post("/variogramas", R"({"nome":"x","tipo":"esferico","pepita":0,"contribuicao":1,"alcance":1,"idCamada":)" +
                                    Samples::n(w.layer) + "}",
                w.owner),
          400, "campo_obrigatorio", "idCampo");
  refused(*post("/variogramas", model_body(w, R"(,"idCampoChk":)" + Samples::n(w.field.at("area"))), w.owner), 400,
          "parametro_invalido", "idCampoChk");
  refused(*post("/variogramas", model_body(w, R"(,"extra":1)"), w.owner), 400, "campo_desconhecido", "extra");
  refused(*put("/variogramas", R"({"pepita":1})", w.owner), 400, "campo_obrigatorio", "id");
  refused(*put("/variogramas", R"({"id":)" + id + R"(,"alcance":0})", w.owner), 400, "parametro_invalido", "alcance");
  refused(*post("/variogramas", R"({"nome":")" + std::string(10000, 'x') + R"("})", w.owner), 413,
          "corpo_muito_grande");
  CHECK(w.db("select count(*) from projeto.variogramas") == "1");

  // An inactive project takes no new models and no changes.
  w.db("update projeto.projetos set ativo = false where id = " + Samples::n(w.project) + " returning 1");
  refused(*post("/variogramas", model_body(w), w.owner), 409, "transicao_invalida");
  refused(*put("/variogramas", R"({"id":)" + id + R"(,"pepita":1})", w.owner), 409, "transicao_invalida");
  CHECK(get("/variogramas?idProjeto=" + Samples::n(w.project), w.reader)->status == 200);
}

TEST_CASE_FIXTURE(GeostatFixture, "the geostatistics and mass appraisal routes are documented with their schemas") {
  test::check_documented(*this,
                         {{"get", "/variogramas"}, {"post", "/variogramas"}, {"put", "/variogramas"},
                          {"get", "/variogramas/automatico"}, {"get", "/krigar/{idVariograma}"}, {"post", "/rlm"},
                          {"post", "/rlm/final"}, {"post", "/rlm/{idModelo}"}, {"post", "/gerarPVGEO"},
                          {"post", "/update/pvg/residuos/line"}, {"post", "/update/pvg/residuos/polygon"},
                          {"post", "/update/pvg/residuos/point"}},
                         true);
  test::check_documented(*this, {{"post", "/rlm/grafico"}}, false);
}

TEST_CASE_FIXTURE(GeostatFixture, "the automatic fit answers the bins and every model, and refuses bad samples") {
  Samples w(*this);
  const std::string base = "/variogramas/automatico?idcamada=" + Samples::n(w.layer) + "&idvm2=";
  auto a = get(base + Samples::n(w.field.at("vm2")) + "&lags=10", w.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(int64_t(a->json()["amostras"]) == 49);
  CHECK(a->json()["modelos"].get_array().size() == 3);
  double previous = 0;
  for (auto b : a->json()["bins"].get_array()) {  // bins by distance, each with its pairs
    CHECK(double(b["distancia"]) >= previous);
    previous = double(b["distancia"]);
    CHECK(int64_t(b["pares"]) > 0);
  }
  double best = INFINITY;
  for (auto m : a->json()["modelos"].get_array())
    if (m["wsse"].is_number()) best = std::min(best, double(m["wsse"]));
  for (auto m : a->json()["modelos"].get_array())
    if (std::string_view(m["tipo"]) == std::string_view(a->json()["melhor"])) CHECK(double(m["wsse"]) == best);

  // ln of a non-positive value: 400 naming the field and the geometry.
  std::string first = Samples::n(w.first_sample());
  w.db("update " + w.table() + " set " + w.column("vm2") + " = 0 where id = " + first + " returning 1");
  refused(*get(base + Samples::n(w.field.at("vm2")) + "&log=true", w.owner), 400, "parametro_invalido", first);
  CHECK(get(base + Samples::n(w.field.at("vm2")) + "&log=false", w.owner)->status == 200);

  refused(*get(base + Samples::n(w.field.at("nome")), w.owner), 400, "parametro_invalido", "idvm2");
  refused(*get(base + "1;drop", w.owner), 400, "parametro_invalido", "idvm2");
  refused(*get("/variogramas/automatico?idcamada=1;drop&idvm2=1", w.owner), 400, "parametro_invalido", "idcamada");
  refused(*get(base + Samples::n(w.field.at("vm2")) + "&log=talvez", w.owner), 400, "parametro_invalido", "log");
  refused(*get(base + Samples::n(w.field.at("vm2")) + "&idChk=" + Samples::n(w.field.at("area")), w.owner), 400,
          "parametro_invalido", "idChk");
  refused(*get("/variogramas/automatico?idcamada=" + Samples::n(w.layer), w.owner), 400, "campo_obrigatorio", "idvm2");
  refused(*request("GET", base + "1", {}), 401, "nao_autenticado");
  refused(*get(base + Samples::n(w.field.at("vm2")), w.stranger), 404, "nao_encontrado");
  refused(*get(base + Samples::n(w.field.at("vm2")), w.other_tenant), 404, "nao_encontrado");
}

TEST_CASE_FIXTURE(GeostatFixture, "kriging answers a summary or a GeoTIFF, and refuses what it cannot krige") {
  Samples w(*this);
  auto a = post("/variogramas", model_body(w), w.owner);
  REQUIRE_MESSAGE(a->status == 201, a->body);
  const std::string base = "/krigar/" + std::to_string(int64_t(a->json()["id"])) + "?idDominioGeografico=";
  const std::string domain = Samples::n(w.domain);

  a = get(base + domain + "&celula=200", w.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(a->json()["idCamada"].is_null());
  CHECK(double(a->json()["grade"]["celula"]) == 200);
  CHECK(int64_t(a->json()["celulasEstimadas"]) == int64_t(a->json()["celulasNoDominio"]));
  CHECK(double(a->json()["minimo"]) <= double(a->json()["media"]));
  CHECK(w.db("select count(*) from projeto.camadas where tipo = 'tiff'") == "0");

  a = get(base + domain + "&formato=tiff&nmax=8", w.reader);
  REQUIRE(a->status == 200);
  CHECK(a->content_type == "image/tiff");
  CHECK(a->body.substr(0, 4) == std::string("II*\0", 4));

  // Saving creates a layer: admin only.
  refused(*get(base + domain + "&salvar=true", w.reader), 403, "acesso_negado");
  refused(*get(base + domain + "&salvar=true", w.editor), 403, "acesso_negado");
  CHECK(w.db("select count(*) from projeto.camadas where tipo = 'tiff'") == "0");

  refused(*get(base + Samples::n(w.not_polygon), w.owner), 400, "parametro_invalido", "idDominioGeografico");
  refused(*get(base + domain + "&celula=0.5", w.owner), 400, "parametro_invalido", "celula");
  refused(*get(base + domain + "&formato=png", w.owner), 400, "parametro_invalido", "formato");
  refused(*get("/krigar/1;drop?idDominioGeografico=" + domain, w.owner), 400, "parametro_invalido", "idVariograma");
  refused(*get("/krigar/999999?idDominioGeografico=" + domain, w.owner), 404, "nao_encontrado");
  refused(*request("GET", base + domain, {}), 401, "nao_autenticado");
  refused(*get(base + domain, w.stranger), 404, "nao_encontrado");
  refused(*get(base + domain, w.other_tenant), 404, "nao_encontrado");

  // Two samples at one place: refused (422, naming their geometries) unless merged.
  std::string first = Samples::n(w.first_sample());
  w.db("update projeto.geometrias set geom = (select geom from projeto.geometrias where id = " + first +
       ") where id = " + first + " + 1 returning 1");
  refused(*get(base + domain, w.owner), 422, "entidade_improcessavel", "geometria " + first);
  CHECK(get(base + domain + "&mesclarDuplicatas=true", w.owner)->status == 200);
}

TEST_CASE_FIXTURE(GeostatFixture, "kriging works in the model's stored EPSG, not the samples' zone, within 6° of it") {
  Samples w(*this);
  const std::string layer = Samples::n(w.layer), vm2 = Samples::n(w.field.at("vm2")), domain = Samples::n(w.domain);
  // The samples (the demo city, about 47.06° W) lie in zone 23S (central meridian 45° W)...
  auto a = get("/variogramas/automatico?idcamada=" + layer + "&idvm2=" + vm2, w.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(int64_t(a->json()["epsg"]) == 31983);
  // ...the model was fitted in 22S (51° W, 4° from them): its range is in 22S metres.
  a = post("/variogramas", model_body(w, R"(,"epsg":31982)"), w.owner);
  REQUIRE_MESSAGE(a->status == 201, a->body);
  const std::string id = std::to_string(int64_t(a->json()["id"]));
  CHECK(int64_t(a->json()["epsg"]) == 31982);
  CHECK(w.db("select epsg from projeto.variogramas where id = " + id) == "31982");
  const std::string base = "/krigar/" + id + "?idDominioGeografico=" + domain + "&celula=150&nmax=16";

  // The grid is the domain's box in the model's CRS.
  a = get(base, w.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(int64_t(a->json()["epsg"]) == 31982);
  CHECK(double(a->json()["grade"]["origemX"]) ==
        doctest::Approx(std::stod(w.db("select st_xmin(st_transform(geom, 31982)) from projeto.geometrias where id = " +
                                       domain))).epsilon(1e-12));
  CHECK(double(a->json()["grade"]["origemY"]) ==
        doctest::Approx(std::stod(w.db("select st_ymax(st_transform(geom, 31982)) from projeto.geometrias where id = " +
                                       domain))).epsilon(1e-12));

  // Each cell is the library's ordinary kriging of the samples projected into EPSG:31982.
  std::vector<geostat::Sample> samples;
  std::istringstream rows(w.db("select string_agg(st_x(g.geom) || ' ' || st_y(g.geom) || ' ' || v." + w.column("vm2") +
                               ", ' ' order by g.id) from projeto.geometrias g join " + w.table() +
                               " v on v.id = g.id where v." + w.column("vm2") + " is not null"));
  for (double x, y, v; rows >> x >> y >> v;) {
    geom::Point p = geom::transform(geom::Point{x, y}, 4674, 31982);
    samples.push_back({p.x, p.y, v});
  }
  REQUIRE(samples.size() == 49);
  const geostat::Model model{geostat::ModelType::spherical, 10, 5000, 2000};
  geostat::KrigingOptions kriging;
  kriging.nmax = 16;
  a = get(base + "&formato=tiff", w.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(a->content_type == "image/tiff");
  const std::string mem = "/vsimem/krigagem-epsg-do-modelo.tif";
  VSIFCloseL(VSIFileFromMemBuffer(mem.c_str(), reinterpret_cast<GByte*>(a->body.data()), a->body.size(), FALSE));
  {
    Tiff tif(mem);
    CHECK(tif.epsg == "31982");
    int checked = 0;
    for (auto [c, r] : {std::pair{tif.cols / 2, tif.rows / 2}, {tif.cols / 3, tif.rows / 4}, {2 * tif.cols / 3, 3 * tif.rows / 4}}) {
      CAPTURE(c);
      CAPTURE(r);
      if (tif.at(1, c, r) == -9999) continue;  // outside the domain polygon
      auto e = geostat::krige(samples, model, tif.t[0] + (c + 0.5) * tif.t[1], tif.t[3] + (r + 0.5) * tif.t[5], kriging);
      CHECK(tif.at(1, c, r) == doctest::Approx(e.value).epsilon(1e-12));
      CHECK(tif.at(2, c, r) == doctest::Approx(e.variance).epsilon(1e-12));
      ++checked;
    }
    CHECK(checked >= 2);
  }
  VSIUnlink(mem.c_str());

  // Saved: the raster layer's file is in the model's CRS.
  a = get(base + "&salvar=true&nome=K22S", w.owner);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(int64_t(a->json()["epsg"]) == 31982);
  const std::string raster = std::to_string(int64_t(a->json()["idCamada"]));
  CHECK(Tiff(test::files_root() + "/alfa/" + w.db("select arquivo from projeto.camadas where id = " + raster)).epsg ==
        "31982");

  // A zone the samples are too far from (25S: 33° W, 14° away) is refused, named.
  refused(*post("/variogramas", model_body(w, R"(,"epsg":31977)"), w.owner), 400, "parametro_invalido", "epsg");
  refused(*post("/variogramas", model_body(w, R"(,"epsg":31985)"), w.owner), 422, "entidade_improcessavel",
          "amostras: a amostra (geometria");
  refused(*put("/variogramas", R"({"id":)" + id + R"(,"epsg":31985})", w.owner), 422, "entidade_improcessavel",
          "meridiano central (-33°)");
  CHECK(w.db("select count(*) || ' ' || max(epsg) from projeto.variogramas") == "1 31982");
  a = put("/variogramas", R"({"id":)" + id + R"(,"epsg":31983})", w.owner);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(int64_t(a->json()["epsg"]) == 31983);
  a = get(base, w.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(int64_t(a->json()["epsg"]) == 31983);
  // A stored zone the domain lies too far from: 422 before anything is kriged or saved.
  w.db("update projeto.variogramas set epsg = 31985 where id = " + id + " returning 1");
  refused(*get(base + "&salvar=true", w.owner), 422, "entidade_improcessavel", "idDominioGeografico: o domínio");
  CHECK(w.db("select count(*) from projeto.camadas where tipo = 'tiff'") == "1");
}
