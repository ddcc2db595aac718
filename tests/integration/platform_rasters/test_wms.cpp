// WMS: the capabilities proxy, wms layers from capabilities, the tenant's WMS sources and
// their map images, every call through the outbound allow-list (see rasters_fixture.hpp).
#include "rasters_fixture.hpp"

using namespace cadastre;
using test::Cast;
using test::RastersFixture;
using test::refused;

namespace {

std::string encoded(const std::string& url) { return http::percent_encode(url); }

}  // namespace

TEST_CASE_FIXTURE(RastersFixture,
                  "GET /proxy/wms/capabilities answers the named layers with inherited CRSs and extents, and the "
                  "GetMap formats") {
  Cast c = cast();
  auto a = get("/proxy/wms/capabilities?url=" + encoded(outside->url("/ok")), c.reader);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto j = a->json();
  CHECK(a->text("versao") == "1.3.0");
  CHECK(a->text("titulo") == "Geoserviços de Alfa");
  CHECK(a->text("urlMapa") == outside->url("/ok"));
  CHECK(simdjson::minify(j["formatos"]) == R"(["image/png","image/jpeg"])");
  auto layers = j["camadas"].get_array();
  REQUIRE(layers.size() == 2);  // the unnamed root is a container, not a layer
  auto lotes = layers.at(0);
  CHECK(std::string_view(lotes["nome"]) == "lotes");
  CHECK(std::string_view(lotes["titulo"]) == "Lotes urbanos");
  CHECK(simdjson::minify(lotes["crs"]) == R"(["EPSG:4674","EPSG:4326","EPSG:31982"])");
  CHECK(simdjson::minify(lotes["bbox"]) == "[-48.1,-27.1,-47.9,-26.9]");
  auto orto = layers.at(1);
  CHECK(simdjson::minify(orto["crs"]) == R"(["EPSG:4674","EPSG:4326"])");
  CHECK(simdjson::minify(orto["bbox"]) == "[-48.5,-27.5,-47.5,-26.5]");  // the parent's

  refused(*request("GET", "/proxy/wms/capabilities?url=" + encoded(outside->url("/ok")), {}), 401, "nao_autenticado");
  refused(*get("/proxy/wms/capabilities", c.reader), 400, "campo_obrigatorio", "url");
  refused(*get("/proxy/wms/capabilities?url=ftp%3A%2F%2F127.0.0.2%2Fx", c.reader), 400, "parametro_invalido", "url");
}

TEST_CASE_FIXTURE(RastersFixture,
                  "the WMS routes refuse destinations the allow-list does not grant: another host, the platform's "
                  "own network, a redirect is never followed there") {
  Cast c = cast();
  int before = inside->hits();
  // 127.0.0.1 is a listed host, but loopback is not an allowed network: the address rule.
  refused(*get("/proxy/wms/capabilities?url=" + encoded(inside->url("/ok")), c.reader), 400, "parametro_invalido",
          "url");
  // A host that is not on the list at all.
  refused(*get("/proxy/wms/capabilities?url=" + encoded("http://wms.exemplo.invalid/wms"), c.reader), 400,
          "parametro_invalido", "url");
  refused(*get("/proxy/wms/capabilities?url=" + encoded("http://169.254.169.254/latest"), c.reader), 400,
          "parametro_invalido", "url");
  refused(*post("/fonteswms", R"({"nome":"Interna","url":")" + inside->url("/ok") + R"("})", c.admin), 400,
          "parametro_invalido", "url");
  CHECK(inside->hits() == before);
  CHECK(db("select count(*) from projeto.fontes_wms") == "0");
}

TEST_CASE_FIXTURE(RastersFixture,
                  "capabilities that are not a WMS document, or that declare a DTD or entities, are refused (502)") {
  Cast c = cast();
  refused(*get("/proxy/wms/capabilities?url=" + encoded(outside->url("/dtd")), c.reader), 502,
          "falha_no_servico_externo", "DOCTYPE");
  refused(*get("/proxy/wms/capabilities?url=" + encoded(outside->url("/lixo")), c.reader), 502,
          "falha_no_servico_externo", "não é XML");
}

