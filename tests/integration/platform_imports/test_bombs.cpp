// Decompression bombs and oversize declarations, made here with real tools (Python's
// zipfile, ogr2ogr, zip): each is refused before GDAL inflates or reads it, with 413
// naming the limit (defaults of cadastre/limits.hpp) or 403 cota_excedida, nothing is
// written, and the peak memory of the process (the test and the platform in it) grows by
// far less than the bomb would take to decode.
#include <doctest/doctest.h>

#include "integration/platform_imports/imports_fixture.hpp"
#include "support/memory.hpp"

using namespace cadastre::test;

namespace {

// Python writing a zip of one entry made of `chunk` repeated `times` (deflated), streamed.
std::string python_zip(const std::string& zip, const std::string& entry, const std::string& head,
                       const std::string& chunk, long times, const std::string& tail) {
  return "python3 -c \"import zipfile\n"
         "with zipfile.ZipFile('" + zip + "', 'w', zipfile.ZIP_DEFLATED) as z:\n"
         "  with z.open('" + entry + "', 'w', force_zip64=True) as f:\n"
         "    f.write(b'" + head + "')\n"
         "    c = b'" + chunk + "' * 4096\n"
         "    for i in range(" + std::to_string(times / 4096) + "): f.write(c)\n"
         "    f.write(b'" + tail + "')\n\"";
}

const std::string kKmlHead =
    "<?xml version=\\\"1.0\\\"?><kml xmlns=\\\"http://www.opengis.net/kml/2.2\\\"><Document>";
const std::string kPlacemark = "<Placemark><Point><coordinates>-47.06,-22.9</coordinates></Point></Placemark>";

}  // namespace

TEST_CASE_FIXTURE(ImportsFixture, "a KMZ bomb (400 MB of KML in 400 KB) is refused from its zip directory, memory flat") {
  auto c = cast();
  sh(python_zip("bomba.kmz", "doc.kml", kKmlHead, std::string(100, ' '), 4'000'000, "</Document></kml>"));
  const std::string kmz = read("bomba.kmz");
  REQUIRE(kmz.size() < (1u << 20));
  const std::string before = footprint();
  reset_peak_memory();
  const std::int64_t start = resident_memory_mb();
  auto a = upload(route("kml", "bomba", c.projeto, "Bomba"), kmz, "bomba.kmz", c.owner);
  refused(*a, 413, "corpo_muito_grande", "vezes");  // the ratio of an all-alike entry
  CHECK(peak_memory_mb() - start < 64);              // decoding it took ~1.7 GB on the probe
  CHECK(footprint() == before);
}

TEST_CASE_FIXTURE(ImportsFixture, "a KMZ whose KML is over the KML limit is refused before LIBKML parses it") {
  auto c = cast();
  // 80 MB of real placemarks (each point its own), zipped: within the zip limits, over 64 MB of KML.
  sh("python3 -c \"import zipfile\n"
     "with zipfile.ZipFile('grande.kmz', 'w', zipfile.ZIP_DEFLATED) as z:\n"
     "  with z.open('doc.kml', 'w', force_zip64=True) as f:\n"
     "    f.write(b'" + kKmlHead + "')\n"
     "    for i in range(1000000): f.write(b'<Placemark><name>%d</name><Point><coordinates>%f,-22.9</coordinates></Point></Placemark>' % (i, -47 + i * 1e-6))\n"
     "    f.write(b'</Document></kml>')\n\"");
  const std::string kmz = read("grande.kmz");
  const std::string before = footprint();
  reset_peak_memory();
  const std::int64_t start = resident_memory_mb();
  auto a = upload(route("kml", "grande", c.projeto, "Grande"), kmz, "grande.kmz", c.owner);
  refused(*a, 413, "corpo_muito_grande", "o limite de um KML é 64 MB");
  CHECK(peak_memory_mb() - start < 64 + static_cast<std::int64_t>(kmz.size() >> 20) * 3);
  CHECK(footprint() == before);
}

TEST_CASE_FIXTURE(ImportsFixture, "a shapefile with more fields than the limit is refused from its DBF header") {
  auto c = cast();
  std::string header = "x,y", row = "-47.0,-22.9";
  for (int i = 0; i < 501; ++i) header += ",c" + std::to_string(i), row += ",v";
  write("campos.csv", header + "\n" + row + "\n");
  sh("ogr2ogr -f 'ESRI Shapefile' -a_srs EPSG:4674 -oo X_POSSIBLE_NAMES=x -oo Y_POSSIBLE_NAMES=y campos.shp campos.csv");
  sh("zip -j campos.zip campos.shp campos.shx campos.dbf campos.prj");
  const std::string before = footprint();
  auto a = upload(route("shp", "campos", c.projeto, "Campos"), read("campos.zip"), "campos.zip", c.owner);
  refused(*a, 413, "corpo_muito_grande", "o arquivo tem 503 campos; o limite é 500");
  CHECK(footprint() == before);
}

