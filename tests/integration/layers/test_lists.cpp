// Lists, paging, filters, bbox and page counts of /{municipio}/{camada}/ and /geo/...
#include "fixture.hpp"

using namespace cadastre::test;

TEST_CASE_FIXTURE(Fixture,
                  "a layer list is a GeoJSON FeatureCollection with paging members and links") {
  auto a = get("/alfa/lote/?limit=5");
  REQUIRE(a->status == 200);
  CHECK(a->content_type == "application/geo+json");
  auto j = a->json();
  CHECK(std::string_view(j["type"]) == "FeatureCollection");
  CHECK(int64_t(j["numberReturned"]) == 5);
  CHECK(int64_t(j["pagina"]) == 1);
  CHECK(int64_t(j["limite"]) == 5);
  auto features = j["features"].get_array().value();
  CHECK(features.size() == 5);
  auto f = features.at(0);
  CHECK(std::string_view(f["type"]) == "Feature");
  CHECK(int64_t(f["id"]) == int64_t(f["properties"]["id"]));
  CHECK(std::string_view(f["geometry"]["type"]) == "MultiPolygon");
  double lon = f["geometry"]["coordinates"].at(0).at(0).at(0).at(0);
  double lat = f["geometry"]["coordinates"].at(0).at(0).at(0).at(1);
  CHECK(lon == doctest::Approx(-47.06).epsilon(0.01));  // lon/lat order, around Campinas
  CHECK(lat == doctest::Approx(-22.9).epsilon(0.01));
  simdjson::dom::element geom;
  CHECK(f["properties"]["geom"].get(geom) != simdjson::SUCCESS);  // geometry only once
  std::vector<std::string> rels;
  for (auto l : j["links"].get_array()) rels.emplace_back(std::string_view(l["rel"]));
  CHECK(rels == std::vector<std::string>{"self", "next"});
}

TEST_CASE_FIXTURE(Fixture, "pages are stable and disjoint, and page/limit equals offset/limit") {
  auto ids = [](Answer& a) {
    std::vector<int64_t> out;
    for (auto f : a.json()["features"].get_array()) out.push_back(int64_t(f["id"]));
    return out;
  };
  auto p1 = get("/alfa/lote/?page=1&limit=7");
  auto p2 = get("/alfa/lote/?page=2&page_size=7");
  auto off = get("/alfa/lote/?offset=7&limit=7");
  auto a = ids(*p1), b = ids(*p2), c = ids(*off);
  CHECK(a.size() == 7);
  CHECK(b == c);
  CHECK(a.back() < b.front());
  auto links = p2->json()["links"];
  CHECK(std::string_view(links.at(2)["rel"]) == "prev");
}

TEST_CASE_FIXTURE(Fixture, "bad paging is a 400 naming the parameter") {
  for (const char* q : {"limit=0", "limit=1001", "page=-1", "page=abc", "limit=10abc", "offset=-3"}) {
    auto a = get(std::string("/alfa/lote/?") + q);
    CHECK_MESSAGE(a->status == 400, q);
    CHECK(a->codigo() == "parametro_invalido");
  }
}

TEST_CASE_FIXTURE(Fixture, "exact, contains and icontains filters match what the database holds") {
  auto numero = db("select numero from cadastro.lote order by id limit 1");
  auto expected = db("select count(*) from cadastro.lote where numero = " + numero);
  auto a = get("/alfa/lote/?limit=1000&numero=" + numero);
  REQUIRE(a->status == 200);
  CHECK(std::to_string(int64_t(a->json()["numberReturned"])) == expected);

  auto word = db("select lower(substr(nome, 2, 4)) from cadastro.logradouro order by id limit 1");
  auto expected_i = db("select count(*) from cadastro.logradouro where nome ilike '%" + word + "%'");
  auto b = get("/alfa/logradouro/?type=icontains&limit=1000&nome=" + word);
  CHECK(std::to_string(int64_t(b->json()["numberReturned"])) == expected_i);
  auto c = get("/alfa/logradouro/?type=contains&limit=1000&nome=" + word);
  auto expected_c = db("select count(*) from cadastro.logradouro where nome like '%" + word + "%'");
  CHECK(std::to_string(int64_t(c->json()["numberReturned"])) == expected_c);
}

TEST_CASE_FIXTURE(Fixture, "LIKE wildcards in filter values are literal characters") {
  auto a = get("/alfa/logradouro/?type=contains&nome=%25");
  REQUIRE(a->status == 200);
  CHECK(int64_t(a->json()["numberReturned"]) == 0);
  auto b = get("/alfa/logradouro/?type=icontains&nome=_");
  CHECK(int64_t(b->json()["numberReturned"]) == 0);
}

TEST_CASE_FIXTURE(Fixture, "a bbox returns exactly the features that intersect it") {
  std::string box = "minLongitude=-47.064&minLatitude=-22.908&maxLongitude=-47.058&maxLatitude=-22.903";
  auto expected = db("select count(*) from cadastro.lote where ST_Intersects(geom, ST_MakeEnvelope(-47.064, -22.908, -47.058, -22.903, 4674))");
  REQUIRE(std::stoi(expected) > 0);
  auto a = get("/geo/alfa/lote/?limit=1000&" + box);
  CHECK(std::to_string(int64_t(a->json()["numberReturned"])) == expected);
  auto p = get("/alfa/lote/pages/?limit=10&" + box);
  CHECK(std::to_string(int64_t(p->json()["total"])) == expected);
  CHECK(int64_t(p->json()["paginas"]) == (std::stoi(expected) + 9) / 10);

  CHECK(get("/alfa/lote/?minLongitude=-47.06")->status == 400);           // partial bbox
  CHECK(get("/alfa/lote/?" + box.substr(0, box.size() - 7) + "=-91")->status == 400);  // latitude out of range
  CHECK(get("/alfa/pessoa/?" + box)->status == 400);                       // layer without geometry
}

