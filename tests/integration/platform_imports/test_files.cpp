// Vector files imported as jobs: shapefiles (CRS from an ESRI .prj, encodings), the CRS
// never guessed, corrupt uploads refused before anything is written, KML/KMZ, DXF split by
// geometry type, and a 200,000-feature shapefile. The files are made by ogr2ogr here.
#include <doctest/doctest.h>

#include "integration/platform_imports/imports_fixture.hpp"

using namespace cadastre::test;

namespace {

// Three lots in SIRGAS 2000 / UTM 23S, with accents, every field type and a bow-tie (an
// invalid polygon MakeValid repairs).
const char* kLots = R"({"type":"FeatureCollection","features":[
{"type":"Feature","properties":{"nome":"São João","area":123.5,"numero":10,"vistoria":"2024-03-15"},
 "geometry":{"type":"Polygon","coordinates":[[[333000,7395000],[333010,7395000],[333010,7395010],[333000,7395010],[333000,7395000]]]}},
{"type":"Feature","properties":{"nome":"Conceição","area":80.25,"numero":11,"vistoria":null},
 "geometry":{"type":"Polygon","coordinates":[[[333020,7395000],[333030,7395010],[333030,7395000],[333020,7395010],[333020,7395000]]]}},
{"type":"Feature","properties":{"nome":"Açaí","area":null,"numero":null,"vistoria":"2023-12-01"},
 "geometry":{"type":"Polygon","coordinates":[[[333040,7395000],[333050,7395000],[333050,7395010],[333040,7395010],[333040,7395000]]]}}]})";

}  // namespace

TEST_CASE_FIXTURE(ImportsFixture,
                  "a shapefile in SIRGAS 2000 / UTM 23S with an ESRI .prj and CP1252 attributes becomes a layer "
                  "with typed fields, its geometries in EPSG:4674, the invalid one repaired and counted") {
  auto c = cast();
  write("in.geojson", kLots);
  sh("ogr2ogr -f 'ESRI Shapefile' -a_srs EPSG:31983 -lco ENCODING=CP1252 lotes.shp in.geojson");
  REQUIRE(read("lotes.prj").find("SIRGAS_2000_UTM_Zone_23S") != std::string::npos);  // ESRI WKT
  REQUIRE(read("lotes.dbf").find("S\xE3o Jo\xE3o") != std::string::npos);            // CP1252 bytes
  fs::remove(dir / "lotes.cpg");  // no .cpg: CP1252 by default
  sh("zip -j lotes.zip lotes.shp lotes.shx lotes.dbf lotes.prj");

  auto job = finished(submitted(route("shp", "lotes-1", c.projeto, "Lotes de São João"), read("lotes.zip"), "lotes.zip",
                                c.owner),
                      c.owner);
  REQUIRE_MESSAGE(job.estado == "concluida", job.json);
  CHECK(job.lidas == 3);
  CHECK(job.importadas == 3);
  CHECK(job.reparadas == 1);
  CHECK(job.recusadas == 0);
  CHECK(job.json.find(R"("crs":"EPSG:31983")") != std::string::npos);
  CHECK(job.json.find(R"("encodingOrigem":"padrao")") != std::string::npos);
  const std::string L = n(job.camada);
  CHECK(db("select nome || '|' || geometria || '|' || projeto_id || '|' || (geracao > 1) from projeto.camadas where id = " + L) ==
        "Lotes de São João|poligono|" + n(c.projeto) + "|true");
  CHECK(db("select string_agg(k.chave || ':' || k.tipo, ',' order by k.ordem) from projeto.campos k "
           "join projeto.formularios f on f.id = k.formulario_id where f.camada_id = " + L) ==
        "nome:texto,area:decimal,numero:inteiro,vistoria:data");
  const std::string of_layer = " from " + std::string(kValues) +
                               " v join projeto.geometrias g on g.id = v.geometria_id where g.camada_id = " + L;
  CHECK(db("select string_agg(v.texto, ',' order by v.texto)" + of_layer + " and v.chave = 'nome'") ==
        "Açaí,Conceição,São João");
  CHECK(db("select count(*)" + of_layer) == "9");  // nulls make no value
  CHECK(db("select string_agg(v.texto, ',' order by v.valor)" + of_layer + " and v.chave = 'area'") == "80.25,123.5");
  CHECK(db("select string_agg(v.texto, ',' order by v.texto)" + of_layer + " and v.chave = 'vistoria'") ==
        "2023-12-01,2024-03-15");
  // Transformed exactly as PostGIS would, and all valid (the bow-tie repaired).
  CHECK(db("select st_distance(st_centroid(g.geom), st_transform(st_setsrid(st_point(333005, 7395005), 31983), 4674)) < 1e-7"
           + of_layer + " and v.texto = 'São João'") == "t");
  CHECK(db("select bool_and(st_isvalid(geom) and st_srid(geom) = 4674) from projeto.geometrias where camada_id = " + L) == "t");
  CHECK(db("select count(*) from projeto.eventos where operacao = 'importacao' and projeto_id = " + n(c.projeto)) == "1");

}

