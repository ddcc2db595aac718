// /rlm, /rlm/final, /rlm/grafico and /rlm/:idModelo: the fit over a layer's samples, the
// stored model, its plots and its estimates written into a field.
#include <array>
#include <cmath>
#include <vector>

#include <cpl_vsi.h>
#include <gdal.h>

#include "samples.hpp"

namespace {

using Rgb = std::array<int, 3>;

// A PNG's pixels as GDAL decodes them (RGB).
struct Pixels {
  int width = 0, height = 0;
  std::vector<unsigned char> bands[3];
  Rgb at(int x, int y) const {
    const std::size_t i = static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x);
    return {bands[0][i], bands[1][i], bands[2][i]};
  }
  std::size_t count(Rgb c) const {
    std::size_t n = 0;
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) n += at(x, y) == c;
    return n;
  }
  // Pixels of colour c closer than `margin` to an edge.
  std::size_t count_outside(int margin, Rgb c) const {
    std::size_t n = 0;
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x)
        if ((x < margin || y < margin || x >= width - margin || y >= height - margin) && at(x, y) == c) ++n;
    return n;
  }
};

Pixels decode_png(const std::string& png) {
  GDALAllRegister();
  const std::string name = "/vsimem/rlm-grafico.png";
  VSIFCloseL(VSIFileFromMemBuffer(name.c_str(), reinterpret_cast<GByte*>(const_cast<char*>(png.data())), png.size(), FALSE));
  Pixels out;
  GDALDatasetH ds = GDALOpen(name.c_str(), GA_ReadOnly);
  REQUIRE(ds);
  REQUIRE(GDALGetRasterCount(ds) >= 3);
  out.width = GDALGetRasterXSize(ds), out.height = GDALGetRasterYSize(ds);
  for (int b = 0; b < 3; ++b) {
    out.bands[b].resize(static_cast<std::size_t>(out.width) * static_cast<std::size_t>(out.height));
    REQUIRE(GDALRasterIO(GDALGetRasterBand(ds, b + 1), GF_Read, 0, 0, out.width, out.height, out.bands[b].data(),
                         out.width, out.height, GDT_Byte, 0, 0) == CE_None);
  }
  GDALClose(ds);
  VSIUnlink(name.c_str());
  return out;
}

}  // namespace

using namespace cadastre;
using test::GeostatFixture;
using test::refused;
using test::Samples;