TEST_CASE_FIXTURE(RastersFixture, "POST /importar/wms creates a wms layer from a layer of the capabilities") {
  Cast c = cast();
  std::int64_t p = project(c);
  std::string body = R"({"idProjeto":)" + std::to_string(p) + R"(,"url":")" + outside->url("/ok") +
                     R"(","camada":"lotes"})";
  auto a = post("/importar/wms", body, c.owner);
  REQUIRE_MESSAGE(a->status == 201, a->body);
  std::int64_t id = int64_t(a->json()["id"]);
  CHECK(a->text("tipo") == "wms");
  CHECK(a->text("nome") == "Lotes urbanos");  // the WMS layer's title by default
  CHECK(std::string_view(a->json()["propriedades"]["wms"]["formato"]) == "image/png");
  std::string row = db("select concat_ws('|', tipo, url, camadas_wms, st_astext(extensao)) from projeto.camadas where id = " +
                       std::to_string(id));
  CHECK(row == "wms|" + outside->url("/ok") + "|lotes|POLYGON((-48.1 -27.1,-48.1 -26.9,-47.9 -26.9,-47.9 -27.1,-48.1 -27.1))");

  // A name and a format of the service's.
  auto named = post("/importar/wms", R"({"idProjeto":)" + std::to_string(p) + R"(,"url":")" + outside->url("/ok") +
                                         R"(","camada":"ortofoto","nome":"Orto","formato":"image/jpeg"})",
                    c.owner);
  REQUIRE_MESSAGE(named->status == 201, named->body);
  CHECK(named->text("nome") == "Orto");

  refused(*post("/importar/wms", R"({"idProjeto":)" + std::to_string(p) + R"(,"url":")" + outside->url("/ok") +
                                     R"(","camada":"rios"})",
                c.owner),
          400, "parametro_invalido", "rios");
  refused(*post("/importar/wms", R"({"idProjeto":)" + std::to_string(p) + R"(,"url":")" + outside->url("/ok") +
                                     R"(","camada":"lotes","formato":"image/webp"})",
                c.owner),
          400, "parametro_invalido", "formato");
  refused(*post("/importar/wms", R"({"idProjeto":)" + std::to_string(p) + R"(,"camada":"lotes"})", c.owner), 400,
          "campo_obrigatorio", "url");
  refused(*post("/importar/wms", R"({"url":"http://127.0.0.2/ok","camada":"lotes"})", c.owner), 400,
          "campo_obrigatorio", "idProjeto");
  refused(*post("/importar/wms", R"({"idProjeto":"1;drop","url":"http://127.0.0.2/ok","camada":"lotes"})", c.owner),
          400, "parametro_invalido", "idProjeto");
  refused(*post("/importar/wms", R"({"idProjeto":)" + std::to_string(p) + R"(,"url":")" + outside->url("/ok") +
                                     R"(","camada":"lotes","extra":1})",
                c.owner),
          400, "campo_desconhecido", "extra");

  // The project's guard: reader 403, stranger and beta 404, no session 401.
  refused(*post("/importar/wms", body, c.reader), 403, "acesso_negado");
  refused(*post("/importar/wms", body, c.stranger), 404, "nao_encontrado");
  refused(*post("/importar/wms", body, c.beta), 404, "nao_encontrado");
  refused(*request("POST", "/importar/wms", {}, body), 401, "nao_autenticado");
  CHECK(db("select count(*) from projeto.camadas where projeto_id = " + std::to_string(p)) == "2");
}

