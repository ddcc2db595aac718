// Saved reports as the pseudo-layer "relatorios" of /explorer/{municipio}/{camada}: the
// query description is checked against the catalog on write and stored in canonical form.
#include "fixture.hpp"

using namespace cadastre::test;

namespace {
const char* kLotQuery =
    R"({"tabela": "lote", "colunas": ["id", "inscricao", "area_terreno"],
        "filtros": [{"coluna": "area_terreno", "operador": ">", "valor": 300}],
        "ordem": [{"coluna": "area_terreno", "direcao": "desc"}]})";

std::string report(const std::string& nome, const std::string& consulta = kLotQuery, const std::string& titulo = "") {
  std::string body = R"({"nome": ")" + nome + R"(", "consulta": )" + consulta;
  if (!titulo.empty()) body += R"(, "titulo": ")" + titulo + "\"";
  return body + "}";
}

std::string create(const std::string& nome) {
  auto a = fixture().call("POST", "/explorer/alfa/relatorios", report(nome));
  REQUIRE_MESSAGE(a->status == 201, a->body);
  return std::to_string(int64_t(a->json()["id"]));
}
}  // namespace

TEST_CASE_FIXTURE(Fixture,
                  "a report is created with its checked query, listed, changed and deleted") {
  auto created = call("POST", "/explorer/alfa/relatorios", report("Lotes grandes", kLotQuery, "Lotes acima de 300 m²"));
  REQUIRE_MESSAGE(created->status == 201, created->body);
  auto j = created->json();
  auto id = std::to_string(int64_t(j["id"]));
  CHECK(created->text("nome") == "Lotes grandes");
  CHECK(created->text("titulo") == "Lotes acima de 300 m²");
  CHECK(created->text("criado_por") == "usuario@alfa.gov.br");
  CHECK(std::string_view(j["consulta"]["filtros"].at(0)["operador"]) == ">");
  CHECK(created->header("Location") == "/explorer/alfa/relatorios/" + id);
  CHECK(db("select consulta::text from explorer.relatorio where id = " + id) ==
        R"({"ordem": [{"coluna": "area_terreno", "direcao": "desc"}], "tabela": "lote", "colunas": ["id", "inscricao", )"
        R"("area_terreno"], "filtros": [{"valor": 300, "coluna": "area_terreno", "operador": ">"}]})");

  auto list = call("GET", "/explorer/alfa/relatorios?page_size=1000");
  REQUIRE(list->status == 200);
  CHECK(std::string_view(list->json()["camada"]) == "relatorios");
  CHECK(std::to_string(int64_t(list->json()["total"])) == db("select count(*) from explorer.relatorio"));
  CHECK(list->body.find("\"Lotes grandes\"") != std::string::npos);

  auto renamed = call("PUT", "/explorer/alfa/relatorios/" + id,
                      R"({"nome": "Lotes muito grandes", "titulo": null, "consulta": {"tabela": "lote", "limite": 7}})");
  REQUIRE_MESSAGE(renamed->status == 200, renamed->body);
  CHECK(renamed->text("nome") == "Lotes muito grandes");
  CHECK(renamed->json()["titulo"].is_null());
  CHECK(db("select nome || '|' || coalesce(titulo, '-') || '|' || (consulta->>'limite') from explorer.relatorio where id = " +
           id) == "Lotes muito grandes|-|7");
  CHECK(db("select (atualizado_em > criado_em)::text from explorer.relatorio where id = " + id) == "true");

  auto removed = call("DELETE", "/explorer/alfa/relatorios/" + id);
  REQUIRE(removed->status == 200);
  CHECK(std::string_view(removed->json()["registro"]["nome"]) == "Lotes muito grandes");
  CHECK(db("select count(*) from explorer.relatorio where id = " + id) == "0");
  CHECK(db("select string_agg(operacao || ':' || usuario_email, ',' order by id) from auditoria.registro where tabela = "
           "'explorer.relatorio' and registro_id = '" + id + "'") ==
        "I:usuario@alfa.gov.br,U:usuario@alfa.gov.br,D:usuario@alfa.gov.br");
}

TEST_CASE_FIXTURE(Fixture, "reports list page by page") {
  create("Paginado 1");
  create("Paginado 2");
  create("Paginado 3");
  auto a = call("GET", "/explorer/alfa/relatorios?page=2&page_size=2");
  REQUIRE(a->status == 200);
  CHECK(int64_t(a->json()["limite"]) == 2);
  CHECK(a->json()["registros"].get_array().size() ==
        std::min<std::size_t>(2, std::stoul(db("select count(*) from explorer.relatorio")) - 2));
  std::string ids;
  for (auto r : a->json()["registros"].get_array()) ids += std::to_string(int64_t(r["id"])) + ",";
  CHECK(ids == db("select string_agg(id::text || ',', '' order by id) from (select id from explorer.relatorio order by id "
                  "limit 2 offset 2) t"));
  CHECK(call("GET", "/explorer/alfa/relatorios?page_size=5000")->status == 400);
}

