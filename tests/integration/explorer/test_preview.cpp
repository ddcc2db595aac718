// POST /explorer/{municipio}/query/preview: a query description → the SQL text, with names
// quoted after the catalog check and values written as safe literals; nothing runs.
#include "fixture.hpp"

using namespace cadastre::test;

namespace {
std::unique_ptr<Answer> preview(const std::string& body) {
  return fixture().call("POST", "/explorer/alfa/query/preview", body);
}

std::string sql_of(const std::string& body) {
  auto a = preview(body);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  return a->text("sql");
}

// A description of lote with one filter.
std::string lote_where(const std::string& filter) {
  return R"({"tabela": "lote", "colunas": ["id"], "filtros": [)" + filter + "]}";
}

void check_refused(const std::string& body, int status, const std::string& codigo, const std::string& why) {
  auto a = preview(body);
  CHECK_MESSAGE(a->status == status, why << ": " << a->body);
  if (a->status == status) CHECK_MESSAGE(a->codigo() == codigo, why);
}
}  // namespace

TEST_CASE_FIXTURE(Fixture, "preview renders columns, filter, order and limit as SQL text") {
  auto a = preview(R"({"tabela": "lote", "colunas": ["id", "inscricao", "area_terreno"],
    "filtros": [{"coluna": "area_terreno", "operador": ">", "valor": 500}],
    "ordem": [{"coluna": "area_terreno", "direcao": "desc"}], "limite": 20})");
  REQUIRE(a->status == 200);
  CHECK(a->text("sql") ==
        R"(select t."id", t."inscricao", t."area_terreno" from "cadastro"."lote" t where t."area_terreno" > 500 )"
        R"(order by t."area_terreno" desc, t."id" limit 20)");
  CHECK(a->text("tabela") == "lote");
  CHECK(int64_t(a->json()["limite"]) == 20);
  CHECK(a->json()["colunas"].get_array().size() == 3);
}

TEST_CASE_FIXTURE(
    Fixture,
    "preview without columns selects every column, geometry as GeoJSON, with the default limit") {
  auto s = sql_of(R"({"tabela": "bairro"})");
  CHECK(s == R"(select t."id", t."codigo", t."nome", ST_AsGeoJSON(ST_Transform(t."geom", 4326), 7)::json as "geom" )"
             R"(from "cadastro"."bairro" t order by t."id" limit 100)");
}

TEST_CASE_FIXTURE(Fixture, "preview renders each operator") {
  CHECK(sql_of(lote_where(R"({"coluna": "inscricao", "operador": "=", "valor": "01.02"})")) ==
        R"(select t."id" from "cadastro"."lote" t where t."inscricao" = '01.02' order by t."id" limit 100)");
  CHECK(sql_of(lote_where(R"({"coluna": "numero", "operador": "<>", "valor": 10})")).find(R"(where t."numero" <> 10 )") !=
        std::string::npos);
  CHECK(sql_of(lote_where(R"({"coluna": "testada", "operador": "<", "valor": 12.5})")).find(R"(t."testada" < 12.5 )") !=
        std::string::npos);
  CHECK(sql_of(lote_where(R"({"coluna": "testada", "operador": "<=", "valor": "12"})")).find(R"(t."testada" <= 12 )") !=
        std::string::npos);
  CHECK(sql_of(lote_where(R"({"coluna": "criado_em", "operador": ">=", "valor": "2024-01-01"})"))
            .find(R"(t."criado_em" >= '2024-01-01'::timestamp with time zone )") != std::string::npos);
  CHECK(sql_of(lote_where(R"({"coluna": "inscricao", "operador": "icontains", "valor": "ab"})"))
            .find(R"(t."inscricao" ilike '%ab%' escape '\')") != std::string::npos);
  CHECK(sql_of(lote_where(R"({"coluna": "numero", "operador": "contains", "valor": "50%_x"})"))
            .find(R"(t."numero"::text like E'%50\\%\\_x%' escape '\')") != std::string::npos);
  CHECK(sql_of(lote_where(R"({"coluna": "geom", "operador": "is not null"})")).find(R"(where t."geom" is not null )") !=
        std::string::npos);
  CHECK(sql_of(R"({"tabela": "lote", "colunas": ["id"], "filtros": [
          {"coluna": "topografia", "operador": "in", "valor": ["plano", "aclive_ate_10"]},
          {"coluna": "numero", "operador": "is null"},
          {"coluna": "geom", "operador": "bbox", "valor": [-47.1, -22.95, -47.0, -22.9]}],
          "ordem": [{"coluna": "id", "direcao": "desc"}]})") ==
        R"(select t."id" from "cadastro"."lote" t where t."topografia" in ('plano', 'aclive_ate_10') and t."numero" is null )"
        R"(and t."geom" && ST_MakeEnvelope(-47.1, -22.95, -47, -22.9, 4674) order by t."id" desc limit 100)");
}

