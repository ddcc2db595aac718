// Presigned links (GET /arquivos/fotos/presigned-url → GET /arquivos/fotos?url=&expira=
// &assinatura=), thumbnails (GET /arquivos/fotos/:id?miniatura=true|tamanho=), photo
// deletion (DELETE /fotos/:midiaId, /fotos/nome/:fileName), company logos and user photos
// (linked from the platform database), and the templates.
#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <thread>

#include "files_fixture.hpp"
#include "integration/platform/held_job.hpp"
#include "platform/files/signing.hpp"
#include "platform/jobs/jobs.hpp"
#include "service/tenancy.hpp"
#include "support/memory.hpp"

using namespace cadastre;
using test::FilesFixture;
using test::refused;
using test::peak_memory_mb;
using test::reset_peak_memory;
using test::resident_memory_mb;

TEST_CASE_FIXTURE(FilesFixture, "a presigned link serves without a session until it expires; tampered or expired → 403") {
  auto c = cast();
  std::string png = test::image(10, 10);
  auto a = uploaded("/fotos", png, "a.png", c.editor, {{"idGeometria", n(c.geometria)}});
  std::string key(std::string_view(a->json()["chave"]));

  auto s = get("/arquivos/fotos/presigned-url?url=" + key, c.reader);
  REQUIRE_MESSAGE(s->status == 200, s->body);
  std::string path(std::string_view(s->json()["caminho"]));
  std::int64_t expira = int64_t(s->json()["expira"]);
  CHECK(expira > std::time(nullptr));
  CHECK(std::string(std::string_view(s->json()["url"])).ends_with(path));

  // No session: the signature is the credential.
  auto served = request("GET", path, {});
  REQUIRE_MESSAGE(served->status == 200, served->body);
  CHECK(served->body == png);

  // Tampered: another signature, another expiry, another key.
  std::string sig = path.substr(path.find("assinatura=") + 11);
  std::string flipped = sig;
  flipped[0] = flipped[0] == 'a' ? 'b' : 'a';
  refused(*request("GET", path.substr(0, path.find("assinatura=") + 11) + flipped, {}), 403, "acesso_negado");
  std::string later = "/arquivos/fotos?url=" + key + "&expira=" + n(expira + 3600) + "&assinatura=" + sig;
  refused(*request("GET", later, {}), 403, "acesso_negado");
  auto other = uploaded("/fotos", png, "b.png", c.editor, {{"idGeometria", n(c.geometria)}});
  std::string other_key(std::string_view(other->json()["chave"]));
  refused(*request("GET", "/arquivos/fotos?url=" + other_key + "&expira=" + n(expira) + "&assinatura=" + sig, {}),
          403, "acesso_negado");
  // Expired: a correct signature over a past instant.
  std::string tenant = platform_db("select id from plataforma.tenants where slug = 'alfa'");
  std::int64_t past = std::time(nullptr) - 10;
  std::string old_sig = platform::files::sign("segredo-dos-testes", std::stoll(tenant), key, past);
  refused(*request("GET", "/arquivos/fotos?url=" + key + "&expira=" + n(past) + "&assinatura=" + old_sig, {}), 403,
          "acesso_negado", "expirado");
  // Half a signature, or none and no session.
  refused(*request("GET", "/arquivos/fotos?url=" + key + "&expira=" + n(expira), {}), 400, "campo_obrigatorio",
          "assinatura");
  refused(*request("GET", "/arquivos/fotos?url=" + key, {}), 401, "nao_autenticado");
  // With a session, the key must be of the caller's tenant and the record visible.
  refused(*get("/arquivos/fotos?url=" + key, c.beta), 404, "nao_encontrado");
  refused(*get("/arquivos/fotos?url=" + key, c.stranger), 404, "nao_encontrado");
  refused(*get("/arquivos/fotos/presigned-url?url=" + key, c.stranger), 404, "nao_encontrado");
  refused(*get("/arquivos/fotos/presigned-url?url=" + key, c.beta), 404, "nao_encontrado");
  refused(*request("GET", "/arquivos/fotos/presigned-url?url=" + key, {}), 401, "nao_autenticado");
  // A deleted file's link dies with it.
  CHECK(del("/fotos/" + n(int64_t(a->json()["id"])), c.editor)->status == 204);
  refused(*request("GET", path, {}), 404, "nao_encontrado");
}

