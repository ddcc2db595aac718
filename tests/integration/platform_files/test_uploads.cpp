// Uploads to a layer, a geometry and a project (POST /arquivos/:id/files/upload?tipo=,
// POST /arquivos/projeto/:id/files/upload) and photos of geometries (POST /fotos): the bytes
// are stored under a key the platform generates, with their SHA-256 and a row in
// projeto.arquivos; the records are read, renamed, listed per geometry and deleted with
// their files. The media rules: oversize → 413 before the body is read, content that is
// not an accepted type (an .exe renamed .jpg) → 415, names that are paths → 400.
#include <thread>

#include "files_fixture.hpp"
#include "support/raw_http.hpp"

using namespace cadastre;
using test::FilesFixture;
using test::refused;

TEST_CASE_FIXTURE(FilesFixture, "an upload stores the bytes under a generated key with their SHA-256 and a row") {
  auto c = cast();
  std::string png = test::image(40, 30);

  // To the layer.
  auto a = uploaded("/arquivos/" + n(c.camada) + "/files/upload?tipo=camada", png, "fachada.png", c.editor);
  std::int64_t id = int64_t(a->json()["id"]);
  std::string key(std::string_view(a->json()["chave"]));
  CHECK(std::string_view(a->json()["sha256"]) == store::sha256_hex(png));
  CHECK(std::string_view(a->json()["nome"]) == "fachada.png");
  CHECK(std::string_view(a->json()["tipoMidia"]) == "image/png");
  CHECK(int64_t(a->json()["tamanho"]) == static_cast<std::int64_t>(png.size()));
  CHECK(int64_t(a->json()["idCamada"]) == c.camada);
  CHECK(key.rfind("alfa.", 0) == 0);
  CHECK(key.size() == 5 + 64 + 4);  // alfa.<64 hex>.png
  CHECK(db("select concat_ws('|', finalidade, projeto_id, camada_id, coalesce(geometria_id::text, '-'), sha256, "
           "tamanho, criado_por) from projeto.arquivos where id = " + n(id)) ==
        "arquivo|" + n(c.projeto) + "|" + n(c.camada) + "|-|" + store::sha256_hex(png) + "|" + n(png.size()) + "|" +
            n(c.editor.user_id));
  auto on_disk = std::filesystem::path(test::files_root()) / "alfa" / "camadas" / n(c.camada) / "arquivos" / key;
  CHECK(store::sha256_hex(test::file_bytes(on_disk)) == store::sha256_hex(png));
  // No temporary file stays behind.
  for (const auto& e : std::filesystem::directory_iterator(on_disk.parent_path()))
    CHECK(e.path().filename().string().rfind(".tmp-", 0) == std::string::npos);

  // To the geometry, and to the project (a PDF and a text file: any accepted type).
  auto g = uploaded("/arquivos/" + n(c.geometria) + "/files/upload?tipo=geometria", "%PDF-1.4\n%fim\n", "laudo.pdf",
                    c.editor, {{"descricao", "Laudo de vistoria"}});
  CHECK(int64_t(g->json()["idGeometria"]) == c.geometria);
  CHECK(std::string_view(g->json()["tipoMidia"]) == "application/pdf");
  CHECK(std::string_view(g->json()["descricao"]) == "Laudo de vistoria");
  auto p = uploaded("/arquivos/projeto/" + n(c.projeto) + "/files/upload", "inscricao;area\n0042;250\n", "lotes.csv",
                    c.owner);
  CHECK(p->json()["idCamada"].is_null());
  CHECK(std::string(std::string_view(p->json()["chave"])).ends_with(".txt"));  // the type comes from the bytes
  std::string pkey(std::string_view(p->json()["chave"]));
  CHECK(std::filesystem::exists(std::filesystem::path(test::files_root()) / "alfa" / "projetos" / n(c.projeto) /
                                "arquivos" / pkey));

  // A photo of the geometry.
  auto f = uploaded("/fotos", test::image(20, 20, "JPEG"), "frente.jpg", c.editor,
                    {{"idGeometria", n(c.geometria)}});
  CHECK(std::string_view(f->json()["finalidade"]) == "foto");
  CHECK(std::string_view(f->json()["tipoMidia"]) == "image/jpeg");

  // Read: the record, the geometry's files, the content by key.
  auto r = get("/arquivos/" + n(id), c.reader);
  REQUIRE(r->status == 200);
  CHECK(std::string_view(r->json()["chave"]) == key);
  CHECK(std::string_view(r->json()["url"]) == "/arquivos/fotos?url=" + key);
  auto list = get("/geometrias/arquivos/" + n(c.geometria), c.reader);
  REQUIRE(list->status == 200);
  CHECK(list->json().get_array().size() == 2);
  auto content = get("/arquivos/fotos?url=" + key, c.reader);
  REQUIRE(content->status == 200);
  CHECK(content->body == png);
  CHECK(content->content_type == "image/png");
  CHECK(content->header("X-Content-Type-Options") == "nosniff");
  auto photo = get("/arquivos/fotos/" + n(id), c.reader);
  CHECK(photo->body == png);
  refused(*get("/arquivos/fotos/" + n(int64_t(g->json()["id"])), c.reader), 404, "nao_encontrado", "não é uma foto");

  // Rename and describe: metadata only.
  auto u = put("/arquivos/" + n(id), R"({"nome":"fachada norte.png","descricao":"vista da rua"})", c.editor);
  REQUIRE_MESSAGE(u->status == 200, u->body);
  CHECK(std::string_view(u->json()["nome"]) == "fachada norte.png");
  CHECK(std::string_view(u->json()["sha256"]) == store::sha256_hex(png));
  refused(*put("/arquivos/" + n(id), R"({"chave":"x"})", c.editor), 400, "campo_desconhecido", "chave");
  refused(*put("/arquivos/" + n(id), R"({})", c.editor), 400, "campo_obrigatorio");
  refused(*put("/arquivos/" + n(id), R"({"nome":""})", c.editor), 400, "parametro_invalido", "nome");

  // Delete: row and file together.
  CHECK(del("/arquivos/" + n(id), c.editor)->status == 204);
  CHECK(db("select count(*) from projeto.arquivos where id = " + n(id)) == "0");
  CHECK(!std::filesystem::exists(on_disk));
  refused(*get("/arquivos/fotos?url=" + key, c.reader), 404, "nao_encontrado");
  refused(*del("/arquivos/" + n(id), c.editor), 404, "nao_encontrado");
}

