// POST /caracterizacao/{municipio}/lookups/batch: several option lists in one answer, each
// checked against the database; any invalid query refuses the whole batch naming it.
#include "fixture.hpp"

using namespace cadastre::test;

TEST_CASE_FIXTURE(Fixture, "lookups/batch answers each query's value/label list in order") {
  const std::string quadra = db("select min(id)::text from cadastro.quadra");
  auto a = lookups(R"({"queries": [
      {"tabela": "dominio.uso"},
      {"tabela": "cadastro.bairro", "valor": "id", "rotulo": "nome"},
      {"tabela": "cadastro.lote", "valor": "id", "rotulo": "inscricao", "filtro": {"quadra_id": )" + quadra + R"(}, "limite": 3},
      {"tabela": "dominio.topografia", "filtro": {"codigo": "NAO-EXISTE"}},
      {"tabela": "cadastro.pessoa", "filtro": {"email": null, "tipo": "J"}, "limite": 5}]})");
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto r = a->json()["resultados"];
  REQUIRE(r.get_array().size() == 5);
  CHECK(ids(r.at(0), "valor") == db("select string_agg(codigo, ',' order by descricao, codigo) from dominio.uso"));
  CHECK(ids(r.at(0), "rotulo") == db("select string_agg(descricao, ',' order by descricao, codigo) from dominio.uso"));
  CHECK(ids(r.at(1), "valor") == db("select string_agg(id::text, ',' order by nome, id) from cadastro.bairro"));
  CHECK(ids(r.at(2), "valor") == db("select string_agg(id::text, ',' order by inscricao, id) from (select id, inscricao from "
                                    "cadastro.lote where quadra_id = " + quadra + " order by inscricao, id limit 3) x"));
  CHECK(r.at(2).get_array().size() == 3);
  CHECK(r.at(3).get_array().size() == 0);
  CHECK(ids(r.at(4), "valor") == db("select coalesce(string_agg(id::text, ',' order by nome, id), '') from (select id, nome "
                                    "from cadastro.pessoa where email is null and tipo = 'J' order by nome, id limit 5) x"));
}

TEST_CASE_FIXTURE(Fixture, "an invalid query refuses the whole batch, naming its index") {
  struct Case {
    std::string query;
    int status;
    std::string codigo;
  };
  for (const Case& c : std::vector<Case>{
           {R"({"tabela": "pg_catalog.pg_authid"})", 400, "parametro_invalido"},
           {R"({"tabela": "plataforma.usuarios"})", 400, "parametro_invalido"},
           {R"({"tabela": "cadastro.lote; drop table cadastro.lote"})", 400, "identificador_invalido"},
           {R"({"tabela": "cadastro.nada"})", 404, "camada_nao_encontrada"},
           {R"({"tabela": "cadastro.lote", "rotulo": "nada"})", 400, "campo_desconhecido"},
           {R"({"tabela": "cadastro.lote", "rotulo": "geom"})", 400, "parametro_invalido"},
           {R"({"tabela": "cadastro.lote", "valor": "id\"; --"})", 400, "identificador_invalido"},
           {R"({"tabela": "cadastro.lote"})", 400, "campo_obrigatorio"},  // no nome nor descricao: rotulo needed
           {R"({"tabela": "cadastro.lote", "rotulo": "inscricao", "filtro": {"quadra_id": "um"}})", 400, "parametro_invalido"},
           {R"({"tabela": "cadastro.lote", "rotulo": "inscricao", "filtro": {"quadra_id": [1, 2]}})", 400, "parametro_invalido"},
           {R"({"tabela": "cadastro.lote", "rotulo": "inscricao", "limite": 1001})", 400, "parametro_invalido"},
           {R"({"tabela": "cadastro.lote", "rotulo": "inscricao", "limite": "10"})", 400, "parametro_invalido"},
           {R"({"tabela": "dominio.uso", "ordem": "x"})", 400, "campo_desconhecido"},
           {R"({"valor": "id"})", 400, "campo_obrigatorio"},
           {R"("dominio.uso")", 400, "parametro_invalido"}}) {
    auto a = lookups(R"({"queries": [{"tabela": "dominio.uso"}, {"tabela": "dominio.situacao"}, )" + c.query + "]}");
    CHECK_MESSAGE(a->status == c.status, c.query << " → " << a->body);
    CHECK_MESSAGE(a->codigo() == c.codigo, c.query);
    CHECK(std::string_view(a->json()["lista"]) == "queries");
    CHECK(int64_t(a->json()["linha"]) == 3);
    CHECK(a->mensagem().rfind("queries[2]", 0) == 0);
    simdjson::dom::element none;
    CHECK(a->json()["resultados"].get(none) != simdjson::SUCCESS);
  }
}

TEST_CASE_FIXTURE(Fixture, "lookups/batch checks the body and the read permission of every table") {
  std::string many = R"({"queries": [)";
  for (int i = 0; i < 51; ++i) many += std::string(i ? "," : "") + R"({"tabela": "dominio.uso"})";
  CHECK(lookups(many + "]}")->status == 400);
  CHECK(lookups(R"({"queries": []})")->status == 400);
  CHECK(lookups(R"({"consultas": []})")->status == 400);
  CHECK(lookups(R"({})")->status == 400);
  CHECK(lookups("[]")->status == 400);

  auto domains = city().add_user("alfa", "carac-dominio@alfa.gov.br", {"dominio:r", "bairro:r"});
  auto ok = lookups(R"({"queries": [{"tabela": "dominio.uso"}, {"tabela": "cadastro.bairro"}]})", domains.token);
  CHECK(ok->status == 200);
  auto denied = lookups(R"({"queries": [{"tabela": "dominio.uso"}, {"tabela": "cadastro.pessoa"}]})", domains.token);
  CHECK(denied->status == 403);
  CHECK(denied->codigo() == "acesso_negado");
  CHECK(int64_t(denied->json()["linha"]) == 2);
  auto lots_only = city().add_user("alfa", "carac-lookup-lote@alfa.gov.br", {"lote:r"});
  CHECK(lookups(R"({"queries": [{"tabela": "dominio.uso"}]})", lots_only.token)->status == 403);
  auto beta = lookups(R"({"queries": [{"tabela": "dominio.uso"}]})", city().user("beta").token);
  CHECK(beta->status == 403);
  CHECK(beta->codigo() == "municipio_nao_permitido");
}

TEST_CASE_FIXTURE(Fixture, "the characterization routes are documented in /openapi.json") {
  auto r = city().client().Get("/openapi.json");
  REQUIRE(r);
  simdjson::dom::parser parser;
  auto paths = parser.parse(r->body).value()["paths"];
  auto nearest =
      paths["/caracterizacao/{municipio}/nearest-features/{layer_reference}/{layer_reference_id}/{layer_interest}/{limit}"]["get"];
  CHECK(std::string_view(nearest["summary"]).find("1 a 100") != std::string_view::npos);
  simdjson::dom::element e;
  CHECK(paths["/caracterizacao/{municipio}/get-data/{id_lote}"]["get"].get(e) == simdjson::SUCCESS);
  CHECK(paths["/caracterizacao/{municipio}/lookups/batch"]["post"].get(e) == simdjson::SUCCESS);
}