TEST_CASE_FIXTURE(Fixture, "a report's query is checked against the catalog on write") {
  auto count = db("select count(*) from explorer.relatorio");
  auto unknown_column = call("POST", "/explorer/alfa/relatorios",
                             report("Ruim 1", R"({"tabela": "lote", "colunas": ["senha"]})"));
  CHECK(unknown_column->status == 400);
  CHECK(unknown_column->codigo() == "campo_desconhecido");
  CHECK(unknown_column->mensagem().find("senha") != std::string::npos);
  CHECK(call("POST", "/explorer/alfa/relatorios", report("Ruim 2", R"({"tabela": "pg_catalog.pg_authid"})"))->status == 400);
  CHECK(call("POST", "/explorer/alfa/relatorios", report("Ruim 3", R"({"tabela": "usuarios"})"))->status == 400);
  CHECK(call("POST", "/explorer/alfa/relatorios",
             report("Ruim 4", R"({"tabela": "lote", "filtros": [{"coluna": "area_terreno", "operador": ">", "valor": "x"}]})"))
            ->status == 400);
  CHECK(call("POST", "/explorer/alfa/relatorios", report("Ruim 5", R"("lote")"))->status == 400);
  CHECK(call("POST", "/explorer/alfa/relatorios", R"({"consulta": {"tabela": "lote"}})")->codigo() == "campo_obrigatorio");
  CHECK(call("POST", "/explorer/alfa/relatorios", R"({"nome": "Sem consulta"})")->codigo() == "campo_obrigatorio");
  CHECK(call("POST", "/explorer/alfa/relatorios", R"({"nome": "  ", "consulta": {"tabela": "lote"}})")->status == 400);
  CHECK(call("POST", "/explorer/alfa/relatorios", R"({"nome": "X", "consulta": {"tabela": "lote"}, "sql": "drop"})")
            ->codigo() == "campo_desconhecido");
  CHECK(db("select count(*) from explorer.relatorio") == count);

  auto id = create("Validado na alteração");
  auto bad_put = call("PUT", "/explorer/alfa/relatorios/" + id, R"({"consulta": {"tabela": "lote", "colunas": ["x"]}})");
  CHECK(bad_put->status == 400);
  CHECK(db("select consulta->>'tabela' from explorer.relatorio where id = " + id) == "lote");
}

TEST_CASE_FIXTURE(Fixture,
                  "report names are unique, ids are integers and missing reports are 404") {
  auto id = create("Nome único");
  auto twice = call("POST", "/explorer/alfa/relatorios", report("Nome único"));
  CHECK(twice->status == 409);
  CHECK(twice->codigo() == "conflito");
  CHECK(call("PUT", "/explorer/alfa/relatorios/abc", R"({"nome": "x"})")->status == 400);
  CHECK(call("PUT", "/explorer/alfa/relatorios/1%20or%201%3D1", R"({"nome": "x"})")->status == 400);
  CHECK(call("PUT", "/explorer/alfa/relatorios/999999", R"({"nome": "x"})")->status == 404);
  CHECK(call("DELETE", "/explorer/alfa/relatorios/999999")->status == 404);
  CHECK(call("DELETE", "/explorer/alfa/relatorios/0")->status == 400);
  CHECK(call("PUT", "/explorer/alfa/relatorios/" + id, R"({"id": 999998, "nome": "x"})")->status == 400);
  CHECK(call("PUT", "/explorer/alfa/relatorios/" + id, R"({"id": )" + id + R"(, "titulo": "Com id"})")->status == 200);
  auto other = create("Outro nome");
  CHECK(call("PUT", "/explorer/alfa/relatorios/" + other, R"({"nome": "Nome único"})")->status == 409);
  CHECK(db("select nome from explorer.relatorio where id = " + other) == "Outro nome");
}

TEST_CASE_FIXTURE(Fixture,
                  "reports follow the permission of the pseudo-layer explorer and of their table") {
  const auto& none = user_with("so-lote@alfa.gov.br", {"lote:r"});
  const auto& reader = user_with("leitor-relatorios@alfa.gov.br", {"lote:r", "explorer:r"});
  const auto& writer = user_with("autor-relatorios@alfa.gov.br", {"lote:r", "explorer:rw"});
  auto id = create("Permissões");
  CHECK(call("GET", "/explorer/alfa/relatorios", "", none.token)->status == 403);
  CHECK(call("GET", "/explorer/alfa/relatorios", "", reader.token)->status == 200);
  auto denied = call("POST", "/explorer/alfa/relatorios", report("Do leitor"), reader.token);
  CHECK(denied->status == 403);
  CHECK(denied->codigo() == "acesso_negado");
  CHECK(call("DELETE", "/explorer/alfa/relatorios/" + id, "", reader.token)->status == 403);
  CHECK(call("POST", "/explorer/alfa/relatorios", report("Do autor"), writer.token)->status == 201);
  // The author may not save a report over a table they cannot read.
  CHECK(call("POST", "/explorer/alfa/relatorios", report("Pessoas", R"({"tabela": "pessoa"})"), writer.token)->status ==
        403);
  CHECK(db("select count(*) from explorer.relatorio where nome in ('Do leitor', 'Pessoas')") == "0");
}