TEST_CASE_FIXTURE(Fixture, "preview writes hostile values as literals") {
  CHECK(sql_of(lote_where(R"({"coluna": "inscricao", "operador": "=", "valor": "x'; drop table cadastro.lote; --"})"))
            .find(R"(where t."inscricao" = 'x''; drop table cadastro.lote; --' order)") != std::string::npos);
  CHECK(sql_of(lote_where(R"({"coluna": "inscricao", "operador": "=", "valor": "a\\' or 1=1 --"})"))
            .find(R"(where t."inscricao" = E'a\\'' or 1=1 --' order)") != std::string::npos);
  CHECK(sql_of(lote_where(R"({"coluna": "inscricao", "operador": "in", "valor": ["it's", 7]})"))
            .find(R"(t."inscricao" in ('it''s', '7'))") != std::string::npos);
  // Numbers are checked to be numbers before they are written bare.
  check_refused(lote_where(R"({"coluna": "area_terreno", "operador": ">", "valor": "1; drop table cadastro.lote"})"), 400,
                "parametro_invalido", "número com SQL");
  check_refused(lote_where(R"({"coluna": "area_terreno", "operador": ">", "valor": "1e"})"), 400, "parametro_invalido",
                "expoente vazio");
  check_refused(lote_where(R"({"coluna": "inscricao", "operador": "=", "valor": "a\u0000b"})"), 400, "parametro_invalido",
                "NUL");
  CHECK(db("select to_regclass('cadastro.lote') is not null") == "t");
}

TEST_CASE_FIXTURE(Fixture, "preview refuses hostile and foreign identifiers with 400") {
  check_refused(R"({"tabela": "lote\"; drop table x; --"})", 400, "identificador_invalido", "tabela com aspas");
  check_refused(R"({"tabela": "plataforma.usuarios"})", 400, "identificador_invalido", "outro esquema");
  check_refused(R"({"tabela": "pg_catalog.pg_authid"})", 400, "identificador_invalido", "catálogo do sistema");
  check_refused(R"({"tabela": "pg_authid"})", 400, "parametro_invalido", "fora do catálogo");
  check_refused(R"({"tabela": "relatorio"})", 400, "parametro_invalido", "tabela de outro esquema do município");
  check_refused(R"({"tabela": "lote", "colunas": ["id\" from pg_authid --"]})", 400, "identificador_invalido",
                "coluna com aspas");
  check_refused(R"({"tabela": "lote", "colunas": ["senha"]})", 400, "campo_desconhecido", "coluna desconhecida");
  check_refused(lote_where(R"({"coluna": "rolpassword", "operador": "=", "valor": "x"})"), 400, "campo_desconhecido",
                "filtro em coluna desconhecida");
  check_refused(lote_where(R"({"coluna": "id; --", "operador": "=", "valor": 1})"), 400, "identificador_invalido",
                "filtro com SQL no nome");
  check_refused(R"({"tabela": "lote", "ordem": [{"coluna": "id desc; drop table x"}]})", 400, "identificador_invalido",
                "ordem com SQL");
  check_refused(R"({"tabela": "lote", "ordem": [{"coluna": "nada"}]})", 400, "campo_desconhecido", "ordem desconhecida");
  check_refused(lote_where(R"({"coluna": "id", "operador": "= 1 or 1 = 1 --", "valor": 1})"), 400, "parametro_invalido",
                "operador inventado");
  auto a = preview(R"({"tabela": "lote", "colunas": ["senha"]})");
  CHECK(a->text("mensagem").find("senha") != std::string::npos);
  CHECK(std::string(std::string_view(a->json()["codigo"])) == "campo_desconhecido");
  CHECK(db("select to_regclass('cadastro.lote') is not null") == "t");
}

TEST_CASE_FIXTURE(Fixture,
                  "preview refuses descriptions that do not fit the columns or the format") {
  check_refused("{", 400, "json_invalido", "JSON inválido");
  check_refused("[]", 400, "parametro_invalido", "não é objeto");
  check_refused(R"({"colunas": ["id"]})", 400, "campo_obrigatorio", "sem tabela");
  check_refused(R"({"tabela": "lote", "where": "1=1"})", 400, "campo_desconhecido", "membro desconhecido");
  check_refused(R"({"tabela": "lote", "colunas": ["id", "id"]})", 400, "parametro_invalido", "coluna repetida");
  check_refused(R"({"tabela": "lote", "limite": 0})", 400, "parametro_invalido", "limite zero");
  check_refused(R"({"tabela": "lote", "limite": 10001})", 400, "parametro_invalido", "limite acima do máximo");
  check_refused(R"({"tabela": "lote", "limite": "10"})", 400, "parametro_invalido", "limite em texto");
  check_refused(R"({"tabela": "lote", "ordem": [{"coluna": "id", "direcao": "up"}]})", 400, "parametro_invalido",
                "direção inválida");
  check_refused(R"({"tabela": "lote", "ordem": [{"coluna": "geom"}]})", 400, "parametro_invalido", "ordem por geometria");
  check_refused(lote_where(R"({"coluna": "geom", "operador": "=", "valor": "x"})"), 400, "parametro_invalido",
                "comparação de geometria");
  check_refused(lote_where(R"({"coluna": "area_terreno", "operador": "bbox", "valor": [0, 0, 1, 1]})"), 400,
                "parametro_invalido", "bbox fora de geometria");
  check_refused(lote_where(R"({"coluna": "geom", "operador": "bbox", "valor": [0, 0, 1]})"), 400, "parametro_invalido",
                "bbox incompleto");
  check_refused(lote_where(R"({"coluna": "geom", "operador": "bbox", "valor": [0, 95, 1, 96]})"), 400,
                "parametro_invalido", "latitude fora do intervalo");
  check_refused(lote_where(R"({"coluna": "id", "operador": "in", "valor": []})"), 400, "parametro_invalido", "in vazio");
  check_refused(lote_where(R"({"coluna": "id", "operador": "in", "valor": 3})"), 400, "parametro_invalido",
                "in sem lista");
  check_refused(lote_where(R"({"coluna": "numero", "operador": "is null", "valor": 3})"), 400, "parametro_invalido",
                "is null com valor");
  check_refused(lote_where(R"({"coluna": "numero", "operador": "=", "valor": null})"), 400, "campo_obrigatorio",
                "valor nulo");
  check_refused(lote_where(R"({"coluna": "numero", "operador": "=", "valor": true})"), 400, "parametro_invalido",
                "booleano em coluna numérica");
  check_refused(lote_where(R"({"coluna": "numero", "operador": "=", "valor": {"a": 1}})"), 400, "parametro_invalido",
                "objeto como valor");
  check_refused(lote_where(R"({"coluna": "numero", "operador": "="})"), 400, "campo_obrigatorio", "sem valor");
  check_refused(lote_where(R"({"coluna": "numero", "operador": "=", "valor": 1, "extra": 2})"), 400, "campo_desconhecido",
                "membro extra no filtro");
}

TEST_CASE_FIXTURE(Fixture, "preview needs read permission on the table") {
  const auto& reader = user_with("so-lote@alfa.gov.br", {"lote:r"});
  CHECK(call("POST", "/explorer/alfa/query/preview", R"({"tabela": "lote"})", reader.token)->status == 200);
  auto a = call("POST", "/explorer/alfa/query/preview", R"({"tabela": "pessoa"})", reader.token);
  CHECK(a->status == 403);
  CHECK(a->codigo() == "acesso_negado");
}
