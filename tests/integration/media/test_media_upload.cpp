// Uploads: base64 with record, tenant-less, multipart; limits, extension allow-list,
// content sniffing, SHA-256, temp-then-rename, and the download of what was stored.
#include "fixture.hpp"

using namespace media_test;

TEST_CASE_FIXTURE(Fixture,
                  "a base64 upload stores the file under a server key, records it with its SHA-256 "
                  "and serves it back") {
  std::string bytes = png_bytes(500);
  auto a = call("POST", "/midia/alfa/storage", upload_body(bytes, "fachada frente.png", ".PNG"));
  REQUIRE_MESSAGE(a->status == 201, a->body);
  std::string key = member(*a, "chave"), id = member(*a, "id");
  CHECK(member(*a, "link") == "/midia/get?file_url=" + key);
  CHECK(key.rfind("alfa.", 0) == 0);
  CHECK(key.size() == std::string("alfa.").size() + 64 + 4);
  CHECK(key.substr(key.size() - 4) == ".png");
  CHECK(member(*a, "extensao") == ".png");
  CHECK(member(*a, "content_type") == "image/png");
  CHECK(member(*a, "tamanho") == "500");
  CHECK(member(*a, "sha256") == cadastre::store::sha256_hex(bytes));
  // The database row and the file on disk agree with the bytes sent.
  CHECK(db("select chave || '|' || nome || '|' || tamanho || '|' || sha256 || '|' || criado_por from midia.arquivo "
           "where id = " + id) ==
        key + "|fachada frente.png|500|" + cadastre::store::sha256_hex(bytes) + "|usuario@alfa.gov.br");
  CHECK(db("select count(*) from auditoria.registro where tabela = 'midia.arquivo' and registro_id = '" + id +
           "' and operacao = 'I'") == "1");
  std::ifstream in(file_of(key), std::ios::binary);
  std::string on_disk((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(on_disk == bytes);

  auto got = call("GET", member(*a, "link"), "", "");
  REQUIRE(got->status == 200);
  CHECK(got->body == bytes);
  CHECK(got->content_type == "image/png");
  CHECK(got->header("X-Content-Type-Options") == "nosniff");
  // (httplib's client percent-decodes header values, so filename* is checked by its prefix)
  CHECK(got->header("Content-Disposition").rfind("inline; filename=\"fachada frente.png\"; filename*=UTF-8''", 0) == 0);
}

TEST_CASE_FIXTURE(
    Fixture,
    "POST arquivos creates a record with its file and the record fields; bad references are 400") {
  auto lote = db("select min(id) from cadastro.lote");
  auto unit = db("select min(id) from cadastro.imobiliario where lote_id = " + lote);
  auto a = call("POST", "/midia/alfa/arquivos",
                upload_body(pdf_bytes(), "planta", ".pdf",
                            R"(, "descricao": "Planta baixa", "lote_id": )" + lote + R"(, "imobiliario_id": )" +
                                (unit.empty() ? "null" : unit) + R"(, "bucket": "plantas")"));
  REQUIRE_MESSAGE(a->status == 201, a->body);
  std::string id = member(*a, "id");
  CHECK(db("select descricao || '|' || lote_id || '|' || bucket || '|' || content_type from midia.arquivo where id = " +
           id) == "Planta baixa|" + lote + "|plantas|application/pdf");
  auto got = call("GET", member(*a, "link"), "", "");
  CHECK(got->status == 200);
  CHECK(got->header("Content-Disposition").rfind("inline; filename=\"planta.pdf\"", 0) == 0);

  auto files_before = stored_files();
  auto bad = call("POST", "/midia/alfa/arquivos", upload_body(pdf_bytes(), "x", ".pdf", R"(, "lote_id": 99999999)"));
  CHECK(bad->status == 400);
  CHECK(bad->codigo() == "parametro_invalido");
  CHECK(stored_files() == files_before);  // the file written before the record went away again
  CHECK(call("POST", "/midia/alfa/arquivos", upload_body(pdf_bytes(), "x", ".pdf", R"(, "bucket": "../fora")"))->status ==
        400);
  // The plain storage route takes only arquivo, nome and extensao.
  auto extra = call("POST", "/midia/alfa/storage", upload_body(pdf_bytes(), "x", ".pdf", R"(, "descricao": "x")"));
  CHECK(extra->status == 400);
  CHECK(extra->codigo() == "campo_desconhecido");
}

TEST_CASE_FIXTURE(Fixture,
                  "refused uploads leave no file behind: over the limit 413, other extension or "
                  "content 415, bad body 400") {
  auto before = stored_files();
  auto count = db("select count(*) from midia.arquivo");
  auto too_big = call("POST", "/midia/alfa/storage", upload_body(png_bytes(kMaxBytes + 1), "grande", ".png"));
  CHECK(too_big->status == 413);
  CHECK(too_big->codigo() == "corpo_muito_grande");
  // Refused by the encoded length, before decoding (the text is not even valid base64).
  std::string huge(kMaxBytes / 3 * 4 + 400, 'A');
  auto early = call("POST", "/midia/alfa/storage", R"({"arquivo": ")" + huge + R"(!", "nome": "x", "extensao": ".png"})");
  CHECK(early->status == 413);
  CHECK(call("POST", "/midia/alfa/storage", upload_body(png_bytes(kMaxBytes), "no-limite", ".png"))->status == 201);

  auto exe = call("POST", "/midia/alfa/storage", upload_body("MZ-binario", "programa", ".exe"));
  CHECK(exe->status == 415);
  CHECK(exe->codigo() == "tipo_de_midia_nao_suportado");
  auto html = call("POST", "/midia/alfa/storage", upload_body("<html><script>alert(1)</script>", "pagina", ".html"));
  CHECK(html->status == 415);
  auto fake_png = call("POST", "/midia/alfa/storage", upload_body("<html>não sou png</html>", "falso", ".png"));
  CHECK(fake_png->status == 415);
  CHECK(fake_png->mensagem().find(".png") != std::string::npos);
  CHECK(call("POST", "/midia/alfa/storage", upload_body(png_bytes(), "png-como-pdf", ".pdf"))->status == 415);
  CHECK(call("POST", "/midia/alfa/storage", upload_body(std::string("a,b\n\xff\xfe", 6), "latin", ".csv"))->status == 415);
  CHECK(call("POST", "/midia/alfa/storage", upload_body(png_bytes(), "x", "png"))->status == 400);  // no dot
  CHECK(call("POST", "/midia/alfa/storage", upload_body(png_bytes(), "x", ".p/ng"))->status == 400);
  CHECK(call("POST", "/midia/alfa/storage", R"({"arquivo": "@@@", "nome": "x", "extensao": ".png"})")->status == 400);
  CHECK(call("POST", "/midia/alfa/storage", R"({"nome": "x", "extensao": ".png"})")->codigo() == "campo_obrigatorio");
  CHECK(call("POST", "/midia/alfa/storage", "{nao é json")->codigo() == "json_invalido");

  auto after = stored_files();
  CHECK(after.size() == before.size() + 1);  // only the upload at the limit
  for (const auto& f : after) CHECK_MESSAGE(f.find(".tmp-") == std::string::npos, f);
  CHECK(db("select count(*) from midia.arquivo") == std::to_string(std::stoll(count) + 1));
}

TEST_CASE_FIXTURE(
    Fixture,
    "text formats are accepted by extension when the content is UTF-8 and served as attachments") {
  auto a = call("POST", "/midia/alfa/storage", upload_body("inscrição;área\n1;250,5\n", "tabela.csv", ".csv"));
  REQUIRE_MESSAGE(a->status == 201, a->body);
  auto got = call("GET", member(*a, "link"), "", "");
  CHECK(got->status == 200);
  CHECK(got->content_type == "text/csv; charset=utf-8");
  CHECK(got->header("Content-Disposition").rfind("attachment; filename=\"tabela.csv\"", 0) == 0);
  CHECK(got->header("X-Content-Type-Options") == "nosniff");
}

TEST_CASE_FIXTURE(Fixture,
                  "the tenant-less upload needs no credential, has its smaller limit and its own "
                  "area without records") {
  auto count = db("select count(*) from midia.arquivo");
  std::string bytes = png_bytes(kPublicMaxBytes);
  auto a = call("POST", "/midia/storage", upload_body(bytes, "foto cidadão.png", ".png"), "");
  REQUIRE_MESSAGE(a->status == 201, a->body);
  std::string key = member(*a, "chave");
  CHECK(key.rfind("_publico.", 0) == 0);
  CHECK(member(*a, "sha256") == cadastre::store::sha256_hex(bytes));
  CHECK(std::filesystem::is_regular_file(env().root / "_publico" / key.substr(9, 2) / key));
  CHECK(db("select count(*) from midia.arquivo") == count);
  auto got = call("GET", member(*a, "link"), "", "");
  CHECK(got->status == 200);
  CHECK(got->body == bytes);

  auto before = stored_files();
  auto over = call("POST", "/midia/storage", upload_body(png_bytes(kPublicMaxBytes + 1), "grande", ".png"), "");
  CHECK(over->status == 413);
  CHECK(over->codigo() == "corpo_muito_grande");
  CHECK(call("POST", "/midia/storage", upload_body("GIF00", "x", ".gif"), "")->status == 415);
  CHECK(stored_files() == before);
}

TEST_CASE_FIXTURE(
    Fixture,
    "multipart upload: file and optional bucket, stored in the caller's tenant with a record") {
  auto cli = stack().client();
  std::string bytes = png_bytes(321);
  httplib::MultipartFormDataItems items = {{"file", bytes, "../../foto-lote.png", "image/png"},
                                           {"bucket", "vistorias", "", ""}};
  auto r = cli.Post("/midia/storage-form", Stack::bearer(token()), items);
  REQUIRE(r);
  auto a = cadastre::test::answer(r, "multipart");
  REQUIRE_MESSAGE(a->status == 201, a->body);
  std::string id = member(*a, "id");
  CHECK(member(*a, "chave").rfind("alfa.", 0) == 0);
  CHECK(db("select nome || '|' || extensao || '|' || bucket || '|' || tamanho || '|' || sha256 from midia.arquivo "
           "where id = " + id) == "foto-lote.png|.png|vistorias|321|" + cadastre::store::sha256_hex(bytes));
  CHECK(call("GET", member(*a, "link"), "", "")->body == bytes);
  // The other tenant's user stores in their own tenant.
  auto beta = cadastre::test::answer(cli.Post("/midia/storage-form", Stack::bearer(token("beta")), items), "beta");
  REQUIRE(beta->status == 201);
  CHECK(member(*beta, "chave").rfind("beta.", 0) == 0);
  CHECK(db("select count(*) from midia.arquivo where id = " + member(*beta, "id"), "beta") == "1");

  auto before = stored_files();
  httplib::MultipartFormDataItems no_file = {{"bucket", "vistorias", "", ""}};
  CHECK(cli.Post("/midia/storage-form", Stack::bearer(token()), no_file)->status == 400);
  httplib::MultipartFormDataItems no_ext = {{"file", bytes, "foto", "image/png"}};
  CHECK(cli.Post("/midia/storage-form", Stack::bearer(token()), no_ext)->status == 415);
  httplib::MultipartFormDataItems mismatch = {{"file", "not a pdf", "doc.pdf", "application/pdf"}};
  CHECK(cli.Post("/midia/storage-form", Stack::bearer(token()), mismatch)->status == 415);
  httplib::MultipartFormDataItems big = {{"file", png_bytes(kMaxBytes + 10), "grande.png", "image/png"}};
  CHECK(cli.Post("/midia/storage-form", Stack::bearer(token()), big)->status == 413);
  httplib::MultipartFormDataItems extra = {{"file", bytes, "a.png", "image/png"}, {"outro", "x", "", ""}};
  CHECK(cli.Post("/midia/storage-form", Stack::bearer(token()), extra)->status == 400);
  CHECK(stored_files() == before);
}

TEST_CASE_FIXTURE(
    Fixture, "a request body over the server's payload limit is 413 in the shared error shape") {
  auto before = stored_files();
  auto a = call("POST", "/midia/alfa/storage", upload_body(png_bytes(kPayloadMax), "enorme", ".png"));
  CHECK(a->status == 413);
  CHECK(a->codigo() == "corpo_muito_grande");
  CHECK(a->text("tipo") == "erro");
  CHECK(stored_files() == before);
}
