// POST, PUT, DELETE /geometrias and the reads of one geometry and of a layer: a geometry is
// read and checked by the database (GEOS validity with its reason, the layer's type, SRID
// transformed to SIRGAS 2000), versioned (a stale version is a 409 with the current one,
// never a lost update, also when two clients write at once), audited, bumps the layer's
// generation and is announced with the tiles it touches. Writes need a session and edicao.
#include <atomic>
#include <cstdio>
#include <fstream>
#include <latch>
#include <thread>

#include "parcels.hpp"

using namespace cadastre;
using test::Parcels;
using test::PlatformFixture;
using test::refused;

TEST_CASE_FIXTURE(PlatformFixture,
                  "a geometry is created, read, changed and deleted: versioned, audited, announced with its tiles") {
  Parcels w(*this);
  test::Heard heard(*this, w.owner);
  std::string gen = w.generation(w.lots);

  // Created from UTM 23S: stored in SIRGAS 2000 lon/lat, a 20 × 30 m lot.
  auto a = w.post_rect(w.lots, 610000, 7795000, 20, 30, w.editor);
  REQUIRE_MESSAGE(a->status == 201, a->body);
  std::int64_t g = int64_t(a->json()["id"]);
  CHECK(int64_t(a->json()["versao"]) == 1);
  CHECK(int64_t(a->json()["idCamada"]) == w.lots);
  CHECK(std::string_view(a->json()["geometria"]["type"]) == "Polygon");
  CHECK(w.db("select st_srid(geom) from projeto.geometrias where id = " + Parcels::n(g)) == "4674");
  CHECK(w.area(g) == doctest::Approx(600).epsilon(0.005));
  CHECK(w.db("select concat_ws('|', operacao, versao, antes is null, depois -> 'geometria' ->> 'type', usuario_id) "
             "from projeto.geometrias_auditoria where geometria_id = " + Parcels::n(g)) ==
        "criar|1|t|Polygon|" + Parcels::n(w.editor.user_id));
  CHECK(std::stoll(w.generation(w.lots)) == std::stoll(gen) + 1);
  REQUIRE(heard.size() == 1);
  std::string event = heard.last();
  CHECK(event.find(R"("tipo":"geometria_alterada","operacao":"criar","idCamada":)" + Parcels::n(w.lots) +
                   R"(,"idGeometria":)" + Parcels::n(g) + R"(,"versao":1,"geracao":)" + w.generation(w.lots)) !=
        std::string::npos);
  // The lot is a few metres wide: one tile per zoom, z12 to z16.
  for (int z = 12; z <= 16; ++z) CHECK(event.find("\"" + std::to_string(z) + "/") != std::string::npos);
  CHECK(event.find("\"17/") == std::string::npos);

  // Read: one, the page of the layer, the FeatureCollection (which GDAL reads).
  auto one = get("/geometrias/" + Parcels::n(g), w.reader);
  REQUIRE_MESSAGE(one->status == 200, one->body);
  CHECK(int64_t(one->json()["id"]) == g);
  w.value(g, w.field["inscricao"], "'0042'");
  w.rect(610100, 7795000, 10, 10);
  auto page = get("/geometrias?idCamada=" + Parcels::n(w.lots) + "&pageSize=1", w.reader);
  REQUIRE_MESSAGE(page->status == 200, page->body);
  CHECK(int64_t(page->json()["totalElements"]) == 2);
  CHECK(int64_t(page->json()["content"].at(0)["id"]) == g);
  auto [lon, lat] = w.lonlat(610005, 7795005);
  auto boxed = get("/geometrias?idCamada=" + Parcels::n(w.lots) + "&bbox=" + std::to_string(lon - 0.0001) + "," +
                       std::to_string(lat - 0.0001) + "," + std::to_string(lon + 0.0001) + "," +
                       std::to_string(lat + 0.0001),
                   w.reader);
  REQUIRE_MESSAGE(boxed->status == 200, boxed->body);
  CHECK(int64_t(boxed->json()["totalElements"]) == 1);
  auto fc = get("/geometrias/camada/" + Parcels::n(w.lots), w.reader);
  REQUIRE_MESSAGE(fc->status == 200, fc->body);
  CHECK(std::string_view(fc->json()["type"]) == "FeatureCollection");
  CHECK(int64_t(fc->json()["numberMatched"]) == 2);
  CHECK(std::string_view(fc->json()["features"].at(0)["properties"]["inscricao"]) == "0042");
  {
    std::string path = "/tmp/integ_platform_geometries_" + std::to_string(::getpid()) + ".geojson";
    std::ofstream(path) << fc->body;
    FILE* p = popen(("ogrinfo -ro -al -so " + path + " 2>&1").c_str(), "r");
    REQUIRE(p != nullptr);
    std::string out;
    char buf[4096];
    while (std::size_t k = fread(buf, 1, sizeof buf, p)) out.append(buf, k);
    int rc = pclose(p);
    std::remove(path.c_str());
    INFO(out);
    CHECK(rc == 0);
    CHECK(out.find("Feature Count: 2") != std::string::npos);
    CHECK(out.find("Polygon") != std::string::npos);
    CHECK(out.find("inscricao: String") != std::string::npos);
  }

  // Change from version 1 (GeoJSON this time): version 2, audited with before and after.
  std::size_t before_change = heard.size();
  auto c = put("/geometrias/" + Parcels::n(g),
               R"({"versao":1,"geojson":{"type":"Polygon","coordinates":[[[-45,-20],[-44.9999,-20],[-44.9999,-19.9999],[-45,-20]]]}})",
               w.editor);
  REQUIRE_MESSAGE(c->status == 200, c->body);
  CHECK(int64_t(c->json()["versao"]) == 2);
  CHECK(w.db("select concat_ws('|', operacao, versao, antes ->> 'versao', depois ->> 'versao', antes -> 'valores' ->> "
             "'inscricao') from projeto.geometrias_auditoria where geometria_id = " + Parcels::n(g) +
             " order by id desc limit 1") == "alterar|2|1|2|0042");
  CHECK(heard.size() == before_change + 1);
  CHECK(heard.last().find(R"("operacao":"alterar")") != std::string::npos);
  // The same version again is stale: 409 with the current version, nothing written.
  auto stale = put("/geometrias/" + Parcels::n(g), R"j({"versao":1,"wkt":"POLYGON((-45 -20,-44.9 -20,-44.9 -19.9,-45 -20))"})j",
                   w.editor);
  refused(*stale, 409, "conflito");
  CHECK(int64_t(stale->json()["versaoAtual"]) == 2);
  CHECK(w.version(g) == "2");
  // If-Match carries the version as well.
  auto headers = PlatformFixture::headers(w.editor);
  headers.emplace("If-Match", "\"2\"");
  auto matched = request("PUT", "/geometrias/" + Parcels::n(g),  headers,
                         R"j({"wkt":"POLYGON((-45 -20,-44.9999 -20,-44.9999 -19.9998,-45 -20))"})j");
  REQUIRE_MESSAGE(matched->status == 200, matched->body);
  CHECK(w.version(g) == "3");

  // Delete: a stale version is refused; the right one deletes (204), audited.
  refused(*del("/geometrias/" + Parcels::n(g) + "?versao=2", w.editor), 409, "conflito");
  auto gone = del("/geometrias/" + Parcels::n(g) + "?versao=3", w.editor);
  CHECK_MESSAGE(gone->status == 204, gone->body);
  CHECK(w.count("geometrias", "id = " + Parcels::n(g)) == "0");
  CHECK(w.db("select concat_ws('|', operacao, versao, depois is null, antes ->> 'versao') from "
             "projeto.geometrias_auditoria where geometria_id = " + Parcels::n(g) + " order by id desc limit 1") ==
        "excluir|3|t|3");
  CHECK(heard.last().find(R"("operacao":"excluir")") != std::string::npos);
  CHECK(heard.last().find(R"("versao":null)") != std::string::npos);
  refused(*get("/geometrias/" + Parcels::n(g), w.owner), 404, "nao_encontrado");
}

