// A GeoTIFF sent through a signed link in parts (PUT /importar/tiff/envio with parte=1, 2,
// ... and ultima=true on the last): a file larger than one request's limit arrives whole and
// becomes a tiff layer; parts out of order, altered links and a last part that does not make
// a GeoTIFF are refused without spending the link; two copies of one part racing leave one.
#include <thread>

#include "rasters_fixture.hpp"

using namespace cadastre;
using test::Cast;
using test::RastersFixture;
using test::refused;

namespace {

const httplib::Headers kNoSession;

// Cell (c, r) of the large GeoTIFF (test::utm23_geotiff, 10 m cells).
float value_at(int c, int r) { return static_cast<float>((r * 7 + c * 3) % 1000); }

std::string part(const std::string& link, int n, bool last = false) {
  return link + "&parte=" + std::to_string(n) + (last ? "&ultima=true" : "");
}

std::string key_of(const std::string& link) { return link.substr(link.find("chave=") + 6, 64); }

}  // namespace

TEST_CASE_FIXTURE(RastersFixture,
                  "a GeoTIFF larger than one request's limit arrives through a signed link in parts and becomes a "
                  "tiff layer with the file's values") {
  Cast c = cast();
  std::int64_t p = project(c);
  auto cred = get("/importar/tiff/credentials?idProjeto=" + std::to_string(p) + "&nomeCamada=Ortofoto", c.owner);
  REQUIRE_MESSAGE(cred->status == 200, cred->body);
  CHECK(int64_t(cred->json()["tamanhoMaximo"]) == (32 << 20));
  CHECK(int64_t(cred->json()["tamanhoMaximoEmPartes"]) == (std::int64_t{4} << 30));
  const std::string link = cred->text("caminho");

  // 3,000 × 3,000 Float32: about 36 MB, more than the 32 MB one request may carry.
  const std::string tif = test::utm23_geotiff(3000, 3000, 10, value_at);
  REQUIRE(tif.size() > (32u << 20));
  refused(*raw("PUT", link, kNoSession, tif, "image/tiff"), 413, "corpo_muito_grande");

  const std::size_t piece = 16u << 20;
  const std::string a = tif.substr(0, piece), b = tif.substr(piece, piece), rest = tif.substr(2 * piece);
  auto one = raw("PUT", part(link, 1), kNoSession, a, "image/tiff");
  REQUIRE_MESSAGE(one->status == 200, one->body);
  CHECK(int64_t(one->json()["parte"]) == 1);
  CHECK(int64_t(one->json()["recebidos"]) == int64_t(piece));
  CHECK(int64_t(one->json()["proximaParte"]) == 2);
  REQUIRE(raw("PUT", part(link, 2), kNoSession, b, "image/tiff")->status == 200);
  // Part 2 again (a retry after a lost answer): it replaces the first copy.
  auto again = raw("PUT", part(link, 2), kNoSession, b, "image/tiff");
  REQUIRE_MESSAGE(again->status == 200, again->body);
  CHECK(int64_t(again->json()["recebidos"]) == int64_t(2 * piece));
  CHECK(db("select partes || ' ' || recebidos || ' ' || (usada_em is null) from projeto.tiff_credenciais where chave = '" +
           key_of(link) + "'") == "2 " + std::to_string(2 * piece) + " true");

  auto sent = raw("PUT", part(link, 3, true), kNoSession, rest, "image/tiff");
  REQUIRE_MESSAGE(sent->status == 202, sent->body);
  auto done = finished(int64_t(sent->json()["idImportacao"]), c.owner);
  REQUIRE_MESSAGE(done->text("estado") == "concluida", done->body);
  std::int64_t layer = int64_t(done->json()["idCamada"]);
  CHECK(db("select nome || ' ' || tipo from projeto.camadas where id = " + std::to_string(layer)) == "Ortofoto tiff");
  CHECK(db("select recebidos from projeto.tiff_credenciais where chave = '" + key_of(link) + "' and usada_em is not null") ==
        std::to_string(tif.size()));
  // The partial file became the layer's: nothing is left waiting.
  CHECK(std::filesystem::is_empty(test::raster_root() + "/alfa/importacoes/tiff"));

  // The values are the file's, far into the last part.
  for (auto [col, row] : {std::pair{2500, 2900}, std::pair{10, 20}, std::pair{1500, 1400}}) {
    auto [x, y] = test::utm23_to_lonlat(300000 + 10 * col + 5, 7400000 - 10 * row - 5);
    auto px = get("/valorPixel/" + std::to_string(layer) + "?x=" + test::number(x) + "&y=" + test::number(y), c.owner);
    REQUIRE_MESSAGE(px->status == 200, px->body);
    CHECK(int64_t(px->json()["coluna"]) == col);
    CHECK(int64_t(px->json()["linha"]) == row);
    CHECK(double(px->json()["valores"].at(0)["valor"]) == doctest::Approx(value_at(col, row)));
  }
  // Spent: any part now is refused.
  refused(*raw("PUT", part(link, 3, true), kNoSession, rest, "image/tiff"), 403, "acesso_negado", "já usado");
}

