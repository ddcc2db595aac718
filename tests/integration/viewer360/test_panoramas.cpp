// Panoramas near features and around a panorama: answers checked against direct metric
// queries on the tenant database, the azimuth checked by hand, and every 4xx.
#include "fixture.hpp"

using namespace cadastre::test;

namespace {

// The nearest panorama of lot `lot` and its distance, by a direct query in metres.
std::string expected_nearest(int lot) {
  return fixture().db(
      "select p.id::text || '|' || round(ST_Distance(p.geom::geography, f.g::geography)::numeric, "
      "2)::text "
      "from cadastro.panorama p, (select ST_PointOnSurface(geom) g from cadastro.lote where id = " +
      std::to_string(lot) +
      ") f order by ST_Distance(p.geom::geography, f.g::geography), p.id limit 1");
}

// Inserts a panorama `metres` from lot `lot`'s point on surface, towards `bearing`
// (degrees from north), with capture height `altura`; returns its id.
std::string panorama_beside_lot(int lot, double metres, double bearing, double altura = 2.5) {
  return fixture().db(
      "insert into cadastro.panorama (capturado_em, heading, altura, imagem_url, geom) select "
      "now(), 0, " +
      std::to_string(altura) +
      ", '/midia/get?file_url=teste.jpg', ST_SetSRID(ST_Project(ST_PointOnSurface(geom)"
      "::geography, " +
      std::to_string(metres) + ", radians(" + std::to_string(bearing) +
      "))::geometry, 4674) from cadastro.lote where id = " + std::to_string(lot) +
      " returning id::text");
}

}  // namespace

TEST_CASE_FIXTURE(
    Fixture,
    "the nearest panorama of a feature is the one nearest in metres to its point on surface") {
  for (int lot : {1, 37, 90}) {
    auto a = viewer("nearest-panorama-from-feature/lote/" + std::to_string(lot));
    REQUIRE_MESSAGE(a->status == 200, a->body);
    auto j = a->json();
    auto pano = j["panorama"];
    std::string expected = expected_nearest(lot);
    std::string got = std::to_string(int64_t(pano["id"])) + "|";
    CHECK(got == expected.substr(0, expected.find('|') + 1));
    CHECK(double(j["distancia_m"]) == doctest::Approx(std::stod(expected.substr(expected.find('|') + 1))));
    CHECK(std::string_view(j["camada"]) == "lote");
    CHECK(std::string_view(j["id"]) == std::to_string(lot));
    CHECK(std::string_view(pano["geometry"]["type"]) == "Point");
    CHECK(std::string_view(pano["imagem_url"]).find("panoramas/") != std::string_view::npos);
    simdjson::dom::element none;
    CHECK(pano["geom"].get(none) != simdjson::SUCCESS);
    CHECK(pano["distancia_m"].get(none) != simdjson::SUCCESS);
    CHECK(j["azimute"].get(none) != simdjson::SUCCESS);
  }
  // Any layer with a geometry: a building, located by its point on surface as well.
  std::string building = db("select min(id)::text from cadastro.edificacao");
  auto b = viewer("nearest-panorama-from-feature/edificacao/" + building);
  REQUIRE_MESSAGE(b->status == 200, b->body);
  CHECK(std::to_string(int64_t(b->json()["panorama"]["id"])) ==
        db("select p.id::text from cadastro.panorama p, (select ST_PointOnSurface(geom) g from cadastro.edificacao "
           "where id = " + building + ") f order by ST_Distance(p.geom::geography, f.g::geography), p.id limit 1"));
}

TEST_CASE_FIXTURE(
    Fixture, "the azimuth is measured clockwise from north, from the panorama to the feature") {
  // A panorama 1 m from the lot's point on surface is nearer than any street panorama.
  struct Case {
    double bearing_from_lot, azimuth;
  };
  for (Case c : {Case{270, 90}, Case{0, 180}, Case{90, 270}}) {
    std::string id = panorama_beside_lot(12, 1, c.bearing_from_lot);
    auto a = viewer("nearest-panorama-and-azimuth/lote/12");
    db("delete from cadastro.panorama where id = " + id + " returning id");
    REQUIRE_MESSAGE(a->status == 200, a->body);
    auto j = a->json();
    CHECK(std::to_string(int64_t(j["panorama"]["id"])) == id);
    CHECK(double(j["distancia_m"]) == doctest::Approx(1).epsilon(0.01));
    CHECK(double(j["azimute"]) == doctest::Approx(c.azimuth).epsilon(0.0002));
  }
  // Against the street panoramas: the azimuth PostGIS gives for the same pair.
  auto a = viewer("nearest-panorama-and-azimuth/lote/37");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  std::string pano = std::to_string(int64_t(a->json()["panorama"]["id"]));
  CHECK(pano == panorama_near_lot(37));
  double expected = std::stod(
      db("select degrees(ST_Azimuth(p.geom::geography, ST_PointOnSurface(l.geom)::geography)) from cadastro.panorama p, "
         "cadastro.lote l where p.id = " + pano + " and l.id = 37"));
  CHECK(double(a->json()["azimute"]) == doctest::Approx(expected).epsilon(1e-4));
}