TEST_CASE_FIXTURE(ImportsFixture, "the DBF bomb of the probe passes no storage quota: refused before a value is written") {
  auto c = cast();
  // 200 points × 250 fields × 254 characters: 12.7 MB of attributes in a zip of a few KB,
  // about 60 MB once stored with its indexes. The license has 20 MB.
  std::string header = "x,y", row;
  for (int i = 0; i < 250; ++i) header += ",c" + std::to_string(i), row += "," + std::string(254, 'x');
  std::string csv = header + "\n";
  for (int p = 0; p < 200; ++p) csv += std::to_string(-47.0 + p * 1e-4) + ",-22.9" + row + "\n";
  write("dbf.csv", csv);
  sh("ogr2ogr -f 'ESRI Shapefile' -a_srs EPSG:4674 -oo X_POSSIBLE_NAMES=x -oo Y_POSSIBLE_NAMES=y dbf.shp dbf.csv");
  sh("zip -j dbf.zip dbf.shp dbf.shx dbf.dbf dbf.prj");
  const std::string zip = read("dbf.zip");
  REQUIRE(zip.size() < 200 * 1024);
  platform_db("insert into plataforma.licencas (tenant_id, plano, status, inicio, fim, max_usuarios, "
              "max_armazenamento_mb) values (" + n(tenant_id("alfa")) +
              ", 'basico_mensal', 'ativa', current_date - 1, current_date + 30, 50, 20)");
  auto job = finished(submitted(route("shp", "dbf", c.projeto, "DBF"), zip, "dbf.zip", c.owner), c.owner);
  CHECK(job.estado == "falhou");
  CHECK_MESSAGE(job.mensagem.find("cota de armazenamento da licença atingida (20 MB)") != std::string::npos, job.json);
  CHECK(db("select count(*) from projeto.camadas") == "0");
  CHECK(db("select count(*) from " + std::string(kValues) + " v") == "0");
  // With 10 MB, the 12.7 MB the zip declares is refused at the door, before a job exists.
  platform_db("update plataforma.licencas set max_armazenamento_mb = 10 where tenant_id = " + n(tenant_id("alfa")));
  refused(*upload(route("shp", "dbf-2", c.projeto, "DBF"), zip, "dbf.zip", c.owner), 403, "cota_excedida", "10 MB");
  CHECK(db("select count(*) from projeto.importacoes where codigo = 'dbf-2'") == "0");
}

TEST_CASE_FIXTURE(ImportsFixture, "a DXF block bomb (a 2,000-vertex block inserted 3,000 times) stops at the vertex budget") {
  auto c = cast();
  // GDAL writes the DXF (a block and 3,000 points); the points then become insertions of
  // the block. ogr2ogr expands the 325 KB file into 6 million vertices (247 MB of GeoJSON).
  sh("python3 -c \"import json\n"
     "line = {'type': 'Feature', 'properties': {'BlockName': 'B'}, 'geometry': {'type': 'LineString', "
     "'coordinates': [[i * 0.01, (i % 2) * 0.01] for i in range(2000)]}}\n"
     "json.dump({'type': 'FeatureCollection', 'features': [line]}, open('blocks.geojson', 'w'))\n"
     "pts = [{'type': 'Feature', 'properties': {'BlockName': 'B'}, 'geometry': {'type': 'Point', 'coordinates': [300000 + k, 7400000]}} "
     "for k in range(3000)]\n"
     "json.dump({'type': 'FeatureCollection', 'features': pts}, open('entities.geojson', 'w'))\"");
  sh("ogr2ogr -f GPKG blocos.gpkg blocks.geojson -nln blocks && ogr2ogr -update -f GPKG blocos.gpkg entities.geojson "
     "-nln entities && ogr2ogr -f DXF blocos.dxf blocos.gpkg");
  sh("python3 -c \"s = open('blocos.dxf').read()\n"
     "s = s.replace('100\\nAcDbBlockBegin\\n  2\\n\\n', '100\\nAcDbBlockBegin\\n  2\\nB\\n', 1).replace('  3\\n\\n', '  3\\nB\\n', 1)\n"
     "s = s.replace('  0\\nPOINT\\n', '  0\\nINSERT\\n').replace('100\\nAcDbPoint\\n', '100\\nAcDbBlockReference\\n  2\\nB\\n')\n"
     "open('bomba.dxf', 'w').write(s)\"");
  const std::string dxf = read("bomba.dxf");
  REQUIRE(dxf.size() < 400 * 1024);
  REQUIRE(dxf.find("AcDbBlockReference") != std::string::npos);
  reset_peak_memory();
  const std::int64_t start = resident_memory_mb();
  auto job = finished(submitted(route("dxf", "blocos", c.projeto, "Blocos", "&srid=31983"), dxf, "bomba.dxf", c.owner),
                      c.owner);
  CHECK(job.estado == "falhou");
  CHECK_MESSAGE(job.mensagem == "os vértices do arquivo: acima do limite de 1000000", job.json);
  CHECK(job.lidas <= 501);  // stopped after 500 insertions of 2,000 vertices
  CHECK(peak_memory_mb() - start < 128);
  CHECK(db("select count(*) from projeto.camadas") + "/" + db("select count(*) from " + std::string(kValues) + " v") ==
        "0/0");
}