TEST_CASE_FIXTURE(Fixture, "pages counts every record of the layer") {
  auto a = get("/alfa/lote/pages/?limit=100");
  REQUIRE(a->status == 200);
  CHECK(int64_t(a->json()["total"]) == 300);
  CHECK(int64_t(a->json()["paginas"]) == 3);
}

TEST_CASE_FIXTURE(Fixture, "unknown fields and bad values are 400; unknown layers 404") {
  auto a = get("/alfa/lote/?nao_existe=1");
  CHECK(a->status == 400);
  CHECK(a->codigo() == "campo_desconhecido");
  auto b = get("/alfa/lote/?numero=abc");
  CHECK(b->status == 400);
  CHECK(b->body.find("numero") != std::string::npos);
  auto c = get("/alfa/nao_ha/");
  CHECK(c->status == 404);
  CHECK(c->codigo() == "camada_nao_encontrada");
  CHECK(get("/alfa/lote/?sort=geom")->status == 400);
  CHECK(get("/alfa/lote/?type=regex&numero=1")->status == 400);
}

TEST_CASE_FIXTURE(Fixture, "layers without geometry list with geometry null") {
  auto a = get("/alfa/pessoa/?limit=2");
  REQUIRE(a->status == 200);
  CHECK(a->json()["features"].at(0)["geometry"].is_null());
}

TEST_CASE_FIXTURE(Fixture, "novos lists the most recent records first") {
  auto a = get("/alfa/lote/novos/?limit=3");
  REQUIRE(a->status == 200);
  std::vector<int64_t> ids;
  for (auto f : a->json()["features"].get_array()) ids.push_back(int64_t(f["id"]));
  CHECK(ids == std::vector<int64_t>{300, 299, 298});
}

TEST_CASE_FIXTURE(Fixture, "a table created after start-up becomes a layer without a restart") {
  auto& stack = city();
  CHECK(get("/alfa/lote/")->status == 200);  // the catalog is loaded and cached now
  db("create table if not exists cadastro.arvore (id serial primary key, especie text not null, "
     "geom geometry(Point, 4674)); insert into cadastro.arvore (especie, geom) values "
     "('ipê-amarelo', ST_SetSRID(ST_MakePoint(-47.06, -22.905), 4674)) returning 1");
  std::this_thread::sleep_for(std::chrono::milliseconds(2100));  // past the reload throttle
  auto a = get("/alfa/arvore/");
  REQUIRE(a->status == 200);
  CHECK(std::string_view(a->json()["features"].at(0)["properties"]["especie"]) == "ipê-amarelo");
  (void)stack;
}

TEST_CASE_FIXTURE(Fixture,
                  "a NUL in a filter value is a 400, not a filter that matches every row") {
  for (const char* q : {"inscricao=%00&type=icontains", "inscricao=01%00&type=contains", "numero=%00"}) {
    auto a = get(std::string("/alfa/lote/?") + q);
    CHECK_MESSAGE(a->status == 400, q);
    CHECK(a->codigo() == "parametro_invalido");
    CHECK(a->body.find("features") == std::string::npos);
  }
  CHECK(get("/alfa/lote/?inscricao=%00&type=icontains")->mensagem().find("'inscricao'") != std::string::npos);
  CHECK(get("/alfa/lote/?sort=numero%00")->status == 400);
  CHECK(get("/alfa/lote/1%00/")->status == 400);
}

TEST_CASE_FIXTURE(Fixture,
                  "list parameters are checked against their declaration, each named in the 400") {
  auto name_of = [&](const char* query) {
    auto a = get(std::string("/alfa/lote/?") + query);
    CHECK_MESSAGE(a->status == 400, query);
    return std::string(std::string_view(a->json()["mensagem"]));
  };
  CHECK(name_of("minLongitude=abc").find("'minLongitude'") != std::string::npos);
  CHECK(name_of("type=zzz").find("'type'") != std::string::npos);
  CHECK(name_of("page=1&page=2").find("'page'") != std::string::npos);
  CHECK(name_of("pageNumber=um").find("'pageNumber'") != std::string::npos);
  CHECK(get("/alfa/lote/?sort=(select%201)")->status == 400);
  CHECK(get("/alfa/lote/?pageNumber=2&pageSize=5")->status == 200);  // the aliases are declared too
}

TEST_CASE_FIXTURE(Fixture,
                  "a route without free-form fields refuses an undeclared parameter, naming it") {
  auto a = get("/alfa/lote/1/?campo=1");
  CHECK(a->status == 400);
  CHECK(a->codigo() == "campo_desconhecido");
  CHECK(a->mensagem() == "parâmetro desconhecido: 'campo'");
  auto search = get("/alfa/lote/search/exact/numero/1/?type=contains");
  CHECK(search->status == 400);
  CHECK(search->codigo() == "campo_desconhecido");
}