TEST_CASE_FIXTURE(Fixture,
                  "panoramas in a radius are the ones a direct ST_DWithin query finds, nearest "
                  "first, without the centre") {
  const std::string centre = panorama_near_lot(20);
  auto a = viewer("get-panoramas-in-radius/" + centre + "/150/2.5");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  std::string expected =
      db("select coalesce(string_agg(t.id::text, ',' order by ST_Distance(t.geom::geography, c.geom::geography), t.id), '') "
         "from cadastro.panorama t, cadastro.panorama c where c.id = " + centre + " and t.id <> c.id and "
         "ST_DWithin(t.geom::geography, c.geom::geography, 150) and abs(t.altura - 2.5) <= 1");
  REQUIRE(expected.find(',') != std::string::npos);  // several panoramas: the order is checked
  auto j = a->json();
  CHECK(ids(j["panoramas"]) == expected);
  CHECK(int64_t(j["total"]) == std::count(expected.begin(), expected.end(), ',') + 1);
  auto first = j["panoramas"].at(0);
  CHECK(double(first["distancia_m"]) > 0);
  CHECK(double(first["distancia_m"]) <= 150);
  CHECK(std::string_view(first["geometry"]["type"]) == "Point");

  // ?limit keeps the nearest, the total stays.
  auto two = viewer("get-panoramas-in-radius/" + centre + "/150/2.5?limit=2");
  REQUIRE(two->status == 200);
  CHECK(ids(two->json()["panoramas"]) == expected.substr(0, expected.find(',', expected.find(',') + 1)));
  CHECK(int64_t(two->json()["total"]) == int64_t(j["total"]));
}

TEST_CASE_FIXTURE(Fixture,
                  "height_ref keeps the panoramas captured within one metre of that height") {
  const std::string centre = panorama_near_lot(20);
  std::string high = panorama_beside_lot(20, 3, 45, 8);  // a drone shot 8 m up, near the centre
  auto street = viewer("get-panoramas-in-radius/" + centre + "/100/2.5");
  auto drone = viewer("get-panoramas-in-radius/" + centre + "/100/8.4");
  auto edge = viewer("get-panoramas-in-radius/" + centre + "/100/3.5");
  db("delete from cadastro.panorama where id = " + high + " returning id");
  REQUIRE(street->status == 200);
  REQUIRE(drone->status == 200);
  REQUIRE(edge->status == 200);
  CHECK(("," + ids(street->json()["panoramas"]) + ",").find("," + high + ",") == std::string::npos);
  CHECK(ids(drone->json()["panoramas"]) == high);
  CHECK(double(drone->json()["height_ref"]) == 8.4);
  // |2.5 − 3.5| = 1: the street panoramas are still in; the 8 m one is not.
  CHECK(ids(edge->json()["panoramas"]) == ids(street->json()["panoramas"]));
}

TEST_CASE_FIXTURE(
    Fixture, "property units in a radius are those whose lot lies within it, nearest lot first") {
  const std::string centre = panorama_near_lot(1);
  auto a = viewer("get-imobiliarios-in-radius/" + centre + "/80");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  std::string expected = db(
      "select coalesce(string_agg(u.id::text, ',' order by ST_Distance(l.geom::geography, c.geom::geography), u.id), '') "
      "from cadastro.imobiliario u join cadastro.lote l on l.id = u.lote_id, cadastro.panorama c where c.id = " +
      centre + " and ST_DWithin(l.geom::geography, c.geom::geography, 80)");
  REQUIRE(expected.find(',') != std::string::npos);
  auto j = a->json();
  CHECK(ids(j["unidades"]) == expected);
  auto first = j["unidades"].at(0);
  CHECK(std::string_view(first["type"]) == "Feature");
  CHECK(std::string_view(first["geometry"]["type"]) == "Point");
  CHECK(std::string(std::string_view(first["properties"]["inscricao_cartografica"])) ==
        db("select inscricao_cartografica from cadastro.imobiliario where id = " + std::to_string(int64_t(first["id"]))));
  CHECK(double(first["properties"]["distancia_m"]) <= 80);
  auto one = viewer("get-imobiliarios-in-radius/" + centre + "/80?limit=1");
  REQUIRE(one->status == 200);
  CHECK(ids(one->json()["unidades"]) == expected.substr(0, expected.find(',')));
}

