// Media records (GET/PUT/DELETE /midia/{municipio}/arquivos/{id}) checked in the database,
// tenant isolation of ids, and the link's life ending with its record.
#include "fixture.hpp"

using namespace media_test;

namespace {
// Uploads a PNG to alfa and returns (id, key).
std::pair<std::string, std::string> upload(const std::string& nome = "foto.png") {
  auto a = fixture().call("POST", "/midia/alfa/storage", upload_body(png_bytes(), nome, ".png"));
  REQUIRE_MESSAGE(a->status == 201, a->body);
  return {member(*a, "id"), member(*a, "chave")};
}
}  // namespace

TEST_CASE_FIXTURE(Fixture,
                  "a media record is read, edited (only its editable fields) and audited") {
  auto [id, key] = upload();
  auto got = call("GET", "/midia/alfa/arquivos/" + id);
  REQUIRE(got->status == 200);
  CHECK(member(*got, "chave") == key);
  CHECK(member(*got, "link") == "/midia/get?file_url=" + key);

  auto lote = db("select min(id) from cadastro.lote");
  auto put = call("PUT", "/midia/alfa/arquivos/" + id,
                  R"({"descricao": "Fachada norte", "nome": "norte.png", "lote_id": )" + lote + R"(, "bucket": "fachadas"})");
  REQUIRE_MESSAGE(put->status == 200, put->body);
  CHECK(member(*put, "descricao") == "Fachada norte");
  CHECK(db("select nome || '|' || descricao || '|' || lote_id || '|' || bucket || '|' || chave from midia.arquivo where id = " +
           id) == "norte.png|Fachada norte|" + lote + "|fachadas|" + key);
  CHECK(db("select depois->>'descricao' from auditoria.registro where tabela = 'midia.arquivo' and registro_id = '" + id +
           "' and operacao = 'U'") == "Fachada norte");
  // null clears a field
  CHECK(call("PUT", "/midia/alfa/arquivos/" + id, R"({"lote_id": null})")->status == 200);
  CHECK(db("select coalesce(lote_id::text, 'nulo') from midia.arquivo where id = " + id) == "nulo");

  for (const char* body : {R"({"chave": "alfa.outro.png"})", R"({"sha256": "00"})", R"({"tamanho": 1})",
                           R"({"criado_por": "x"})", R"({"id": 5})"}) {
    auto a = call("PUT", "/midia/alfa/arquivos/" + id, body);
    CHECK_MESSAGE(a->status == 400, std::string(body));
    CHECK(a->codigo() == "campo_desconhecido");
  }
  CHECK(call("PUT", "/midia/alfa/arquivos/" + id, "{}")->status == 400);
  CHECK(call("PUT", "/midia/alfa/arquivos/" + id, R"({"lote_id": 99999999})")->status == 400);
  CHECK(call("PUT", "/midia/alfa/arquivos/" + id, R"({"nome": ""})")->status == 400);
  CHECK(call("PUT", "/midia/alfa/arquivos/" + id, R"({"lote_id": "1; drop table midia.arquivo"})")->status == 400);
  CHECK(db("select chave from midia.arquivo where id = " + id) == key);
  CHECK(call("PUT", "/midia/alfa/arquivos/99999999", R"({"descricao": "x"})")->status == 404);
}

TEST_CASE_FIXTURE(Fixture,
                  "deleting a record removes its file after the commit and ends its link") {
  auto [id, key] = upload();
  REQUIRE(std::filesystem::exists(file_of(key)));
  auto del = call("DELETE", "/midia/alfa/arquivos/" + id);
  REQUIRE_MESSAGE(del->status == 200, del->body);
  CHECK(db("select count(*) from midia.arquivo where id = " + id) == "0");
  CHECK(db("select count(*) from auditoria.registro where tabela = 'midia.arquivo' and registro_id = '" + id +
           "' and operacao = 'D'") == "1");
  CHECK_FALSE(std::filesystem::exists(file_of(key)));
  CHECK(call("GET", "/midia/get?file_url=" + key, "", "")->status == 404);
  CHECK(call("GET", "/midia/alfa/arquivos/" + id)->status == 404);
  CHECK(call("DELETE", "/midia/alfa/arquivos/" + id)->status == 404);
}

TEST_CASE_FIXTURE(
    Fixture, "a record that is a photo of an inspection is not deleted (409) and keeps its file") {
  auto [id, key] = upload();
  auto reserva = db("insert into agendamento.reserva (inicio, fim, protocolo, solicitante_nome) values "
                    "(now() + interval '1 day', now() + interval '25 hours', 'P-MIDIA', 'Fulano') returning id");
  db("insert into atendimento.vistoria (agendamento_id, fotos, token_hash) values (" + reserva + ", '{" + id + "}', '" +
     cadastre::store::sha256_hex("x" + id) + "') returning 1");
  auto del = call("DELETE", "/midia/alfa/arquivos/" + id);
  CHECK(del->status == 409);
  CHECK(del->mensagem().find(reserva) != std::string::npos);
  CHECK(db("select count(*) from midia.arquivo where id = " + id) == "1");
  CHECK(std::filesystem::exists(file_of(key)));
  db("delete from agendamento.reserva where id = " + reserva + " returning 1");
  CHECK(call("DELETE", "/midia/alfa/arquivos/" + id)->status == 200);
}

TEST_CASE_FIXTURE(Fixture,
                  "ids of another tenant's records are 404, and bad ids are 400 before any SQL") {
  auto [id, key] = upload();
  std::string beta = token("beta");
  CHECK(db("select count(*) from midia.arquivo where id = " + id, "beta") == "0");
  CHECK(call("GET", "/midia/beta/arquivos/" + id, "", beta)->status == 404);
  CHECK(call("PUT", "/midia/beta/arquivos/" + id, R"({"descricao": "invadido"})", beta)->status == 404);
  CHECK(call("DELETE", "/midia/beta/arquivos/" + id, "", beta)->status == 404);
  CHECK(db("select coalesce(descricao, '') from midia.arquivo where id = " + id) == "");
  CHECK(std::filesystem::exists(file_of(key)));
  for (const char* bad : {"abc", "0", "-1", "1%20or%201=1", "01", "99999999999999999999"}) {
    auto a = call("GET", std::string("/midia/alfa/arquivos/") + bad);
    CHECK_MESSAGE(a->status == 400, std::string(bad));
  }
}
