// GET /caracterizacao/{municipio}/nearest-features/...: the `limit` nearest features of a
// layer to a feature of another, checked against a direct metric query.
#include "fixture.hpp"

using namespace cadastre::test;

namespace {

// Ids of the `limit` records of `interest` nearest in metres to record `id` of `reference`.
std::string expected(const std::string& reference, const std::string& id, const std::string& interest, int limit) {
  return fixture().db(
      "select string_agg(id::text, ',' order by d, id) from (select t.id, "
      "ST_Distance(t.geom::geography, "
      "r.geom::geography) d from cadastro." +
      interest + " t, cadastro." + reference + " r where r.id = " + id +
      (reference == interest ? " and t.id <> r.id" : "") + " order by d, t.id limit " +
      std::to_string(limit) + ") x");
}

}  // namespace

TEST_CASE_FIXTURE(Fixture,
                  "nearest features are the ones nearest in metres, ordered, with their distance") {
  struct Case {
    std::string reference, id, interest;
    int limit;
  };
  for (const Case& c : {Case{"lote", "10", "lote", 8}, Case{"lote", "10", "edificacao", 5}, Case{"panorama", "40", "lote", 12},
                        Case{"edificacao", "3", "panorama", 3}, Case{"lote", "77", "quadra", 100}}) {
    auto a = carac("nearest-features/" + c.reference + "/" + c.id + "/" + c.interest + "/" + std::to_string(c.limit));
    REQUIRE_MESSAGE(a->status == 200, a->body);
    CHECK(a->content_type.find("application/geo+json") == 0);
    auto j = a->json();
    CHECK_MESSAGE(ids(j["features"]) == expected(c.reference, c.id, c.interest, c.limit), c.reference << "→" << c.interest);
    CHECK(std::string_view(j["type"]) == "FeatureCollection");
    CHECK(std::string_view(j["referencia"]["camada"]) == c.reference);
    CHECK(int64_t(j["limite"]) == c.limit);
    double last = -1;
    int64_t rank = 0;
    for (auto f : j["features"].get_array()) {
      double d = double(f["properties"]["distancia_m"]);
      CHECK(d >= last);
      last = d;
      CHECK(int64_t(f["properties"]["ordem"]) == ++rank);
    }
  }
  // The reference itself is left out of its own layer; distances match PostGIS.
  auto a = carac("nearest-features/lote/10/lote/3");
  REQUIRE(a->status == 200);
  auto first = a->json()["features"].at(0);
  CHECK(int64_t(first["id"]) != 10);
  CHECK(double(first["properties"]["distancia_m"]) ==
        doctest::Approx(std::stod(db("select round(ST_Distance(t.geom::geography, r.geom::geography)::numeric, 2) from "
                                     "cadastro.lote t, cadastro.lote r where r.id = 10 and t.id = " +
                                     std::to_string(int64_t(first["id"]))))));
  CHECK(std::string_view(first["geometry"]["type"]) == "MultiPolygon");
}

TEST_CASE_FIXTURE(Fixture,
                  "nearest-features refuses bad limits, unknown layers and missing references") {
  for (std::string bad : {"0", "101", "abc", "-1", "5.5", "1%20or%201=1"}) {
    auto a = carac("nearest-features/lote/10/lote/" + bad);
    CHECK_MESSAGE(a->status == 400, bad);
    CHECK(a->codigo() == "parametro_invalido");
  }
  CHECK(carac("nearest-features/lote/10/lote/100")->status == 200);
  auto unknown = carac("nearest-features/lote/10/nada/5");
  CHECK(unknown->status == 404);
  CHECK(unknown->codigo() == "camada_nao_encontrada");
  CHECK(carac("nearest-features/nada/10/lote/5")->status == 404);
  CHECK(carac("nearest-features/lote%3Bselect/10/lote/5")->status == 400);
  CHECK(carac("nearest-features/lote/10/imobiliario/5")->status == 400);  // no geometry
  CHECK(carac("nearest-features/lote/abc/lote/5")->status == 400);
  auto missing = carac("nearest-features/lote/999999/lote/5");
  CHECK(missing->status == 404);
  CHECK(missing->codigo() == "nao_encontrado");
}

TEST_CASE_FIXTURE(Fixture,
                  "nearest-features needs read permission on both layers and the caller's tenant") {
  auto lots = city().add_user("alfa", "carac-so-lote@alfa.gov.br", {"lote:r"});
  CHECK(carac("nearest-features/lote/10/lote/5", lots.token)->status == 200);
  auto denied = carac("nearest-features/lote/10/edificacao/5", lots.token);
  CHECK(denied->status == 403);
  CHECK(denied->codigo() == "acesso_negado");
  CHECK(carac("nearest-features/edificacao/3/lote/5", lots.token)->status == 403);
  auto beta = carac("nearest-features/lote/10/lote/5", city().user("beta").token);
  CHECK(beta->status == 403);
  CHECK(beta->codigo() == "municipio_nao_permitido");
  CHECK(city().client().Get("/caracterizacao/alfa/nearest-features/lote/10/lote/5")->status == 401);
}