TEST_CASE_FIXTURE(RastersFixture,
                  "/fonteswms: administrators register, change and remove sources; every user of the tenant reads "
                  "them; another tenant's are unknown") {
  Cast c = cast();
  auto created = post("/fonteswms", R"({"nome":"Geoserviços","url":")" + outside->url("/ok") +
                                        R"(","descricao":"da prefeitura"})",
                      c.admin);
  REQUIRE_MESSAGE(created->status == 201, created->body);
  std::int64_t id = int64_t(created->json()["id"]);
  std::string path = "/fonteswms/" + std::to_string(id);
  CHECK(created->text("versao") == "1.3.0");
  CHECK(created->text("titulo") == "Geoserviços de Alfa");
  CHECK(created->json()["camadas"].get_array().size() == 2);
  CHECK(db("select camadas->1->>'nome' from projeto.fontes_wms where id = " + std::to_string(id)) == "ortofoto");

  // Reads: any user of the tenant.
  auto list = get("/fonteswms", c.stranger);
  REQUIRE_MESSAGE(list->status == 200, list->body);
  CHECK(list->json().get_array().size() == 1);
  auto one = get(path, c.reader);
  REQUIRE_MESSAGE(one->status == 200, one->body);
  CHECK(one->text("nome") == "Geoserviços");

  // Writes: administrators only.
  refused(*post("/fonteswms", R"({"nome":"Outra","url":")" + outside->url("/ok") + R"("})", c.owner), 403,
          "acesso_negado");
  refused(*put(path, R"({"nome":"X"})", c.owner), 403, "acesso_negado");
  refused(*del(path, c.reader), 403, "acesso_negado");
  // The same URL twice.
  refused(*post("/fonteswms", R"({"nome":"Repetida","url":")" + outside->url("/ok") + R"("})", c.admin), 409,
          "conflito");
  // Bad input.
  refused(*post("/fonteswms", R"({"url":")" + outside->url("/ok") + R"("})", c.admin), 400, "campo_obrigatorio",
          "nome");
  refused(*post("/fonteswms", R"({"nome":"Sem url"})", c.admin), 400, "campo_obrigatorio", "url");
  refused(*post("/fonteswms", R"({"nome":"","url":"http://127.0.0.2/ok"})", c.admin), 400, "parametro_invalido",
          "nome");
  refused(*get("/fonteswms/1;drop", c.reader), 400, "parametro_invalido", "id");
  refused(*post("/fonteswms", R"({"nome":")" + std::string(20000, 'x') + R"(","url":"http://127.0.0.2/ok"})", c.admin),
          413, "corpo_muito_grande");

  // Change: a name; a new URL reads the capabilities again.
  auto renamed = put(path, R"({"nome":"Geo","descricao":null})", c.admin);
  REQUIRE_MESSAGE(renamed->status == 200, renamed->body);
  CHECK(renamed->text("nome") == "Geo");
  CHECK(renamed->json()["descricao"].is_null());
  auto moved = put(path, R"({"url":")" + outside->url("/erro") + R"("})", c.admin);
  REQUIRE_MESSAGE(moved->status == 200, moved->body);
  CHECK(moved->text("urlMapa") == outside->url("/erro"));
  refused(*put(path, R"({"url":")" + inside->url("/ok") + R"("})", c.admin), 400, "parametro_invalido", "url");
  CHECK(db("select url from projeto.fontes_wms where id = " + std::to_string(id)) == outside->url("/erro"));

  // Another tenant: unknown. No session: 401.
  refused(*get(path, c.beta), 404, "nao_encontrado");
  refused(*request("GET", "/fonteswms", {}), 401, "nao_autenticado");
  refused(*request("GET", path, {}), 401, "nao_autenticado");

  auto gone = del(path, c.admin);
  CHECK(gone->status == 204);
  CHECK(db("select count(*) from projeto.fontes_wms") == "0");
  refused(*get(path, c.reader), 404, "nao_encontrado");
  refused(*del(path, c.admin), 404, "nao_encontrado");
}

TEST_CASE_FIXTURE(RastersFixture,
                  "POST /fonteswms/:id/imagem fetches the GetMap image with the 1.3.0 axis order, within the size and "
                  "time limits, and checks its type") {
  Cast c = cast();
  auto source = [&](const std::string& name) {
    auto a = post("/fonteswms", R"({"nome":")" + name + R"(","url":")" + outside->url("/" + name) + R"("})", c.admin);
    REQUIRE_MESSAGE(a->status == 201, a->body);
    return "/fonteswms/" + std::to_string(int64_t(a->json()["id"])) + "/imagem";
  };
  std::string ok = source("ok");
  const std::string body = R"({"bbox":[-48,-27,-47.9,-26.9],"width":300,"height":200,"camadas":["lotes","ortofoto"]})";
  auto img = post(ok, body, c.stranger);  // any user of the tenant
  REQUIRE_MESSAGE(img->status == 200, img->body);
  CHECK(img->body == test::kPng);
  CHECK(img->header("Content-Type") == "image/png");
  CHECK(img->header("X-Content-Type-Options") == "nosniff");
  std::string q = getmap_query();
  CHECK(q.find("REQUEST=GetMap") != std::string::npos);
  CHECK(q.find("LAYERS=lotes,ortofoto") != std::string::npos);
  CHECK(q.find("CRS=EPSG:4674") != std::string::npos);
  CHECK(q.find("BBOX=-27,-48,-26.9,-47.9") != std::string::npos);  // EPSG:4674 in 1.3.0: lat/lon
  CHECK(q.find("WIDTH=300&HEIGHT=200") != std::string::npos);

  // Over the byte limit, past the time limit, an exception instead of an image.
  refused(*post(source("grande"), body, c.reader), 502, "falha_no_servico_externo");
  refused(*post(source("lento"), body, c.reader), 504, "tempo_esgotado_no_servico_externo");
  refused(*post(source("erro"), body, c.reader), 502, "falha_no_servico_externo", "Camada desconhecida");

  // Bad input, checked before any call.
  refused(*post(ok, R"({"bbox":[-48,-27,-47.9,-26.9],"width":5000,"camadas":["lotes"]})", c.reader), 400,
          "parametro_invalido", "width");
  refused(*post(ok, R"({"bbox":[-48,-27,-47.9],"camadas":["lotes"]})", c.reader), 400, "parametro_invalido", "bbox");
  refused(*post(ok, R"({"bbox":[-47,-27,-48,-26.9],"camadas":["lotes"]})", c.reader), 400, "parametro_invalido",
          "bbox");
  refused(*post(ok, R"({"bbox":[-48,-27,-47.9,-26.9]})", c.reader), 400, "campo_obrigatorio", "camadas");
  refused(*post(ok, R"({"bbox":[-48,-27,-47.9,-26.9],"camadas":["rios"]})", c.reader), 400, "parametro_invalido",
          "camadas");
  refused(*post(ok, R"({"bbox":[-48,-27,-47.9,-26.9],"camadas":["ortofoto"],"crs":"EPSG:31982"})", c.reader), 400,
          "parametro_invalido", "crs");
  refused(*post(ok, R"({"bbox":[-48,-27,-47.9,-26.9],"camadas":["lotes"],"formato":"image/webp"})", c.reader), 400,
          "parametro_invalido", "formato");
  refused(*post(ok, R"({"bbox":[-48,-27,-47.9,-26.9],"camadas":["lotes&x=1"]})", c.reader), 400,
          "parametro_invalido", "camadas");
  refused(*request("POST", ok, {}, body), 401, "nao_autenticado");
  refused(*post(ok, body, c.beta), 404, "nao_encontrado");
}

TEST_CASE_FIXTURE(RastersFixture,
                  "a WMS 1.1.1 service: SRS lists and LatLonBoundingBox are read, and GetMap sends SRS with the bbox "
                  "in lon/lat order to the OnlineResource with its own query") {
  Cast c = cast();
  auto caps = get("/proxy/wms/capabilities?url=" + encoded(outside->url("/v111")), c.reader);
  REQUIRE_MESSAGE(caps->status == 200, caps->body);
  CHECK(caps->text("versao") == "1.1.1");
  auto quadras = caps->json()["camadas"].at(0);
  CHECK(std::string_view(quadras["nome"]) == "quadras");
  CHECK(simdjson::minify(quadras["crs"]) == R"(["EPSG:4674","EPSG:4326"])");
  CHECK(simdjson::minify(quadras["bbox"]) == "[-48.2,-27.2,-47.8,-26.8]");

  auto src = post("/fonteswms", R"({"nome":"Antigo","url":")" + outside->url("/v111") + R"("})", c.admin);
  REQUIRE_MESSAGE(src->status == 201, src->body);
  CHECK(src->text("urlMapa") == outside->url("/v111?map=quadras"));
  auto img = post("/fonteswms/" + std::to_string(int64_t(src->json()["id"])) + "/imagem",
                  R"({"bbox":[-48,-27,-47.9,-26.9],"camadas":["quadras"]})", c.reader);
  REQUIRE_MESSAGE(img->status == 200, img->body);
  std::string q = getmap_query();
  CHECK(q.rfind("map=quadras&", 0) == 0);
  CHECK(q.find("VERSION=1.1.1") != std::string::npos);
  CHECK(q.find("SRS=EPSG:4674") != std::string::npos);
  CHECK(q.find("BBOX=-48,-27,-47.9,-26.9") != std::string::npos);
}
