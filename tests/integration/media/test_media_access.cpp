// Credentials and the "midia" permission on every /midia route.
#include "fixture.hpp"

using namespace media_test;

namespace {
struct Call {
  std::string method, path, body;
  bool write;
};

std::string existing_id() {
  auto a =
      fixture().call("POST", "/midia/alfa/storage", upload_body(png_bytes(), "acesso.png", ".png"));
  REQUIRE(a->status == 201);
  return std::to_string(int64_t(a->json()["id"]));
}

std::vector<Call> tenant_routes(const std::string& id) {
  return {{"POST", "/midia/alfa/storage", upload_body(png_bytes(), "a.png", ".png"), true},
          {"POST", "/midia/alfa/arquivos", upload_body(png_bytes(), "a.png", ".png"), true},
          {"GET", "/midia/alfa/arquivos/" + id, "", false},
          {"PUT", "/midia/alfa/arquivos/" + id, R"({"descricao": "alterado"})", true},
          {"DELETE", "/midia/alfa/arquivos/" + id, "", true}};
}

int multipart(const std::string& tok) {
  httplib::MultipartFormDataItems items = {{"file", png_bytes(), "a.png", "image/png"}};
  auto r = fixture().stack().client().Post(
      "/midia/storage-form", tok.empty() ? httplib::Headers{} : Stack::bearer(tok), items);
  REQUIRE(r);
  return r->status;
}
}  // namespace

TEST_CASE_FIXTURE(
    Fixture,
    "tenant media routes: missing or wrong credential 401, another tenant's credential 403") {
  auto id = existing_id();
  auto files = stored_files();
  auto rows = db("select count(*) from midia.arquivo");
  for (const auto& c : tenant_routes(id)) {
    INFO(c.method << " " << c.path);
    auto missing = call(c.method, c.path, c.body, "");
    CHECK(missing->status == 401);
    CHECK(missing->codigo() == "nao_autenticado");
    CHECK(call(c.method, c.path, c.body, std::string(64, 'f'))->status == 401);
    auto other = call(c.method, c.path, c.body, token("beta"));
    CHECK(other->status == 403);
    CHECK(other->codigo() == "municipio_nao_permitido");
  }
  CHECK(multipart("") == 401);
  CHECK(multipart("token-invalido") == 401);
  CHECK(stored_files() == files);
  CHECK(db("select count(*) from midia.arquivo") == rows);
  CHECK(db("select coalesce(descricao, '') from midia.arquivo where id = " + id) == "");
}

TEST_CASE_FIXTURE(
    Fixture,
    "reads need read and writes need write on layer midia (rule 'midia' or the '*' default)") {
  auto id = existing_id();
  auto reader = stack().add_user("alfa", "leitor-midia@alfa.gov.br", {"midia:r"});
  auto outsider = stack().add_user("alfa", "so-lotes-midia@alfa.gov.br", {"lote:rw"});
  auto denied = stack().add_user("alfa", "sem-midia@alfa.gov.br", {"*:rw", "midia:"});
  auto files = stored_files();
  for (const auto& c : tenant_routes(id)) {
    INFO(c.method << " " << c.path);
    CHECK(call(c.method, c.path, c.body, outsider.token)->status == 403);
    CHECK(call(c.method, c.path, c.body, denied.token)->status == 403);
    auto r = call(c.method, c.path, c.body, reader.token);
    CHECK(r->status == (c.write ? 403 : 200));
    if (c.write) CHECK(r->codigo() == "acesso_negado");
  }
  CHECK(multipart(reader.token) == 403);
  CHECK(stored_files() == files);
  auto writer = stack().add_user("alfa", "editor-midia@alfa.gov.br", {"midia:rw"});
  CHECK(multipart(writer.token) == 201);
  CHECK(call("PUT", "/midia/alfa/arquivos/" + id, R"({"descricao": "ok"})", writer.token)->status == 200);
  CHECK(db("select criado_por from midia.arquivo order by id desc limit 1") == "editor-midia@alfa.gov.br");
}

TEST_CASE_FIXTURE(
    Fixture,
    "the tenant-less upload and the download need no credential and ignore one that is sent") {
  auto a = call("POST", "/midia/storage", upload_body(png_bytes(), "anon.png", ".png"), "");
  REQUIRE(a->status == 201);
  auto link = std::string(std::string_view(a->json()["link"]));
  CHECK(call("GET", link, "", "")->status == 200);
  CHECK(call("GET", link, "", "qualquer-coisa")->status == 200);
  CHECK(call("POST", "/midia/storage", upload_body(png_bytes(), "anon.png", ".png"), "token-invalido")->status == 201);
  auto id = existing_id();
  auto key = db("select chave from midia.arquivo where id = " + id);
  CHECK(call("GET", "/midia/get?file_url=" + key, "", "")->status == 200);
  auto head = stack().client().Head("/midia/get?file_url=" + key);
  REQUIRE(head);
  CHECK(head->status == 200);
  CHECK(call("GET", "/midia/get", "", "")->status == 400);
}
