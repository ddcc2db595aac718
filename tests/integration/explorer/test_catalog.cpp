// GET /explorer/{municipio}/tabelas/: the tenant's catalog as the explorer shows it.
#include "fixture.hpp"

using namespace cadastre::test;

namespace {
simdjson::dom::element table_named(simdjson::dom::element tables, std::string_view name) {
  for (auto t : tables.get_array())
    if (std::string_view(t["nome"]) == name) return t;
  FAIL("tabela ausente: " << name);
  return {};
}
}  // namespace

TEST_CASE_FIXTURE(
    Fixture, "tabelas lists the layers with their columns, types, geometry and a row estimate") {
  db("analyze cadastro.lote; select 1");
  auto a = call("GET", "/explorer/alfa/tabelas/");
  REQUIRE(a->status == 200);
  auto j = a->json();
  CHECK(std::string_view(j["municipio"]) == "alfa");
  CHECK(std::string_view(j["esquema"]) == "cadastro");
  auto lote = table_named(j["tabelas"], "lote");
  CHECK(std::string_view(lote["tipo"]) == "tabela");
  CHECK(std::string_view(lote["chave_primaria"]) == "id");
  CHECK(std::string_view(lote["geometria"]["coluna"]) == "geom");
  CHECK(std::string_view(lote["geometria"]["tipo"]) == "MultiPolygon");
  CHECK(int64_t(lote["geometria"]["srid"]) == 4674);
  CHECK(int64_t(lote["linhas_estimadas"]) == std::stoll(db("select count(*) from cadastro.lote")));
  std::string columns;
  for (auto c : lote["colunas"].get_array())
    columns += std::string(std::string_view(c["nome"])) + ":" + std::string(std::string_view(c["tipo"])) + ";";
  CHECK(columns.find("id:integer;inscricao:text;") == 0);
  CHECK(columns.find("area_terreno:numeric(12,2);") != std::string::npos);
  CHECK(columns.find("geom:geometry(MultiPolygon,4674);") != std::string::npos);
  auto first = lote["colunas"].at(0);
  CHECK(bool(first["chave_primaria"]));
  CHECK_FALSE(bool(first["nulo"]));
  CHECK(std::string_view(first["tipo_base"]) == "int4");
  // Other layers are listed too; a table without geometry says so.
  auto pessoa = table_named(j["tabelas"], "pessoa");
  CHECK(pessoa["geometria"].is_null());
  table_named(j["tabelas"], "imobiliario");
}

TEST_CASE_FIXTURE(Fixture, "tabelas shows only the layers the caller may read") {
  const auto& reader = user_with("so-lote@alfa.gov.br", {"lote:r"});
  auto a = call("GET", "/explorer/alfa/tabelas/", "", reader.token);
  REQUIRE(a->status == 200);
  auto tables = a->json()["tabelas"].get_array();
  REQUIRE(tables.size() == 1);
  CHECK(std::string_view(tables.at(0)["nome"]) == "lote");
}

TEST_CASE_FIXTURE(Fixture, "tabelas needs a token of the tenant") {
  CHECK(request("GET", "/explorer/alfa/tabelas/", {})->status == 401);
  CHECK(call("GET", "/explorer/beta/tabelas/")->status == 403);  // alfa's user, beta's catalog
}