TEST_CASE_FIXTURE(PlatformFixture, "unreadable, invalid or mistyped geometries are 400 with the reason, nothing written") {
  Parcels w(*this);
  const std::string layer = Parcels::n(w.lots);
  auto create = [&](const std::string& rest) {
    return post("/geometrias", R"({"idCamada":)" + layer + "," + rest + "}", w.editor);
  };
  refused(*create(R"("wkt":"POLYGON((0 0, 1 1")"), 400, "parametro_invalido", "ilegível");
  // A bow-tie: GEOS's reason and where.
  refused(*create(R"j("wkt":"POLYGON((-45 -20,-44.9 -19.9,-44.9 -20,-45 -19.9,-45 -20))")j"), 400, "parametro_invalido",
          "Self-intersection");
  refused(*create(R"j("wkt":"POINT(-45 -20)")j"), 400, "parametro_invalido", "poligono");
  refused(*create(R"("wkt":"POLYGON EMPTY")"), 400, "parametro_invalido", "vazia");
  refused(*create(R"j("wkt":"POLYGON((610000 7795000,610020 7795000,610020 7795030,610000 7795000))")j"), 400,
          "parametro_invalido", "srid");
  refused(*create(R"("geojson":{"type":"Polygon"})"), 400, "parametro_invalido", "ilegível");
  refused(*create(R"j("srid":31983)j"), 400, "campo_obrigatorio", "wkt");
  refused(*create(R"j("wkt":"POINT(1 1)","cor":1)j"), 400, "campo_desconhecido", "cor");
  refused(*post("/geometrias", R"j({"wkt":"POINT(1 1)"})j", w.editor), 400, "campo_obrigatorio", "idCamada");
  CHECK(w.count("geometrias") == "0");
  CHECK(w.count("geometrias_auditoria") == "0");

  std::int64_t g = w.rect(610000, 7795000, 20, 30);
  refused(*put("/geometrias/" + Parcels::n(g), R"j({"wkt":"POLYGON((-45 -20,-44.9 -20,-44.9 -19.9,-45 -20))"})j", w.editor),
          400, "campo_obrigatorio", "versao");
  refused(*put("/geometrias/" + Parcels::n(g), R"j({"versao":1,"wkt":"LINESTRING(-45 -20,-44.9 -20)"})j", w.editor), 400,
          "parametro_invalido", "poligono");
  refused(*del("/geometrias/" + Parcels::n(g), w.editor), 400, "campo_obrigatorio", "versao");
  CHECK(w.version(g) == "1");
  // Hostile path and query values never reach SQL.
  refused(*get("/geometrias/1;drop", w.owner), 400, "parametro_invalido");
  refused(*get("/geometrias?idCamada=1%27--", w.owner), 400, "parametro_invalido");
  refused(*get("/geometrias/camada/" + Parcels::n(w.lots) + "?bbox=1,2,3", w.owner), 400, "parametro_invalido", "bbox");
  refused(*get("/geometrias/99999999", w.owner), 404, "nao_encontrado");
}

TEST_CASE_FIXTURE(PlatformFixture, "geometry routes need a session and the caller's role; others' records are unknown") {
  Parcels w(*this);
  std::int64_t g = w.rect(610000, 7795000, 20, 30);
  std::int64_t g2 = w.rect(610000, 7795100, 20, 30);
  std::int64_t block = w.rect(609990, 7794990, 40, 50, w.blocks);
  const std::string L = Parcels::n(w.lots), G = Parcels::n(g), G2 = Parcels::n(g2);
  auto [lon, lat] = w.lonlat(610010, 7795010);
  const std::string xy = "&x=" + std::to_string(lon) + "&y=" + std::to_string(lat);
  const std::string square = "POLYGON((" + std::to_string(lon - 1) + " " + std::to_string(lat - 1) + "," +
                             std::to_string(lon + 1) + " " + std::to_string(lat - 1) + "," + std::to_string(lon + 1) +
                             " " + std::to_string(lat + 1) + "," + std::to_string(lon - 1) + " " +
                             std::to_string(lat - 1) + "))";
  struct Call {
    std::string method, path, body;
    bool write;
  };
  const std::vector<Call> calls{
      {"GET", "/geometrias?idCamada=" + L, "", false},
      {"GET", "/geometrias/" + G, "", false},
      {"GET", "/geometrias/camada/" + L, "", false},
      {"GET", "/geometrias/raio?idCamada=" + L + xy, "", false},
      {"GET", "/geometrias/xy?idCamada=" + L + xy, "", false},
      {"GET", "/geometrias/raio-quad?idCamada=" + L + xy, "", false},
      {"GET", "/geometrias/intersect-geom?ids=" + G + "&wkt=" + test::encode(square), "", false},
      {"POST", "/geometrias", R"({"idCamada":)" + L + R"(,"wkt":")" + square + R"("})", true},
      {"PUT", "/geometrias/" + G, R"({"versao":1,"wkt":")" + square + R"("})", true},
      {"DELETE", "/geometrias/" + G + "?versao=1", "", true},
      {"PUT", "/geometrias/uniao",
       R"({"ids":[)" + G + "," + G2 + R"(],"manter":)" + G + R"(,"versoes":{")" + G + R"(":1,")" + G2 + R"(":1}})", true},
      {"PUT", "/geometrias/deletar", R"({"ids":[)" + G + "]}", true},
      {"POST", "/geometrias/split/" + G, R"j({"versao":1,"linha":"LINESTRING(0 0,1 1)"})j", true},
      {"POST", "/geometrias/offline", R"([{"idCliente":"a1","operacao":"excluir","id":)" + G + R"(,"versaoBase":1}])", true},
      {"POST", "/geometrias/copiar-geometria/" + G + "/" + Parcels::n(w.block_form), "", true},
      {"POST", "/geometrias/copiar-amostras/" + L, R"({"ids":[)" + Parcels::n(block) + "]}", true},
      {"POST", "/geometrias/copiar-valores/" + L, R"({"origem":)" + Parcels::n(w.blocks) + "}", true},
      {"PUT", "/geometrias/" + G + "/indexMapaTematico", R"({"idCampo":)" + Parcels::n(w.field["area"]) + "}", true},
  };
  std::string gen = w.generation(w.lots), blocks_gen = w.generation(w.blocks);
  test::Heard heard(*this, w.owner);
  for (const Call& x : calls) {
    CAPTURE(x.method);
    CAPTURE(x.path);
    refused(*request(x.method, x.path, {}, x.body), 401, "nao_autenticado");
    refused(*request(x.method, x.path, PlatformFixture::headers(w.other_tenant), x.body), 404, "nao_encontrado");
    refused(*request(x.method, x.path, PlatformFixture::headers(w.stranger), x.body), 404, "nao_encontrado");
    if (x.write) refused(*request(x.method, x.path, PlatformFixture::headers(w.reader), x.body), 403, "acesso_negado");
    else CHECK_MESSAGE(request(x.method, x.path, PlatformFixture::headers(w.reader), x.body)->status == 200, x.path);
  }
  CHECK(w.version(g) == "1");
  CHECK(w.count("geometrias") == "3");
  CHECK(w.count("geometrias_auditoria") == "3");
  CHECK(w.generation(w.lots) == gen);
  CHECK(w.generation(w.blocks) == blocks_gen);
  CHECK(heard.size() == 0);
}

TEST_CASE_FIXTURE(PlatformFixture, "two clients changing the same geometry from the same version: one 200, one 409") {
  Parcels w(*this);
  test::Heard heard(*this, w.owner);
  for (int round = 0; round < 5; ++round) {
    std::int64_t g = w.rect(610000 + 100 * round, 7795000, 20, 30);
    std::latch start(2);
    std::atomic<int> ok{0}, conflicts{0};
    auto client = [&](const test::Session& who, double width) {
      std::string body = R"({"versao":1,"srid":31983,"wkt":")" +
                         Parcels::utm_rect(610000 + 100 * round, 7795000, width, 30) + R"("})";
      start.arrive_and_wait();
      auto r = put("/geometrias/" + Parcels::n(g), body, who);
      if (r->status == 200) ++ok;
      else if (r->status == 409) ++conflicts;
      else FAIL_CHECK(r->body);
    };
    std::thread t1(client, w.owner, 25), t2(client, w.editor, 35);
    t1.join();
    t2.join();
    CHECK(ok == 1);
    CHECK(conflicts == 1);
    CHECK(w.version(g) == "2");
    CHECK(w.count("geometrias_auditoria", "geometria_id = " + Parcels::n(g) + " and operacao = 'alterar'") == "1");
    CHECK(heard.count("alterar") == std::size_t(round + 1));
  }
}