TEST_CASE_FIXTURE(FilesFixture, "uploads refuse oversize (413 unread), other content (415) and bad input (400)") {
  auto c = cast();
  const std::string to_layer = "/arquivos/" + n(c.camada) + "/files/upload?tipo=camada";

  // Over the limit: refused from the Content-Length, before any of the body is sent.
  {
    test::RawHttp raw(app->server().port());
    raw.send("POST " + to_layer + " HTTP/1.1\r\nHost: x\r\nX-Auth-Token: " + c.editor.token +
             "\r\nX-Tn-Token: " + c.editor.tn +
             "\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: " + n(test::kLimit * 4) +
             "\r\n\r\n");
    CHECK(raw.read().status == 413);
  }
  // A body within the engine's limit but a file over the store's: 413 as well, nothing kept.
  refused(*upload(to_layer, std::string(test::kLimit + 10, 'a'), "grande.txt", c.editor), 413, "corpo_muito_grande");
  CHECK(db("select count(*) from projeto.arquivos") == "0");

  // The bytes decide the type: an executable named .jpg, a photo that is a PDF.
  refused(*upload(to_layer, test::exe(), "foto.jpg", c.editor), 415, "tipo_de_midia_nao_suportado");
  refused(*upload("/fotos", "%PDF-1.4\n", "foto.jpg", c.editor, {{"idGeometria", n(c.geometria)}}), 415,
          "tipo_de_midia_nao_suportado");
  CHECK(db("select count(*) from projeto.arquivos") == "0");

  // A client's name never becomes a path: only its last component is kept, as a label.
  auto a = uploaded(to_layer, "texto", "../../../etc/passwd", c.editor);
  CHECK(std::string_view(a->json()["nome"]) == "passwd");
  CHECK(!std::filesystem::exists(std::filesystem::path(test::files_root()) / "etc"));
  // Stored names in paths and queries are keys, strictly.
  refused(*del("/fotos/nome/..%2F..%2Fetc%2Fpasswd", c.editor), 400, "parametro_invalido", "fileName");
  refused(*del("/fotos/nome/alfa.." + std::string(64, 'a') + ".png", c.editor), 400, "parametro_invalido");
  refused(*del("/fotos/nome/a%5Cb.png", c.editor), 400, "parametro_invalido", "fileName");
  refused(*get("/arquivos/fotos?url=../../alfa/x.png", c.editor), 400, "parametro_invalido", "url");

  // Bad input.
  refused(*upload("/arquivos/" + n(c.camada) + "/files/upload", "x", "a.txt", c.editor), 400, "campo_obrigatorio",
          "tipo");
  refused(*upload("/arquivos/" + n(c.camada) + "/files/upload?tipo=usuario", "x", "a.txt", c.editor), 400,
          "parametro_invalido", "tipo");
  refused(*upload("/arquivos/1;drop/files/upload?tipo=camada", "x", "a.txt", c.editor), 400, "parametro_invalido");
  refused(*upload("/fotos", test::image(4, 4), "a.png", c.editor), 400, "campo_obrigatorio", "idGeometria");
  refused(*upload("/fotos", test::image(4, 4), "a.png", c.editor, {{"idGeometria", "1 or 1=1"}}), 400,
          "parametro_invalido", "idGeometria");
  refused(*post(to_layer, "{}", c.editor), 400, "campo_obrigatorio", "file");
  refused(*get("/arquivos/1;drop", c.editor), 400, "parametro_invalido");
  // An inactive project's layer takes no uploads.
  CHECK(post("/projetos/inativar/" + n(c.projeto), "", c.owner)->status == 200);
  refused(*upload(to_layer, "x", "a.txt", c.editor), 409, "transicao_invalida");
}