TEST_CASE_FIXTURE(RastersFixture,
                  "parts out of order, altered links and a last part that does not make a GeoTIFF are refused "
                  "without spending the link; two copies of one part racing leave one") {
  Cast c = cast();
  std::int64_t p = project(c);
  auto cred = get("/importar/tiff/credentials?idProjeto=" + std::to_string(p) + "&nomeCamada=Declividade", c.owner);
  REQUIRE(cred->status == 200);
  const std::string link = cred->text("caminho");
  const std::string row = "select partes || ' ' || recebidos from projeto.tiff_credenciais where chave = '" +
                          key_of(link) + "'";
  const std::string tif = test::make_geotiff();
  const std::size_t third = tif.size() / 3;
  const std::string a = tif.substr(0, third), b = tif.substr(third, third), rest = tif.substr(2 * third);

  // Bad parameters: 400 naming the field.
  refused(*raw("PUT", link + "&parte=0", kNoSession, a, "image/tiff"), 400, "parametro_invalido", "parte");
  refused(*raw("PUT", link + "&parte=1;drop", kNoSession, a, "image/tiff"), 400, "parametro_invalido", "parte");
  refused(*raw("PUT", link + "&ultima=true", kNoSession, a, "image/tiff"), 400, "parametro_invalido", "ultima");
  refused(*raw("PUT", part(link, 1), kNoSession, "", "image/tiff"), 400, "parametro_invalido", "vazio");
  // An altered link.
  std::string altered = link;
  altered.replace(altered.find("chave=") + 6, 64, std::string(64, 'b'));
  refused(*raw("PUT", part(altered, 1), kNoSession, a, "image/tiff"), 403, "acesso_negado");
  // Out of order: nothing recorded.
  refused(*raw("PUT", part(link, 2), kNoSession, b, "image/tiff"), 409, "transicao_invalida", "próxima é a 1");
  CHECK(db(row) == "0 0");

  // Two copies of part 1 at once: the row's lock takes them one at a time; the second
  // replaces the first, so one copy is left.
  std::unique_ptr<test::Answer> first, second;
  std::thread t1([&] { first = raw("PUT", part(link, 1), kNoSession, a, "image/tiff"); });
  std::thread t2([&] { second = raw("PUT", part(link, 1), kNoSession, a, "image/tiff"); });
  t1.join();
  t2.join();
  CHECK_MESSAGE(first->status == 200, first->body);
  CHECK_MESSAGE(second->status == 200, second->body);
  CHECK(db(row) == "1 " + std::to_string(a.size()));
  CHECK(std::filesystem::file_size(test::raster_root() + "/alfa/importacoes/tiff/envio-" + key_of(link) + ".parte") ==
        a.size());
  refused(*raw("PUT", part(link, 3), kNoSession, rest, "image/tiff"), 409, "transicao_invalida", "parte");

  REQUIRE(raw("PUT", part(link, 2), kNoSession, b, "image/tiff")->status == 200);
  // A last part that does not complete a GeoTIFF: 400, and the link is not spent.
  refused(*raw("PUT", part(link, 3, true), kNoSession, "não é o fim do arquivo", "image/tiff"), 400,
          "parametro_invalido");
  CHECK(db("select count(*) from projeto.tiff_credenciais where usada_em is null and chave = '" + key_of(link) + "'") ==
        "1");
  CHECK(db("select count(*) from projeto.importacoes") == "0");
  CHECK(db("select count(*) from projeto.camadas") == "0");
  // The right last part, sent again, replaces it.
  auto sent = raw("PUT", part(link, 3, true), kNoSession, rest, "image/tiff");
  REQUIRE_MESSAGE(sent->status == 202, sent->body);
  auto done = finished(int64_t(sent->json()["idImportacao"]), c.owner);
  REQUIRE_MESSAGE(done->text("estado") == "concluida", done->body);
  CHECK(db("select count(*) from projeto.camadas where tipo = 'tiff' and nome = 'Declividade'") == "1");
}