TEST_CASE_FIXTURE(FilesFixture, "a thumbnail is a PNG bounded to the asked size, keeping the proportions") {
  auto c = cast();
  auto png = uploaded("/fotos", test::image(800, 600), "grande.png", c.editor, {{"idGeometria", n(c.geometria)}});
  auto jpg = uploaded("/fotos", test::image(300, 900, "JPEG"), "alta.jpg", c.editor, {{"idGeometria", n(c.geometria)}});
  std::string p = "/arquivos/fotos/" + n(int64_t(png->json()["id"]));
  std::string j = "/arquivos/fotos/" + n(int64_t(jpg->json()["id"]));

  auto t = get(p + "?miniatura=true", c.reader);
  REQUIRE_MESSAGE(t->status == 200, t->body);
  CHECK(t->content_type == "image/png");
  CHECK(t->body.rfind("\x89PNG", 0) == 0);
  CHECK(test::size_of(t->body) == std::pair{256, 192});
  auto small = get(j + "?tamanho=90", c.reader);
  REQUIRE_MESSAGE(small->status == 200, small->body);
  CHECK(test::size_of(small->body) == std::pair{30, 90});
  // Never scaled up; the original without the parameters.
  auto tiny = uploaded("/fotos", test::image(20, 10), "p.png", c.editor, {{"idGeometria", n(c.geometria)}});
  CHECK(test::size_of(get("/arquivos/fotos/" + n(int64_t(tiny->json()["id"])) + "?tamanho=500", c.reader)->body) ==
        std::pair{20, 10});
  CHECK(test::size_of(get(p, c.reader)->body) == std::pair{800, 600});

  // PNG by its signature, but not a readable image: stored, served as is, no thumbnail.
  auto broken = uploaded("/fotos", std::string("\x89PNG\r\n\x1a\n", 8) + "lixo", "quebrada.png", c.editor,
                         {{"idGeometria", n(c.geometria)}});
  refused(*get("/arquivos/fotos/" + n(int64_t(broken->json()["id"])) + "?miniatura=true", c.reader), 422,
          "entidade_improcessavel");
  refused(*get(p + "?tamanho=5", c.reader), 400, "parametro_invalido", "tamanho");
  refused(*get(p + "?miniatura=talvez", c.reader), 400, "parametro_invalido", "miniatura");
  refused(*get("/arquivos/fotos/0", c.reader), 400, "parametro_invalido");
  guarded(c, "GET", p + "?miniatura=true", false);
}

TEST_CASE_FIXTURE(FilesFixture, "photos are deleted by id or by stored name, with their files, by an editor") {
  auto c = cast();
  auto a = uploaded("/fotos", test::image(8, 8), "a.png", c.editor, {{"idGeometria", n(c.geometria)}});
  auto b = uploaded("/fotos", test::image(8, 8), "b.png", c.editor, {{"idGeometria", n(c.geometria)}});
  auto doc = uploaded("/arquivos/" + n(c.geometria) + "/files/upload?tipo=geometria", "%PDF-1.4", "d.pdf", c.editor);
  std::string a_id = n(int64_t(a->json()["id"]));
  std::string b_key(std::string_view(b->json()["chave"]));
  auto dir = std::filesystem::path(test::files_root()) / "alfa" / "camadas" / n(c.camada) / "arquivos";

  guarded(c, "DELETE", "/fotos/" + a_id, true);
  guarded(c, "DELETE", "/fotos/nome/" + b_key, true);
  // Not a photo: the PDF is a file of the geometry, deleted through /arquivos.
  refused(*del("/fotos/" + n(int64_t(doc->json()["id"])), c.editor), 404, "nao_encontrado");
  refused(*del("/fotos/nome/" + std::string(std::string_view(doc->json()["chave"])), c.editor), 404, "nao_encontrado");

  CHECK(del("/fotos/" + a_id, c.editor)->status == 204);
  CHECK(!std::filesystem::exists(dir / std::string(std::string_view(a->json()["chave"]))));
  CHECK(del("/fotos/nome/" + b_key, c.editor)->status == 204);
  CHECK(!std::filesystem::exists(dir / b_key));
  CHECK(db("select count(*) from projeto.arquivos where finalidade = 'foto'") == "0");
  refused(*del("/fotos/nome/" + b_key, c.editor), 404, "nao_encontrado");
}