// Two instances over one file store (as two machines mounting one directory): what one
// stores the other serves, and uploads through both at once all land, whole.
TEST_CASE_FIXTURE(FilesFixture, "files uploaded through two instances at once are each read back through the other, "
                                "byte for byte") {
  auto c = cast();
  auto other = another_instance();
  const int ports[2] = {app->server().port(), other->server().port()};
  constexpr int kEach = 8;
  struct Sent {
    std::string bytes, key;
    int status = 0, port = 0;
  };
  std::vector<Sent> sent(2 * kEach);
  for (int i = 0; i < 2 * kEach; ++i) {
    sent[i].bytes = test::image(30 + i, 20);
    sent[i].port = ports[i % 2];
  }
  auto send = [&](int first) {
    for (int i = first; i < 2 * kEach; i += 2) {
      auto a = upload("/arquivos/" + n(c.camada) + "/files/upload?tipo=camada", sent[i].bytes,
                      "foto-" + n(i) + ".png", headers(c.editor), {}, sent[i].port);
      sent[i].status = a->status;
      if (a->status == 201) sent[i].key = std::string(std::string_view(a->json()["chave"]));
    }
  };
  std::thread through_a(send, 0), through_b(send, 1);
  through_a.join();
  through_b.join();

  for (const Sent& f : sent) {
    REQUIRE(f.status == 201);
    const int elsewhere = f.port == ports[0] ? ports[1] : ports[0];
    auto got = request("GET", "/arquivos/fotos?url=" + f.key, headers(c.reader), "", "application/json", elsewhere);
    REQUIRE(got->status == 200);
    CHECK(store::sha256_hex(got->body) == store::sha256_hex(f.bytes));
    CHECK(got->body.size() == f.bytes.size());
  }
  CHECK(db("select count(*) from projeto.arquivos where camada_id = " + n(c.camada)) == n(2 * kEach));
  auto folder = std::filesystem::path(test::files_root()) / "alfa" / "camadas" / n(c.camada) / "arquivos";
  int on_disk = 0;
  for (const auto& e : std::filesystem::directory_iterator(folder)) {
    CHECK(e.path().filename().string().rfind(".tmp-", 0) == std::string::npos);
    if (e.path().filename().string().find(".previa.") == std::string::npos) ++on_disk;
  }
  CHECK(on_disk == 2 * kEach);
}