TEST_CASE_FIXTURE(
    Fixture,
    "panorama routes refuse bad numbers, unknown or geometry-less layers and missing records") {
  const std::string centre = panorama_near_lot(1);
  for (std::string bad : {"0", "-5", "abc", "5000.5", "1e9", "nan", "inf", "12m", "+3"}) {
    auto a = viewer("get-panoramas-in-radius/" + centre + "/" + bad + "/2.5");
    CHECK_MESSAGE(a->status == 400, bad);
    CHECK(viewer("get-imobiliarios-in-radius/" + centre + "/" + bad)->status == 400);
  }
  CHECK(viewer("get-panoramas-in-radius/" + centre + "/5000/2.5")->status == 200);
  for (std::string bad : {"-1", "x", "1001"}) CHECK(viewer("get-panoramas-in-radius/" + centre + "/50/" + bad)->status == 400);
  CHECK(viewer("get-panoramas-in-radius/" + centre + "/50/0")->status == 200);
  for (std::string bad : {"0", "1001", "x"})
    CHECK(viewer("get-panoramas-in-radius/" + centre + "/50/2.5?limit=" + bad)->status == 400);
  CHECK(viewer("get-panoramas-in-radius/abc/50/2.5")->status == 400);
  auto missing = viewer("get-panoramas-in-radius/999999/50/2.5");
  CHECK(missing->status == 404);
  CHECK(missing->codigo() == "nao_encontrado");
  CHECK(viewer("get-imobiliarios-in-radius/999999/50")->status == 404);

  for (const char* route : {"nearest-panorama-from-feature/", "nearest-panorama-and-azimuth/"}) {
    const std::string r = route;
    auto unknown = viewer(r + "nada/1");
    CHECK(unknown->status == 404);
    CHECK(unknown->codigo() == "camada_nao_encontrada");
    auto hostile = viewer(r + "lote%3Bdrop%20table%20x/1");
    CHECK(hostile->status == 400);
    CHECK(hostile->codigo() == "identificador_invalido");
    CHECK(viewer(r + "imobiliario/1")->status == 400);  // no geometry
    CHECK(viewer(r + "lote/abc")->status == 400);
    CHECK(viewer(r + "lote/1%20or%201=1")->status == 400);
    auto gone = viewer(r + "lote/999999");
    CHECK(gone->status == 404);
    CHECK(gone->codigo() == "nao_encontrado");
  }
}

TEST_CASE_FIXTURE(Fixture,
                  "panorama routes need read permission on panorama and on the layers they read, "
                  "and the caller's tenant") {
  auto lots_only = city().add_user("alfa", "v360-so-lote@alfa.gov.br", {"lote:r", "imobiliario:r"});
  const std::string centre = panorama_near_lot(1);
  auto denied = viewer("nearest-panorama-from-feature/lote/1", lots_only.token);
  CHECK(denied->status == 403);
  CHECK(denied->codigo() == "acesso_negado");
  CHECK(viewer("nearest-panorama-and-azimuth/lote/1", lots_only.token)->status == 403);
  CHECK(viewer("get-panoramas-in-radius/" + centre + "/50/2.5", lots_only.token)->status == 403);

  auto panoramas_only = city().add_user("alfa", "v360-so-panorama@alfa.gov.br", {"panorama:r"});
  CHECK(viewer("get-panoramas-in-radius/" + centre + "/50/2.5", panoramas_only.token)->status == 200);
  CHECK(viewer("get-imobiliarios-in-radius/" + centre + "/50", panoramas_only.token)->status == 403);
  CHECK(viewer("nearest-panorama-from-feature/lote/1", panoramas_only.token)->status == 403);

  const std::string beta = city().user("beta").token;
  auto other = viewer("nearest-panorama-from-feature/lote/1", beta);
  CHECK(other->status == 403);
  CHECK(other->codigo() == "municipio_nao_permitido");
  auto cli = city().client();
  CHECK(cli.Get("/visualizador360/alfa/nearest-panorama-from-feature/lote/1")->status == 401);
  // Tenant beta has the same layers and no data: its own lot 1 does not exist.
  auto empty = request("GET", "/visualizador360/beta/nearest-panorama-from-feature/lote/1",
                       Stack::bearer(beta));
  CHECK(empty->status == 404);
}