TEST_CASE_FIXTURE(ImportsFixture, "a .cpg decides the encoding; without one, the encoding parameter; invalid text fails the job") {
  auto c = cast();
  write("in.geojson", kLots);
  sh("ogr2ogr -f 'ESRI Shapefile' -a_srs EPSG:31983 -lco ENCODING=UTF-8 utf.shp in.geojson");
  REQUIRE(fs::exists(dir / "utf.cpg"));
  sh("zip -j utf.zip utf.shp utf.shx utf.dbf utf.prj utf.cpg");
  // The .cpg says UTF-8: the parameter does not override it.
  auto a = finished(submitted(route("shp", "utf", c.projeto, "UTF", "&encoding=CP1252"), read("utf.zip"), "utf.zip", c.owner),
                    c.owner);
  REQUIRE_MESSAGE(a.estado == "concluida", a.json);
  CHECK(a.json.find(R"("encodingOrigem":"cpg")") != std::string::npos);
  CHECK(db("select count(*) from " + std::string(kValues) + " v join projeto.geometrias g on g.id = v.geometria_id "
           "where g.camada_id = " + n(a.camada) + " and v.texto = 'Conceição'") == "1");

  // CP1252 bytes without a .cpg, read as UTF-8 because the parameter says so: refused, nothing left.
  sh("ogr2ogr -f 'ESRI Shapefile' -a_srs EPSG:31983 -lco ENCODING=CP1252 win.shp in.geojson");
  sh("zip -j win.zip win.shp win.shx win.dbf win.prj");
  std::string before = db("select count(*) from projeto.camadas");
  auto b = finished(submitted(route("shp", "win", c.projeto, "Win", "&encoding=utf-8"), read("win.zip"), "win.zip", c.owner),
                    c.owner);
  CHECK(b.estado == "falhou");
  CHECK_MESSAGE(b.mensagem.find("UTF-8") != std::string::npos, b.json);
  CHECK(db("select count(*) from projeto.camadas") == before);
  refused(*upload(route("shp", "x", c.projeto, "X", "&encoding=klingon"), read("win.zip"), "win.zip", c.owner), 400,
          "parametro_invalido", "encoding");
}

TEST_CASE_FIXTURE(ImportsFixture, "without a .prj the CRS comes from srid, and without either the import is refused at once") {
  auto c = cast();
  write("in.geojson", kLots);
  sh("ogr2ogr -f 'ESRI Shapefile' -a_srs EPSG:31983 semprj.shp in.geojson");
  sh("zip -j semprj.zip semprj.shp semprj.shx semprj.dbf semprj.cpg");
  std::string before = footprint();
  auto a = upload(route("shp", "semprj", c.projeto, "Sem prj"), read("semprj.zip"), "semprj.zip", c.owner);
  refused(*a, 400, "campo_obrigatorio", "srid");
  CHECK(footprint() == before);
  refused(*upload(route("shp", "semprj", c.projeto, "Sem prj", "&srid=1234567"), read("semprj.zip"), "semprj.zip", c.owner),
          400, "parametro_invalido");
  auto job = finished(submitted(route("shp", "semprj", c.projeto, "Sem prj", "&srid=31983"), read("semprj.zip"), "semprj.zip",
                                c.owner),
                      c.owner);
  REQUIRE_MESSAGE(job.estado == "concluida", job.json);
  CHECK(job.importadas == 3);
  // invalidas=recusar: the bow-tie is refused and listed, the others imported.
  auto strict = finished(submitted(route("shp", "estrito", c.projeto, "Estrito", "&srid=31983&invalidas=recusar"),
                                   read("semprj.zip"), "semprj.zip", c.owner),
                         c.owner);
  REQUIRE_MESSAGE(strict.estado == "concluida", strict.json);
  CHECK(strict.importadas == 2);
  CHECK(strict.recusadas == 1);
  CHECK(strict.erros == 1);
  CHECK(strict.json.find(R"("feicao":2)") != std::string::npos);
}