TEST_CASE_FIXTURE(FilesFixture, "every file route refuses no session, another tenant, no share and a reader's write") {
  auto c = cast();
  auto a = uploaded("/arquivos/" + n(c.camada) + "/files/upload?tipo=camada", test::image(8, 8), "a.png", c.owner);
  std::string id = n(int64_t(a->json()["id"]));
  guarded(c, "UPLOAD", "/arquivos/" + n(c.camada) + "/files/upload?tipo=camada", true);
  guarded(c, "UPLOAD", "/arquivos/" + n(c.geometria) + "/files/upload?tipo=geometria", true);
  guarded(c, "UPLOAD", "/arquivos/projeto/" + n(c.projeto) + "/files/upload", true);
  guarded(c, "GET", "/arquivos/" + id, false);
  guarded(c, "PUT", "/arquivos/" + id, true, R"({"nome":"b.png"})");
  guarded(c, "GET", "/arquivos/fotos/" + id, false);
  guarded(c, "GET", "/geometrias/arquivos/" + n(c.geometria), false);
  guarded(c, "DELETE", "/arquivos/" + id, true);
  // POST /fotos names its geometry in the form.
  auto photo = [&](const httplib::Headers& h) {
    return upload("/fotos", test::image(8, 8), "a.png", h, {{"idGeometria", n(c.geometria)}});
  };
  refused(*photo({}), 401, "nao_autenticado");
  refused(*photo(headers(c.beta)), 404, "nao_encontrado");
  refused(*photo(headers(c.stranger)), 404, "nao_encontrado");
  refused(*photo(headers(c.reader)), 403, "acesso_negado");
  CHECK(db("select count(*) from projeto.arquivos") == "1");
}

TEST_CASE_FIXTURE(FilesFixture, "a company logo and a user photo are images linked from the platform database") {
  auto c = cast();
  auto chefe = signed_in("chefe@alfa.gov.br", true);
  std::string empresa = platform_db("select id from plataforma.empresas where tenant_id = "
                                    "(select id from plataforma.tenants where slug = 'alfa')");
  if (empresa.empty())
    empresa = platform_db("insert into plataforma.empresas (nome, tenant_id) select 'Prefeitura', id from "
                          "plataforma.tenants where slug = 'alfa' returning id");
  const std::string logo = "/arquivos/empresas/" + empresa + "/logo";

  auto a = uploaded(logo + "?tipo=png", test::image(64, 32), "logo.png", chefe);
  std::string key(std::string_view(a->json()["chave"]));
  CHECK(std::string_view(a->json()["finalidade"]) == "logo");
  CHECK(platform_db("select logo from plataforma.empresas where id = " + empresa) == "/arquivos/fotos?url=" + key);
  CHECK(std::filesystem::exists(std::filesystem::path(test::files_root()) / "alfa" / "plataforma" / key));
  // Any session of the tenant sees it.
  CHECK(get("/arquivos/fotos?url=" + key, c.stranger)->status == 200);
  // A new logo replaces the old one, record and file.
  auto b = uploaded(logo, test::image(16, 16, "JPEG"), "novo.jpg", chefe);
  std::string key2(std::string_view(b->json()["chave"]));
  CHECK(platform_db("select logo from plataforma.empresas where id = " + empresa) == "/arquivos/fotos?url=" + key2);
  CHECK(db("select count(*) from projeto.arquivos where finalidade = 'logo'") == "1");
  CHECK(!std::filesystem::exists(std::filesystem::path(test::files_root()) / "alfa" / "plataforma" / key));

  refused(*upload(logo, "%PDF-1.4", "logo.pdf", chefe), 415, "tipo_de_midia_nao_suportado");
  refused(*upload(logo + "?tipo=png", test::image(8, 8, "JPEG"), "logo.png", chefe), 415, "tipo_de_midia_nao_suportado");
  refused(*upload(logo + "?tipo=bmp", test::image(8, 8), "logo.png", chefe), 400, "parametro_invalido", "tipo");
  refused(*upload(logo, test::image(8, 8), "logo.png", c.owner), 403, "acesso_negado");
  // Only administrators change a logo (the route's permission), and another tenant's
  // company is out of even their sight.
  refused(*upload(logo, test::image(8, 8), "logo.png", headers(c.beta)), 403, "acesso_negado");
  refused(*upload(logo, test::image(8, 8), "logo.png", headers(admin("beta", "chefe@beta.gov.br"))), 404,
          "nao_encontrado");
  refused(*upload(logo, test::image(8, 8), "logo.png", httplib::Headers{}), 401, "nao_autenticado");
  refused(*upload("/arquivos/empresas/999999/logo", test::image(8, 8), "logo.png", chefe), 404, "nao_encontrado");
  refused(*del("/arquivos/" + n(int64_t(b->json()["id"])), c.owner), 403, "acesso_negado");

  // The user's own photo.
  auto f = uploaded("/usuarios/foto", test::image(12, 12), "eu.png", c.reader);
  std::string fkey(std::string_view(f->json()["chave"]));
  CHECK(platform_db("select foto from plataforma.usuarios where id = " + n(c.reader.user_id)) ==
        "/arquivos/fotos?url=" + fkey);
  refused(*upload("/usuarios/foto", test::exe(), "eu.jpg", c.reader), 415, "tipo_de_midia_nao_suportado");
  refused(*upload("/usuarios/foto", test::image(8, 8), "eu.png", httplib::Headers{}), 401, "nao_autenticado");
  refused(*del("/arquivos/" + n(int64_t(f->json()["id"])), c.stranger), 403, "acesso_negado");
  CHECK(del("/arquivos/" + n(int64_t(f->json()["id"])), c.reader)->status == 204);
  CHECK(platform_db("select coalesce(foto, 'nenhuma') from plataforma.usuarios where id = " + n(c.reader.user_id)) ==
        "nenhuma");
}