TEST_CASE_FIXTURE(GeostatFixture, "a regression over the samples recovers the coefficients and grades the model") {
  Samples w(*this);
  auto a = post("/rlm", w.fit_body(), w.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto r = a->json();
  CHECK(int64_t(r["n"]) == 49);
  CHECK(int64_t(r["k"]) == 2);
  auto c = r["coeficientes"];
  CHECK(std::string_view(c.at(0)["nome"]) == "intercepto");
  CHECK(std::string_view(c.at(1)["nome"]) == "area");
  // preco = 50000 + 800·area + 3000·frente + 5000·sin(2.3k): the noise is small.
  CHECK(double(c.at(1)["estimativa"]) == doctest::Approx(800).epsilon(0.05));
  CHECK(double(c.at(2)["estimativa"]) == doctest::Approx(3000).epsilon(0.15));
  CHECK(double(c.at(1)["p"]) < 1e-6);
  CHECK(double(r["r2"]) > 0.99);
  CHECK(double(r["r2Ajustado"]) <= double(r["r2"]));
  CHECK(double(r["pF"]) < 1e-6);
  CHECK(r["residuos"].get_array().size() == 49);
  auto first = r["residuos"].at(0);
  CHECK(double(first["intervaloPredicao"].at(0)) < double(first["estimado"]));
  CHECK(double(first["intervaloPredicao"].at(1)) > double(first["estimado"]));
  // 49 samples, k = 2: n ≥ 6(k+1) = 18, regressors and F far below 1%: grade III.
  CHECK(int64_t(r["fundamentacao"]["grau"]) == 3);
  CHECK(int64_t(r["precisao"]["grau"]) == 3);
  CHECK(std::string_view(r["precisao"]["criterio"]) == "amplitude_IC80");
  CHECK(bool(r["estudoRazao"]["mediana"]["aprovado"]));

  // Transforms and the check field.
  a = post("/rlm", R"({"idCamada":)" + Samples::n(w.layer) + R"(,"idChk":)" + Samples::n(w.field.at("usar")) +
                       R"(,"dependente":{"idCampo":)" + Samples::n(w.field.at("preco")) +
                       R"(,"transformacao":"ln"},"independentes":[{"idCampo":)" + Samples::n(w.field.at("area")) +
                       R"(,"transformacao":"raiz"}]})",
           w.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(int64_t(a->json()["n"]) == 45);
  CHECK(std::string_view(a->json()["dependente"]["transformacao"]) == "ln");

  // Refusals.
  refused(*request("POST", "/rlm", {}, w.fit_body()), 401, "nao_autenticado");
  refused(*post("/rlm", w.fit_body(), w.stranger), 404, "nao_encontrado");
  refused(*post("/rlm", w.fit_body(), w.other_tenant), 404, "nao_encontrado");
  refused(*post("/rlm", R"({"idCamada":)" + Samples::n(w.layer) + R"(,"dependente":{"idCampo":)" +
                            Samples::n(w.field.at("nome")) + R"(},"independentes":[{"idCampo":)" +
                            Samples::n(w.field.at("area")) + "}]}",
                w.owner),
          400, "parametro_invalido", "dependente.idCampo");
  refused(*post("/rlm", w.fit_body(R"(,"nivel":2)"), w.owner), 400, "parametro_invalido", "nivel");
  refused(*post("/rlm", R"({"idCamada":)" + Samples::n(w.layer) + R"(,"dependente":{"idCampo":)" +
                            Samples::n(w.field.at("preco")) + R"(,"transformacao":"cubo"},"independentes":[]})",
                w.owner),
          400, "parametro_invalido", "dependente.transformacao");
  refused(*post("/rlm", R"({"idCamada":"1;drop"})", w.owner), 400, "parametro_invalido", "idCamada");
  refused(*post("/rlm", R"({"idCamada":)" + Samples::n(w.layer) + R"(,"dependente":{"idCampo":)" +
                            Samples::n(w.field.at("preco")) + R"(},"independentes":[{"idCampo":)" +
                            Samples::n(w.field.at("preco")) + "}]}",
                w.owner),
          400, "parametro_invalido", "independentes[0].idCampo");
}

TEST_CASE_FIXTURE(GeostatFixture, "a chosen model is stored, plotted and applied to a layer") {
  Samples w(*this);
  refused(*post("/rlm/final", w.fit_body(R"(,"nome":"preço")"), w.reader), 403, "acesso_negado");
  refused(*post("/rlm/final", w.fit_body(R"(,"nome":"preço")"), w.editor), 403, "acesso_negado");
  refused(*post("/rlm/final", w.fit_body(), w.owner), 400, "campo_obrigatorio", "nome");
  auto a = post("/rlm/final", w.fit_body(R"(,"nome":"preço")"), w.owner);
  REQUIRE_MESSAGE(a->status == 201, a->body);
  const std::string model = std::to_string(int64_t(a->json()["id"]));
  CHECK(std::string_view(a->json()["nome"]) == "preço");
  CHECK(a->json()["coeficientes"].get_array().size() == 3);
  CHECK(w.db("select count(*) from projeto.modelo_amostras where modelo_id = " + model) == "49");
  CHECK(w.db("select projeto_id from projeto.modelos_avaliacao where id = " + model) == Samples::n(w.project));

  // Plots: PNG and SVG of each kind.
  for (const char* kind : {"residuos", "observado_ajustado", "qq"}) {
    CAPTURE(kind);
    a = post("/rlm/grafico", w.fit_body(std::string(R"(,"tipo":")") + kind + "\""), w.reader);
    REQUIRE_MESSAGE(a->status == 200, a->body);
    CHECK(a->content_type == "image/png");
    CHECK(a->body.substr(0, 8) == "\x89PNG\r\n\x1a\n");
    test::save_output(std::string("rlm-") + kind + ".png", a->body);
    // The drawing itself (plot.cpp: 48 px margins, black axes, red reference line, steel
    // blue points of 21 px each): decoded and its pixels counted.
    Pixels px = decode_png(a->body);
    REQUIRE(px.width == 640);
    REQUIRE(px.height == 480);
    CHECK(px.at(48 + 100, 480 - 48) == Rgb{0, 0, 0});   // the x axis
    CHECK(px.at(48, 48 + 100) == Rgb{0, 0, 0});         // the y axis
    CHECK(px.at(5, 5) == Rgb{255, 255, 255});           // the background
    CHECK(px.count({220, 0, 0}) > 300);                 // the reference line, across the plot
    const std::size_t points = px.count({70, 130, 180});
    CHECK_MESSAGE(points > 49 * 8, points);             // 49 samples, overlapping markers
    CHECK(points < 49 * 21 + 1);
    CHECK(px.count_outside(48 - 3, {70, 130, 180}) == 0);  // nothing drawn in the margins
    a = post("/rlm/grafico", w.fit_body(std::string(R"(,"tipo":")") + kind + R"(","formato":"svg","largura":400)"),
             w.reader);
    REQUIRE_MESSAGE(a->status == 200, a->body);
    CHECK(a->content_type == "image/svg+xml");
    CHECK(a->body.find("<svg") == 0);
    CHECK(a->body.find("width=\"400\"") != std::string::npos);
    test::save_output(std::string("rlm-") + kind + ".svg", a->body);
  }
  refused(*post("/rlm/grafico", w.fit_body(R"(,"tipo":"pizza")"), w.reader), 400, "parametro_invalido", "tipo");
  refused(*post("/rlm/grafico", w.fit_body(R"(,"formato":"gif")"), w.reader), 400, "parametro_invalido", "formato");
  refused(*post("/rlm/grafico", w.fit_body(R"(,"largura":10)"), w.reader), 400, "parametro_invalido", "largura");

  // Applied to the layer: the estimate of each sample written into "estimado", through the
  // values' own write, so a calculated field reading it follows.
  const std::string destino = Samples::n(w.field.at("estimado"));
  const std::string dobro = w.db("insert into projeto.campos (formulario_id, nome, chave, tipo, formula, ordem) "
                                 "values (" + Samples::n(w.form) + ", 'Dobro', 'dobro', 'calculado', "
                                 "'estimado * 2', 99) returning id");
  const std::string apply = R"({"idCamada":)" + Samples::n(w.layer) + R"(,"idCampoDestino":)" + destino + "}";
  refused(*post("/rlm/" + model, apply, w.reader), 403, "acesso_negado");
  a = post("/rlm/" + model, apply, w.editor);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(int64_t(a->json()["estimados"]) == 49);
  const std::string estimado = w.column("estimado"), dobro_column = "c_" + dobro;
  CHECK(w.db("select count(*) from " + w.table() + " where " + estimado + " is not null") == "49");
  CHECK(w.db("select count(*) from projeto.valores_auditoria where campo_id = " + destino) == "49");
  // The written estimate is the model's: intercept + b1·area + b2·frente.
  auto est = a->json()["valores"].at(0);
  CHECK(std::stod(w.db("select " + estimado + " from " + w.table() + " where id = " +
                       std::to_string(int64_t(est["idGeometria"])))) ==
        doctest::Approx(double(est["estimativa"])).epsilon(1e-9));
  CHECK(w.db("select count(*) from " + w.table() + " where abs(" + dobro_column + " - " + estimado + " * 2) < 1e-6") ==
        "49");
  // Answered only (leitura): nothing written.
  a = post("/rlm/" + model, R"({"idCamada":)" + Samples::n(w.layer) + "}", w.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(a->json()["idCampoDestino"].is_null());
  refused(*post("/rlm/" + model, R"({"idCamada":)" + Samples::n(w.layer) + R"(,"idCampoDestino":)" +
                                      Samples::n(w.field.at("nome")) + "}",
                w.owner),
          400, "parametro_invalido", "idCampoDestino");
  refused(*post("/rlm/" + model, R"({"idCamada":)" + Samples::n(w.domain_layer) + "}", w.owner), 400,
          "parametro_invalido", "campos.area");
  refused(*post("/rlm/abc", apply, w.owner), 400, "parametro_invalido", "idModelo");
  refused(*post("/rlm/999999", apply, w.owner), 404, "nao_encontrado");
  refused(*post("/rlm/" + model, apply, w.stranger), 404, "nao_encontrado");
  refused(*post("/rlm/" + model, apply, w.other_tenant), 404, "nao_encontrado");
  refused(*request("POST", "/rlm/" + model, {}, apply), 401, "nao_autenticado");
}

TEST_CASE_FIXTURE(GeostatFixture, "a stored model's plots are drawn from its stored fit, byte for byte its fit body's") {
  Samples w(*this);
  auto a = post("/rlm/final", w.fit_body(R"(,"nome":"preço")"), w.owner);
  REQUIRE_MESSAGE(a->status == 201, a->body);
  const std::string model = std::to_string(int64_t(a->json()["id"]));
  auto by_model = [&](const std::string& extra, const test::Session& who) {
    return post("/rlm/grafico", R"({"idModelo":)" + model + extra + "}", who);
  };
  auto count = [](const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };

  // The same points as the fit that was stored: the images are identical (both are drawn
  // from the same doubles, read back exactly from the store).
  std::string residuals_svg;
  for (const char* kind : {"residuos", "observado_ajustado", "qq"}) {
    CAPTURE(kind);
    const std::string tipo = std::string(R"(,"tipo":")") + kind + "\"";
    auto fitted = post("/rlm/grafico", w.fit_body(tipo), w.reader);
    auto stored = by_model(tipo, w.reader);
    REQUIRE_MESSAGE(fitted->status == 200, fitted->body);
    REQUIRE_MESSAGE(stored->status == 200, stored->body);
    CHECK(stored->content_type == "image/png");
    CHECK(stored->body.substr(0, 8) == "\x89PNG\r\n\x1a\n");
    CHECK(stored->body == fitted->body);
    test::save_output(std::string("rlm-modelo-") + kind + ".png", stored->body);

    const std::string svg = tipo + R"(,"formato":"svg","largura":500,"altura":300)";
    fitted = post("/rlm/grafico", w.fit_body(svg), w.reader);
    stored = by_model(svg, w.reader);
    REQUIRE_MESSAGE(stored->status == 200, stored->body);
    CHECK(stored->content_type == "image/svg+xml");
    CHECK(stored->body.find(R"(<svg xmlns="http://www.w3.org/2000/svg" width="500" height="300")") == 0);
    CHECK(count(stored->body, "<circle") == 49);  // one point per sample of the model
    CHECK(stored->body == fitted->body);
    if (std::string_view(kind) == "residuos") {
      CHECK(stored->body.find("Resíduos padronizados × valores ajustados") != std::string::npos);
      residuals_svg = stored->body;
    }
  }

  // The stored fit, not the layer as it is now: a sample's price changed moves the fit
  // body's plot, not the model's.
  w.db("update " + w.table() + " set " + w.column("preco") + " = " + w.column("preco") + " * 3 where id = " +
       Samples::n(w.first_sample()) + " returning 1");
  const std::string svg = R"(,"tipo":"residuos","formato":"svg","largura":500,"altura":300)";
  a = by_model(svg, w.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(a->body == residuals_svg);
  a = post("/rlm/grafico", w.fit_body(svg), w.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(a->body != residuals_svg);

  // A model id and a fit body together: 400 naming the fit member; bad members named.
  refused(*post("/rlm/grafico", w.fit_body(R"(,"idModelo":)" + model), w.reader), 400, "parametro_invalido",
          "idCamada");
  refused(*by_model(R"(,"nivel":0.9)", w.reader), 400, "parametro_invalido", "nivel");
  refused(*by_model(R"(,"independentes":[])", w.reader), 400, "parametro_invalido", "independentes");
  refused(*by_model(R"(,"extra":1)", w.reader), 400, "campo_desconhecido", "extra");
  refused(*by_model(R"(,"tipo":"pizza")", w.reader), 400, "parametro_invalido", "tipo");
  refused(*by_model(R"(,"formato":"gif")", w.reader), 400, "parametro_invalido", "formato");
  refused(*by_model(R"(,"altura":5000)", w.reader), 400, "parametro_invalido", "altura");
  refused(*post("/rlm/grafico", R"({"idModelo":"1;drop"})", w.reader), 400, "parametro_invalido", "idModelo");
  refused(*post("/rlm/grafico", R"({"idModelo":0})", w.reader), 400, "parametro_invalido", "idModelo");

  // Who may see it: leitura on the model's project and layer, checked by the guard.
  refused(*post("/rlm/grafico", R"({"idModelo":999999})", w.owner), 404, "nao_encontrado");
  refused(*by_model("", w.stranger), 404, "nao_encontrado");
  refused(*by_model("", w.other_tenant), 404, "nao_encontrado");
  refused(*request("POST", "/rlm/grafico", {}, R"({"idModelo":)" + model + "}"), 401, "nao_autenticado");
  w.db("update projeto.camadas set privada = true where id = " + Samples::n(w.layer) + " returning 1");
  refused(*by_model("", w.reader), 404, "nao_encontrado");  // sees the project, not the private layer's samples
  CHECK(by_model("", w.owner)->status == 200);
  w.db("insert into projeto.camada_usuarios (camada_id, usuario_id, direito, concedido_por) values (" +
       Samples::n(w.layer) + ", " + Samples::n(w.reader.user_id) + ", 'leitura', " + Samples::n(w.owner.user_id) +
       ") returning 1");
  a = by_model("", w.reader);
  CHECK_MESSAGE(a->status == 200, a->body);
  CHECK(a->content_type == "image/png");
}