TEST_CASE_FIXTURE(ImportsFixture, "a corrupt or incomplete zip is refused with 400 and nothing is written") {
  auto c = cast();
  write("in.geojson", kLots);
  sh("ogr2ogr -f 'ESRI Shapefile' -a_srs EPSG:31983 lotes.shp in.geojson");
  sh("zip -j lotes.zip lotes.shp lotes.shx lotes.dbf lotes.prj");
  sh("zip -j semdbf.zip lotes.shp lotes.shx lotes.prj");
  std::string zip = read("lotes.zip");
  std::string before = footprint();
  refused(*upload(route("shp", "c1", c.projeto, "Corrompido"), zip.substr(0, zip.size() / 2), "lotes.zip", c.owner), 400,
          "parametro_invalido", "zip");
  std::string scrambled = zip;
  for (std::size_t i = 30; i < scrambled.size(); i += 7) scrambled[i] = static_cast<char>(scrambled[i] ^ 0x5a);
  CHECK(upload(route("shp", "c2", c.projeto, "Corrompido"), scrambled, "lotes.zip", c.owner)->status == 400);
  refused(*upload(route("shp", "c3", c.projeto, "Sem dbf"), read("semdbf.zip"), "semdbf.zip", c.owner), 400,
          "parametro_invalido", ".dbf");
  refused(*upload(route("shp", "c4", c.projeto, "Texto"), "isto não é um zip", "lotes.zip", c.owner), 400,
          "parametro_invalido");
  refused(*upload(route("kml", "c5", c.projeto, "Texto"), "<html></html>", "a.kml", c.owner), 400, "parametro_invalido");
  refused(*upload(route("dxf", "c6", c.projeto, "Texto", "&srid=31983"), "0\nSECTION\n2\nLIXO", "a.dxf", c.owner), 400,
          "parametro_invalido");
  CHECK(footprint() == before);
}

TEST_CASE_FIXTURE(ImportsFixture, "KML and KMZ import as point layers with their names, accents intact") {
  auto c = cast();
  write("pontos.geojson", R"({"type":"FeatureCollection","features":[
{"type":"Feature","properties":{"name":"Praça da Sé","description":"marco zero"},"geometry":{"type":"Point","coordinates":[-46.6339,-23.5503]}},
{"type":"Feature","properties":{"name":"Pátio do Colégio","description":"fundação"},"geometry":{"type":"Point","coordinates":[-46.6326,-23.5479]}}]})");
  sh("ogr2ogr -f LIBKML pontos.kmz pontos.geojson");
  sh("ogr2ogr -f KML pontos.kml pontos.geojson");
  REQUIRE(read("pontos.kmz").rfind("PK", 0) == 0);
  for (const char* file : {"pontos.kmz", "pontos.kml"}) {
    CAPTURE(file);
    auto job = finished(submitted(route("kml", file, c.projeto, file), read(file), file, c.owner), c.owner);
    REQUIRE_MESSAGE(job.estado == "concluida", job.json);
    CHECK(job.importadas == 2);
    const std::string L = n(job.camada);
    CHECK(db("select geometria from projeto.camadas where id = " + L) == "ponto");
    CHECK(db("select string_agg(v.texto, ',' order by v.texto) from " + std::string(kValues) +
             " v join projeto.geometrias g on g.id = v.geometria_id where g.camada_id = " + L + " and v.chave = 'name'") ==
          "Praça da Sé,Pátio do Colégio");
    // WGS 84 to SIRGAS 2000: the same coordinates to the centimetre.
    CHECK(db("select round(st_x(geom)::numeric, 4) || ' ' || round(st_y(geom)::numeric, 4) from projeto.geometrias g "
             "join " + std::string(kValues) + " v on v.geometria_id = g.id where g.camada_id = " + L + " and v.texto = 'Praça da Sé'") ==
          "-46.6339 -23.5503");
  }
}