TEST_CASE_FIXTURE(FilesFixture, "the templates offered to new projects are listed with their fields") {
  auto c = cast();
  auto t = get("/templates", c.reader);
  REQUIRE_MESSAGE(t->status == 200, t->body);
  bool lote = false, vistoria = false;
  for (auto e : t->json().get_array()) {
    std::string_view nome = e["nome"];
    CHECK(e["campos"].get_array().size() > 0);
    lote = lote || nome == "Ficha de lote urbano";
    vistoria = vistoria || nome == "Vistoria de edificação";
  }
  CHECK(lote);
  CHECK(vistoria);
  CHECK(t->json().get_array().size() ==
        static_cast<std::size_t>(std::stoll(db("select count(*) from projeto.templates where ativo"))));
  refused(*request("GET", "/templates", {}), 401, "nao_autenticado");
}

namespace {

// The stored files of key `chave` under the tenant's folder (the image and its preview).
std::vector<std::filesystem::path> stored_as(const std::string& chave) {
  std::vector<std::filesystem::path> out;
  for (auto& e : std::filesystem::recursive_directory_iterator(test::files_root() + "/alfa"))
    if (e.path().filename().string().rfind(chave, 0) == 0) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// An Adam7-interlaced RGB PNG of side × side black pixels, written by Python's zlib: a
// few hundred KB that decode into side² × 3 bytes, all at once (interlaced).
std::string interlaced_png(FilesFixture& f, int side) {
  const std::string file = test::files_root() + "-bomba.png";
  const std::string py =
      "import struct, zlib\n"
      "w = h = " + std::to_string(side) + "\n"
      "def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)\n"
      "out = open('" + file + "', 'wb')\n"
      "out.write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 1)))\n"
      "z = zlib.compressobj(9)\n"
      "data = b''\n"
      "for (x0, y0, dx, dy) in [(0,0,8,8),(4,0,8,8),(0,4,4,8),(2,0,4,4),(0,2,2,4),(1,0,2,2),(0,1,1,2)]:\n"
      "  pw, ph = (w - x0 + dx - 1) // dx, (h - y0 + dy - 1) // dy\n"
      "  row = b'\\x00' * (1 + pw * 3)\n"
      "  for y in range(ph): data += z.compress(row)\n"
      "data += z.flush()\n"
      "out.write(chunk(b'IDAT', data) + chunk(b'IEND', b''))\n";
  std::ofstream(test::files_root() + "-bomba.py") << py;
  REQUIRE(std::system(("python3 " + test::files_root() + "-bomba.py").c_str()) == 0);
  std::ifstream in(file, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::filesystem::remove(file);
  std::filesystem::remove(test::files_root() + "-bomba.py");
  (void)f;
  return ss.str();
}

}  // namespace

TEST_CASE_FIXTURE(FilesFixture, "a thumbnail is made once, when the photo is stored: requests scale its preview") {
  auto c = cast();
  auto a = uploaded("/fotos", test::image(2000, 1000), "larga.png", c.editor, {{"idGeometria", n(c.geometria)}});
  const std::string chave(std::string_view(a->json()["chave"]));
  auto files = stored_as(chave);
  REQUIRE(files.size() == 2);  // the photo and its preview
  CHECK(files[1].filename().string() == chave + ".previa.png");
  // The original gone from the disk: thumbnails still come, from the preview alone.
  std::filesystem::remove(files[0]);
  std::string p = "/arquivos/fotos/" + n(int64_t(a->json()["id"]));
  auto t = get(p + "?miniatura=true", c.reader);
  REQUIRE_MESSAGE(t->status == 200, t->body);
  CHECK(test::size_of(t->body) == std::pair{256, 128});
  CHECK(test::size_of(get(p + "?tamanho=1024", c.reader)->body) == std::pair{1024, 512});
  refused(*get(p, c.reader), 404, "nao_encontrado");  // the original itself is gone
  // Deleting the photo deletes its preview too.
  CHECK(del("/fotos/" + n(int64_t(a->json()["id"])), c.editor)->status == 204);
  CHECK(stored_as(chave).empty());
}

TEST_CASE_FIXTURE(FilesFixture, "a PNG bomb (8000 × 8000 interlaced in under 200 KB) is never decoded, memory flat") {
  auto c = cast();
  const std::string bomb = interlaced_png(*this, 8000);
  REQUIRE(bomb.size() < 200u << 10);  // the fixture's upload limit is 256 KB
  reset_peak_memory();
  const std::int64_t start = resident_memory_mb();
  // Stored as a photo (an attachment may be a large image) but without a preview: its
  // job kept why instead...
  auto a = uploaded("/fotos", bomb, "bomba.png", c.editor, {{"idGeometria", n(c.geometria)}});
  const std::string chave(std::string_view(a->json()["chave"]));
  auto kept = stored_as(chave);
  REQUIRE(kept.size() == 2);
  CHECK(kept[1].filename().string() == chave + ".previa.recusada");
  // ...so a thumbnail is refused from its header, every time, before a pixel is decoded.
  std::string p = "/arquivos/fotos/" + n(int64_t(a->json()["id"]));
  for (int i = 0; i < 3; ++i)
    refused(*get(p + "?miniatura=true", c.reader), 413, "corpo_muito_grande",
            "a imagem declara 64 megapixels; o limite é 12");
  // The same as a user's own profile photo.
  auto own = upload("/usuarios/foto", bomb, "eu.png", c.editor);
  REQUIRE_MESSAGE(own->status == 201, own->body);
  refused(*get("/arquivos/fotos/" + n(int64_t(own->json()["id"])) + "?miniatura=true", c.editor), 413,
          "corpo_muito_grande");
  CHECK(peak_memory_mb() - start < 64);  // the probe saw +388 MB and 21.8 s per request
}

TEST_CASE_FIXTURE(FilesFixture, "a JPEG whose header claims 30000 × 30000 pixels is never decoded for a thumbnail") {
  auto c = cast();
  std::string jpeg = test::image(16, 16, "JPEG");
  // The frame header (SOF0, FF C0): length (2), precision (1), height (2), width (2).
  auto sof = jpeg.find("\xFF\xC0");
  REQUIRE(sof != std::string::npos);
  for (std::size_t at : {sof + 5, sof + 7}) jpeg[at] = static_cast<char>(30000 >> 8), jpeg[at + 1] = static_cast<char>(30000 & 0xff);
  reset_peak_memory();
  const std::int64_t start = resident_memory_mb();
  auto a = uploaded("/fotos", jpeg, "enorme.jpg", c.editor, {{"idGeometria", n(c.geometria)}});
  refused(*get("/arquivos/fotos/" + n(int64_t(a->json()["id"])) + "?miniatura=true", c.reader), 413,
          "corpo_muito_grande", "a imagem declara 30000 × 30000 pixels; o limite é 20000 pixels por lado");
  CHECK(peak_memory_mb() - start < 64);
}

TEST_CASE_FIXTURE(FilesFixture, "a WebP whose header claims 16000 × 16000 pixels is never decoded for a thumbnail") {
  auto c = cast();
  std::string webp = test::image(16, 16, "WEBP");
  REQUIRE(webp.compare(0, 4, "RIFF") == 0);
  // The VP8 key frame's start code (9D 01 2A), then width and height (14 bits each, LE).
  auto start = webp.find("\x9D\x01\x2A");
  REQUIRE(start != std::string::npos);
  for (std::size_t at : {start + 3, start + 5}) webp[at] = static_cast<char>(16000 & 0xff), webp[at + 1] = static_cast<char>(16000 >> 8);
  reset_peak_memory();
  const std::int64_t start_mb = resident_memory_mb();
  auto a = uploaded("/fotos", webp, "enorme.webp", c.editor, {{"idGeometria", n(c.geometria)}});
  for (int i = 0; i < 2; ++i)
    refused(*get("/arquivos/fotos/" + n(int64_t(a->json()["id"])) + "?miniatura=true", c.reader), 413,
            "corpo_muito_grande", "a imagem declara 256 megapixels; o limite é 50");
  CHECK(peak_memory_mb() - start_mb < 64);  // 256 MP decoded would be +768 MB
}

TEST_CASE_FIXTURE(FilesFixture, "a preview is made by a job of its own lane, not by the request: while the lane is busy "
                                "thumbnails answer 503 with Retry-After, then come") {
  auto c = cast();
  // The previews lane's one worker, held by a job of the test.
  auto tenant = app->tenancy().active("alfa");
  REQUIRE(tenant);
  store::Principal who;
  who.user_id = c.editor.user_id, who.tenant_id = tenant->id, who.tenant_slug = tenant->slug;
  const service::Scope scope = app->tenancy().scope(std::move(who), *tenant);
  auto lane = platform::jobs::runner(*app, platform::jobs::Lane::previews);
  test::HeldJob held(*lane, scope, "previa");

  // The upload is answered although its preview's job waits (after kPreviewWait).
  auto a = uploaded("/fotos", test::image(600, 300), "foto.png", c.editor, {{"idGeometria", n(c.geometria)}});
  const std::string p = "/arquivos/fotos/" + n(int64_t(a->json()["id"]));
  const std::string chave(std::string_view(a->json()["chave"]));
  CHECK(stored_as(chave).size() == 1);  // no preview yet
  auto wait = get(p + "?miniatura=true", c.reader);
  refused(*wait, 503, "servico_indisponivel", "sendo preparada");
  CHECK(wait->headers.find("Retry-After") != wait->headers.end());
  // Queued: the upload's job and the reader's (one per user and image; the second finds
  // the preview made and ends at once).
  CHECK(db("select count(*) from projeto.importacoes where tipo = 'previa' and estado = 'pendente' and codigo = "
           "'previa:" + chave + "'") == "2");

  held.release();
  std::unique_ptr<test::Answer> t;
  for (int i = 0; i < 600; ++i) {  // a bounded number of polls, not a timing
    t = get(p + "?miniatura=true", c.reader);
    if (t->status != 503) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  REQUIRE_MESSAGE(t->status == 200, t->body);
  CHECK(test::size_of(t->body) == std::pair{256, 128});
  CHECK(db("select estado from projeto.importacoes where codigo = 'previa:" + chave + "' and criado_por = " +
           n(c.editor.user_id)) == "concluida");
  // Previews are not imports: the user's list of imports leaves them out.
  CHECK(get("/importar/pendentes", c.editor)->json()["totalElements"].get_int64().value() == 0);

  // An image stored before previews existed: its first thumbnail queues the job and waits.
  auto b = uploaded("/fotos", test::image(300, 600), "antiga.png", c.editor, {{"idGeometria", n(c.geometria)}});
  const std::string chave_b(std::string_view(b->json()["chave"]));
  auto kept = stored_as(chave_b);
  REQUIRE(kept.size() == 2);
  std::filesystem::remove(kept[1]);
  db("delete from projeto.importacoes where codigo = 'previa:" + chave_b + "'");
  auto old = get("/arquivos/fotos/" + n(int64_t(b->json()["id"])) + "?miniatura=true", c.reader);
  REQUIRE_MESSAGE(old->status == 200, old->body);
  CHECK(test::size_of(old->body) == std::pair{128, 256});

  // A preview job that failed (its process stopped before it ran) gets another attempt.
  kept = stored_as(chave_b);
  REQUIRE(kept.size() == 2);
  std::filesystem::remove(kept[1]);
  db("update projeto.importacoes set estado = 'falhou', mensagem = 'interrompida' where codigo = 'previa:" + chave_b + "'");
  auto again = get("/arquivos/fotos/" + n(int64_t(b->json()["id"])) + "?miniatura=true", c.reader);
  REQUIRE_MESSAGE(again->status == 200, again->body);
  CHECK(db("select string_agg(estado, ',' order by id) from projeto.importacoes where codigo like 'previa:" + chave_b +
           "%'") == "falhou,concluida");
}