TEST_CASE_FIXTURE(ImportsFixture, "a zip that lies about its sizes is refused: its entries are inflated and counted first") {
  auto c = cast();
  // 100 MB of KML declared as 1 KB (GDAL's /vsizip/ would read it to its real end).
  sh("python3 -c \"import zipfile, struct\n"
     "with zipfile.ZipFile('mentira.kmz', 'w', zipfile.ZIP_DEFLATED) as z:\n"
     "  z.writestr('doc.kml', b'<kml>' + b' ' * 100000000 + b'</kml>')\n"
     "b = bytearray(open('mentira.kmz', 'rb').read())\n"
     "b[22:26] = struct.pack('<I', 1000)\n"
     "i = b.find(b'PK\\x01\\x02')\n"
     "b[i + 24:i + 28] = struct.pack('<I', 1000)\n"
     "open('mentira.kmz', 'wb').write(b)\"");
  const std::string kmz = read("mentira.kmz");
  const std::string before = footprint();
  reset_peak_memory();
  const std::int64_t start = resident_memory_mb();
  refused(*upload(route("kml", "mentira", c.projeto, "Mentira"), kmz, "mentira.kmz", c.owner), 413,
          "corpo_muito_grande", "declara 1000 bytes mas se expande além disso");
  CHECK(peak_memory_mb() - start < 64);
  CHECK(footprint() == before);
}

// GDAL's GeoJSON driver holds the whole document as json-c objects, about 1 KB per vertex
// (+1.1 GB measured for this document when GDAL read it): GeoJSON's vertices are counted
// with simdjson first, and more than 500,000 are refused before GDAL sees the document.
TEST_CASE_FIXTURE(ImportsFixture, "a GeoJSON of 1.1 million vertices (PVG import or conversion) is refused before GDAL reads it") {
  auto c = cast();
  std::string pvg = R"({"type":"FeatureCollection","pvg":{"municipio":"Campinas","versao":"1","data":"2026-01-15",)"
                    R"("unidade":"R$/m²"},"features":[{"type":"Feature","properties":{"codigo":"1","valor_m2":10},)"
                    R"("geometry":{"type":"LineString","coordinates":[)";
  pvg.reserve(24u << 20);
  for (int i = 0; i < 1'100'000; ++i) pvg += (i ? ",[" : "[") + std::to_string(-47.0 + i * 1e-7).substr(0, 11) + ",-22.9]";
  pvg += "]}}]}";
  REQUIRE(pvg.size() < (32u << 20));
  const std::string before = footprint();
  reset_peak_memory();
  const std::int64_t start = resident_memory_mb();
  refused(*upload(route("pvg", "vertices", c.projeto, "Vértices", "&srid=4674"), pvg, "pvg.geojson", c.owner), 413,
          "corpo_muito_grande", "o GeoJSON tem 1100000 vértices; o limite é 500000");
  refused(*post("/converter/geojson?targetType=kml", pvg, c.owner), 413, "corpo_muito_grande", "1100000 vértices");
  const std::int64_t grown = peak_memory_mb() - start;
  MESSAGE("pico de memória: +" << grown << " MB para " << (pvg.size() >> 20) << " MB de GeoJSON");
  // Everything included (the test's own copy, the client's, the request body, its multipart
  // part, simdjson's tape): under 16 times the document, where GDAL alone took 60 times.
  CHECK(grown < 16 * static_cast<std::int64_t>(pvg.size() >> 20));
  CHECK(footprint() == before);
}
