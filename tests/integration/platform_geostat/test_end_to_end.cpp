// Samples → GET /variogramas/automatico → POST /variogramas → GET /krigar (saved as a raster
// layer) → POST /gerarPVGEO → the cadastre server's /portal/{m}/avaliacao/* of a lot: its
// block face's unit value, and so its land value and IPTU, are the new value map's.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cadastre/geostat.hpp"

#include "samples.hpp"

using namespace cadastre;
using test::GeostatFixture;
using test::Samples;

namespace {

// A unit of the demo city whose lot has a block face: {unit id, face id}.
std::pair<std::string, std::string> some_unit(const Samples& w) {
  return {w.db("select i.id from cadastro.imobiliario i join cadastro.lote l on l.id = i.lote_id "
               "where l.face_quadra_id is not null order by i.id limit 1"),
          w.db("select l.face_quadra_id from cadastro.imobiliario i join cadastro.lote l on l.id = i.lote_id "
               "where l.face_quadra_id is not null order by i.id limit 1")};
}

}  // namespace

TEST_CASE_FIXTURE(GeostatFixture, "a kriged value map becomes the block faces' unit values and changes the IPTU") {
  Samples w(*this);
  const std::string layer = Samples::n(w.layer), vm2 = Samples::n(w.field.at("vm2")),
                    usar = Samples::n(w.field.at("usar"));

  // 1. The automatic fit on ln(vm2) of the samples marked "usar".
  auto a = get("/variogramas/automatico?idcamada=" + layer + "&idvm2=" + vm2 + "&idChk=" + usar + "&log=true", w.owner);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(int64_t(a->json()["amostras"]) == 45);  // 49 minus the 4 with usar = false (k = 9, 19, 29, 39)
  CHECK(bool(a->json()["log"]));
  CHECK(int64_t(a->json()["epsg"]) >= 31978);
  CHECK(a->json()["bins"].get_array().size() >= 3);
  std::string best(std::string_view(a->json()["melhor"]));
  simdjson::dom::element chosen;
  for (auto m : a->json()["modelos"].get_array())
    if (std::string_view(m["tipo"]) == best) chosen = m;
  REQUIRE(chosen.is_object());
  const double nugget = double(chosen["pepita"]), psill = double(chosen["contribuicao"]),
               range = double(chosen["alcance"]);
  CHECK(psill > 0);
  CHECK(range > 0);

  // 2. The chosen model stored in the project.
  auto body = R"({"nome":"ln vm2","tipo":")" + best + R"(","pepita":)" + std::to_string(nugget) +
              R"(,"contribuicao":)" + std::to_string(psill) + R"(,"alcance":)" + std::to_string(range) +
              R"(,"log":true,"idCamada":)" + layer + R"(,"idCampo":)" + vm2 + R"(,"idCampoChk":)" + usar + "}";
  a = post("/variogramas", body, w.owner);
  REQUIRE_MESSAGE(a->status == 201, a->body);
  const std::string variogram = std::to_string(int64_t(a->json()["id"]));

  // 3. Kriging over the domain polygon, saved as a raster layer of the project.
  a = get("/krigar/" + variogram + "?idDominioGeografico=" + Samples::n(w.domain) + "&salvar=true&nome=PVG", w.owner);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  const double cell = double(a->json()["grade"]["celula"]), ox = double(a->json()["grade"]["origemX"]),
               oy = double(a->json()["grade"]["origemY"]);
  const std::int64_t raster = int64_t(a->json()["idCamada"]);
  CHECK(int64_t(a->json()["celulasEstimadas"]) > 1000);
  CHECK(double(a->json()["minimo"]) > 150);   // the samples go from about 185 to 615
  CHECK(double(a->json()["maximo"]) < 700);
  CHECK(w.db("select tipo || ' ' || nome || ' ' || projeto_id from projeto.camadas where id = " +
             Samples::n(raster)) == "tiff PVG " + Samples::n(w.project));
  std::string file = w.db("select arquivo from projeto.camadas where id = " + Samples::n(raster));
  std::ifstream tif(test::files_root() + "/alfa/" + file, std::ios::binary);
  std::string magic(4, '\0');
  tif.read(magic.data(), 4);
  CHECK(magic == std::string("II*\0", 4));
  // A raster layer like an imported one: its extent and a styled window are served.
  CHECK(get("/camadas/tiff/" + Samples::n(raster) + "/extent", w.reader)->status == 200);
  std::string bbox = w.db("select concat_ws(',', st_xmin(extensao), st_ymin(extensao), st_xmax(extensao), "
                          "st_ymax(extensao)) from projeto.camadas where id = " + Samples::n(raster));
  auto png = get("/estilizarRaster/" + Samples::n(raster) + "?bbox=" + bbox, w.reader);
  CHECK_MESSAGE(png->status == 200, png->body);
  CHECK(png->content_type == "image/png");

  // 4. The IPTU of a unit before the new value map.
  auto [unit, face] = some_unit(w);
  const std::string old_value = w.db("select valor_m2 from cadastro.face_quadra where id = " + face);
  auto portal = [&](const std::string& what) {
    auto r = test::call(*stack, "GET", "/portal/alfa/avaliacao/" + what + "?id=" + unit,
                        test::Stack::bearer(stack->user("alfa").token));
    REQUIRE_MESSAGE(r->status == 200, r->body);
    return r;
  };
  const double land_before = double(portal("terreno")->json()["avaliacao"]["valor"]);
  const std::string iptu_before = simdjson::minify(portal("iptu")->json()["avaliacao"]);

  // 5. The value map from the raster: a new version, the first one keeping the old map.
  a = post("/gerarPVGEO", R"({"idCamadaRaster":)" + Samples::n(raster) + R"(,"descricao":"krigagem 2026"})", w.owner);
  REQUIRE_MESSAGE(a->status == 201, a->body);
  CHECK(int64_t(a->json()["versao"]["numero"]) == 2);
  CHECK(std::string_view(a->json()["versao"]["origem"]) == "krigagem");
  CHECK(int64_t(a->json()["facesComValor"]) == int64_t(a->json()["faces"]));
  CHECK(w.db("select count(*) from avaliacao.pvg_versoes") == "2");
  CHECK(w.db("select v.valor_m2 from avaliacao.pvg_valores v join avaliacao.pvg_versoes x on x.id = v.versao_id "
             "where x.numero = 1 and v.face_quadra_id = " + face) == old_value);
  const std::string new_value = w.db("select valor_m2 from cadastro.face_quadra where id = " + face);
  CHECK(w.db("select v.valor_m2 from avaliacao.pvg_valores v join avaliacao.pvg_versoes x on x.id = v.versao_id "
             "where x.numero = 2 and v.face_quadra_id = " + face) == new_value);
  CHECK(new_value != old_value);
  CHECK(std::stod(new_value) > 150);
  CHECK(std::stod(new_value) < 700);

  // The face's value is the lognormal kriging estimate of the raster cell under its midpoint,
  // as the library computes it from the same samples (ln vm2, UTM, nmax 32).
  {
    std::vector<geostat::Sample> lonlat;
    std::istringstream rows(w.db(
        "select string_agg(st_x(g.geom) || ' ' || st_y(g.geom) || ' ' || v." + w.column("vm2") + ", ' ' order by g.id) "
        "from projeto.geometrias g join " + w.table() + " v on v.id = g.id where v." + w.column("vm2") +
        " is not null and v." + w.column("usar")));
    for (double x, y, v; rows >> x >> y >> v;) lonlat.push_back({x, y, std::log(v)});
    auto projected = geostat::project_to_utm(lonlat);
    std::istringstream mid(w.db("select st_x(p) || ' ' || st_y(p) from (select st_transform(st_lineinterpolatepoint("
                                "geom, 0.5), " + std::to_string(projected.epsg) +
                                ") p from cadastro.face_quadra where id = " + face + ") q"));
    double mx = 0, my = 0;
    mid >> mx >> my;
    double cx = ox + (std::floor((mx - ox) / cell) + 0.5) * cell, cy = oy - (std::floor((oy - my) / cell) + 0.5) * cell;
    geostat::KrigingOptions kriging;
    kriging.nmax = 32;
    geostat::Model model{best == "esferico" ? geostat::ModelType::spherical
                         : best == "exponencial" ? geostat::ModelType::exponential
                                                 : geostat::ModelType::gaussian,
                         std::stod(std::to_string(nugget)), std::stod(std::to_string(psill)),
                         std::stod(std::to_string(range))};
    auto expected = geostat::lognormal_back_transform(geostat::krige(projected.samples, model, cx, cy, kriging));
    CHECK(std::stod(new_value) == doctest::Approx(expected.value).epsilon(1e-4));
  }

  // 6. The cadastre server values the lot with the new unit value, at once (it reads the
  //    face's valor_m2 on every request: no cache to reload).
  const double land_after = double(portal("terreno")->json()["avaliacao"]["valor"]);
  CHECK(land_after / land_before == doctest::Approx(std::stod(new_value) / std::stod(old_value)).epsilon(1e-9));
  CHECK(simdjson::minify(portal("iptu")->json()["avaliacao"]) != iptu_before);

  // 7. A second generation keeps the first: version 3, version 2 intact.
  a = post("/gerarPVGEO", R"({"idCamadaRaster":)" + Samples::n(raster) + "}", w.owner);
  REQUIRE_MESSAGE(a->status == 201, a->body);
  CHECK(int64_t(a->json()["versao"]["numero"]) == 3);
  CHECK(int64_t(a->json()["versao"]["facesAlteradas"]) == 0);
  CHECK(w.db("select count(distinct versao_id) from avaliacao.pvg_valores") == "3");
}