TEST_CASE_FIXTURE(ImportsFixture, "a DXF becomes one layer per geometry type, TEXT as labelled points, its code page honoured") {
  auto c = cast();
  write("in.geojson", R"JSON({"type":"FeatureCollection","features":[
{"type":"Feature","properties":{"Layer":"marcos","OGR_STYLE":"LABEL(f:\"Arial\",t:\"Praça São José\",s:2g)"},"geometry":{"type":"Point","coordinates":[333010,7395010,812.5]}},
{"type":"Feature","properties":{"Layer":"marcos"},"geometry":{"type":"Point","coordinates":[333020,7395020]}},
{"type":"Feature","properties":{"Layer":"ruas"},"geometry":{"type":"LineString","coordinates":[[333000,7395000],[333100,7395000]]}},
{"type":"Feature","properties":{"Layer":"lotes"},"geometry":{"type":"Polygon","coordinates":[[[333000,7395000],[333050,7395000],[333050,7395050],[333000,7395050],[333000,7395000]]]}}]})JSON");
  sh("ogr2ogr -f DXF quadra.dxf in.geojson");
  std::string dxf = read("quadra.dxf");
  REQUIRE(dxf.find("ANSI_1252") != std::string::npos);     // $DWGCODEPAGE
  REQUIRE(dxf.find("Pra\xE7" "a") != std::string::npos);    // the text in CP1252
  refused(*upload(route("dxf", "q0", c.projeto, "Quadra"), dxf, "quadra.dxf", c.owner), 400, "campo_obrigatorio", "srid");

  auto id = submitted(route("dxf", "q1", c.projeto, "Quadra", "&srid=31983&xdzs=true"), dxf, "quadra.dxf", c.owner);
  auto job = finished(id, c.owner);
  REQUIRE_MESSAGE(job.estado == "concluida", job.json);
  REQUIRE(job.camadas.size() == 3);
  CHECK(db("select string_agg(c.nome || ':' || c.geometria || ':' || (select count(*) from projeto.geometrias g "
           "where g.camada_id = c.id), ',' order by c.nome) from projeto.camadas c where c.projeto_id = " + n(c.projeto)) ==
        "Quadra (linhas):linha:1,Quadra (polígonos):poligono:1,Quadra (pontos):ponto:2");
  CHECK(db("select v.texto from " + std::string(kValues) + " v join projeto.geometrias g on g.id = v.geometria_id "
           "join projeto.camadas c on c.id = g.camada_id where c.nome = 'Quadra (pontos)' and v.chave = 'texto'") ==
        "Praça São José");
  CHECK(db("select string_agg(distinct v.texto, ',') from " + std::string(kValues) + " v where v.chave = 'camada_dxf'") ==
        "lotes,marcos,ruas");
  // xdzs=true: the labelled point's Z kept as its cota (the geometries are 2D); the layers
  // without any Z get no such field.
  CHECK(db("select string_agg(c.nome || '=' || v.texto, ',') from " + std::string(kValues) +
           " v join projeto.geometrias g on g.id = v.geometria_id join projeto.camadas c on c.id = g.camada_id "
           "where v.chave = 'cota'") == "Quadra (pontos)=812.5");
  CHECK(db("select bool_and(st_ndims(geom) = 2) from projeto.geometrias") == "t");

  auto a = get("/importacoes/dxf/" + n(id), c.owner);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(std::string_view(a->json()["tipo"]) == "dxf");
  CHECK(a->json()["camadas"].get_array().size() == 3);
  CHECK(get("/importacoes/dxf/" + n(id), c.stranger)->status == 404);  // another user's job
  refused(*get("/importacoes/dxf/1;drop", c.owner), 400, "parametro_invalido");
  auto shp = finished(submitted(route("kml", "k", c.projeto, "K"),
                                R"(<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>a</name><Point><coordinates>-46,-23</coordinates></Point></Placemark></Document></kml>)",
                                "a.kml", c.owner),
                      c.owner);
  REQUIRE(shp.estado == "concluida");
  // A job of another type is not a DXF job.
  refused(*get("/importacoes/dxf/" + db("select max(id) from projeto.importacoes where tipo = 'kml'"), c.owner), 404,
          "nao_encontrado");
}

TEST_CASE_FIXTURE(ImportsFixture, "a 200,000-feature shapefile imports completely") {
  auto c = cast();
  std::string csv = "id,nome,valor,x,y\n";
  csv.reserve(200000 * 48);
  for (int i = 0; i < 200000; ++i)
    csv += std::to_string(i) + ",ponto " + std::to_string(i) + "," + std::to_string(i % 1000) + ".5," +
           std::to_string(-47.0 + (i % 500) * 0.001) + "," + std::to_string(-23.0 - (i / 500) * 0.001) + "\n";
  write("grande.csv", csv);
  sh("ogr2ogr -f 'ESRI Shapefile' -a_srs EPSG:4674 -oo X_POSSIBLE_NAMES=x -oo Y_POSSIBLE_NAMES=y "
     "-oo AUTODETECT_TYPE=YES grande.shp grande.csv");
  sh("zip -j grande.zip grande.shp grande.shx grande.dbf grande.prj grande.cpg");
  auto job = finished(submitted(route("shp", "grande", c.projeto, "Grande"), read("grande.zip"), "grande.zip", c.owner),
                      c.owner);
  REQUIRE_MESSAGE(job.estado == "concluida", job.json);
  CHECK(job.lidas == 200000);
  CHECK(job.importadas == 200000);
  const std::string L = n(job.camada);
  CHECK(db("select count(*) from projeto.geometrias where camada_id = " + L) == "200000");
  // The layer's table: a row per geometry, a column per field.
  CHECK(db("select count(*) || '/' || sum(num_nonnulls(" + db("select string_agg('c_' || k.id, ', ') from projeto.campos k "
           "join projeto.formularios f on f.id = k.formulario_id where f.camada_id = " + L) + ")) from camadas.l" + L) ==
        "200000/1000000");  // id, nome, valor, x, y
  CHECK(db("select v.valor #>> '{}' from projeto.geometrias g cross join lateral projeto.valores_de(g.id) v "
           "join projeto.campos k on k.id = v.campo_id where g.camada_id = " + L + " and k.chave = 'nome' "
           "and st_x(g.geom) = -47.0 and st_y(g.geom) = -23.0") == "ponto 0");
}
