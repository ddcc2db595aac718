// GET /campos/:id/converter: a dry run reports which stored values would not convert and
// changes nothing; confirmar=true applies a conversion with no failures in one transaction
// (the field retyped, its column of the layer's table of the new type holding the converted
// values, an audit row per value) and
// refuses one with failures (409, nothing changed). split divides a text field into new
// fields chave_1, chave_2... under the same rule. (A GET that writes is the spec's choice;
// the write stays behind confirmar=true.)
#include <string>

#include "cast.hpp"

using namespace cadastre;
using test::anonymous;
using test::PlatformFixture;
using test::refused;
using test::str;
using test::World;

namespace {

std::string failures(test::Answer& a) { return test::ids(a.json()["falhas"], "motivo"); }

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture, "converting a text field to decimal: dry run, refusal with failures, then apply") {
  World x(*this);
  std::int64_t form = x.form(x.layer, "Ficha");
  std::int64_t area = x.field(form, R"({"nome":"Área","chave":"area","tipo":"texto","maximo":20})");
  std::int64_t g[5];
  for (auto& one : g) one = x.geometry();
  std::int64_t v[5] = {x.value(g[0], area, "'12,5'"), x.value(g[1], area, "'1.234,56'"),
                       x.value(g[2], area, "'doze'"), x.value(g[3], area, "'7'"),
                       x.value(g[4], area, "null")};
  const std::string path = "/campos/" + str(area) + "/converter?tipo=decimal";
  // The column's values by geometry ('-': none) and its SQL type.
  const std::string stored = "select string_agg(coalesce(c_" + str(area) + "::text, '-'), ' ' order by id) || '|' || "
                             "min(pg_typeof(c_" + str(area) + ")::text) from " + x.table();
  const std::string before = x.db(stored);
  const std::string generation = x.db("select geracao from projeto.camadas where id = " + str(x.layer));

  auto dry = get(path, x.who.owner);
  REQUIRE_MESSAGE(dry->status == 200, dry->body);
  // g[4]'s NULL is no value: not read.
  CHECK(int64_t(dry->json()["total"]) == 4);
  CHECK(int64_t(dry->json()["convertidos"]) == 3);
  CHECK_FALSE(bool(dry->json()["aplicado"]));
  CHECK(failures(*dry) == "'doze' não é um número");
  CHECK(int64_t(dry->json()["falhas"].at(0)["idValor"]) == v[2]);
  CHECK(int64_t(dry->json()["falhas"].at(0)["idGeometria"]) == g[2]);
  CHECK(simdjson::minify(dry->json()["falhas"].at(0)["valor"]) == R"("doze")");
  CHECK(test::ids(dry->json()["campos"], "tipo") == "decimal");
  // confirmar=false is the same dry run.
  CHECK(get(path + "&confirmar=false", x.who.owner)->body == dry->body);

  auto no = get(path + "&confirmar=true", x.who.owner);
  refused(*no, 409, "conflito", "1 valores não convertem");
  CHECK(failures(*no) == "'doze' não é um número");
  CHECK_FALSE(bool(no->json()["aplicado"]));
  // Nothing changed: the field's type, its values, the audit, the layer's generation.
  CHECK(x.db("select tipo || '|' || maximo from projeto.campos where id = " + str(area)) == "texto|20");
  CHECK(x.db(stored) == before);
  CHECK(x.count("valores_auditoria") == "0");
  CHECK(x.db("select geracao from projeto.camadas where id = " + str(x.layer)) == generation);

  // Once the value that did not convert is fixed, the conversion applies.
  x.db("update " + x.table() + " set c_" + str(area) + " = '3' where id = " + str(g[2]) + " returning 1");
  auto yes = get(path + "&confirmar=true", x.who.owner);
  REQUIRE_MESSAGE(yes->status == 200, yes->body);
  CHECK(bool(yes->json()["aplicado"]));
  CHECK(int64_t(yes->json()["convertidos"]) == 4);
  CHECK(yes->json()["falhas"].get_array().size() == 0);
  CHECK(std::string(std::string_view(yes->json()["campos"].at(0)["tipo"])) == "decimal");
  // A text's length bound means nothing for a number: dropped.
  CHECK(x.db("select tipo || '|' || coalesce(maximo::text, '-') from projeto.campos where id = " + str(area)) ==
        "decimal|-");
  CHECK(x.db(stored) == "12.5 1234.56 3 7 -|numeric");
  CHECK(x.db("select string_agg(operacao || ':' || antes::text || '>' || depois::text || ':' || usuario_id, ' ' "
             "order by valor_id) from projeto.valores_auditoria where campo_id = " + str(area)) ==
        "converter:\"12,5\">12.5:" + str(x.who.owner.user_id) + " converter:\"1.234,56\">1234.56:" +
            str(x.who.owner.user_id) + " converter:\"3\">3:" + str(x.who.owner.user_id) + " converter:\"7\">7:" +
            str(x.who.owner.user_id));
  // Its id is the value's: the one the value routes answer.
  CHECK(x.db("select string_agg(valor_id::text, ',' order by valor_id) from projeto.valores_auditoria") ==
        str(v[0]) + "," + str(v[1]) + "," + str(v[2]) + "," + str(v[3]));
  CHECK(std::stoll(x.db("select geracao from projeto.camadas where id = " + str(x.layer))) ==
        std::stoll(generation) + 1);
  // Now a decimal: to integer, 12.5 and 1234.56 do not convert.
  auto to_int = get("/campos/" + str(area) + "/converter?tipo=inteiro", x.who.owner);
  CHECK(failures(*to_int) == "'12.5' não é um número inteiro,'1234.56' não é um número inteiro");
  refused(*get("/campos/" + str(area) + "/converter?tipo=decimal", x.who.owner), 400, "parametro_invalido", "tipo");
}

TEST_CASE_FIXTURE(PlatformFixture, "converting to a list takes the distinct texts as options; formulas guard their inputs") {
  World x(*this);
  std::int64_t form = x.form(x.layer, "Ficha");
  std::int64_t uso = x.field(form, R"({"nome":"Uso","chave":"uso","tipo":"texto"})");
  std::int64_t area = x.field(form, R"({"nome":"Área","chave":"area","tipo":"decimal"})");
  x.field(form, R"({"nome":"Dobro","chave":"dobro","tipo":"calculado","formula":"area * 2"})");
  for (const char* t : {"'loja'", "'casa'", "'loja'"}) x.value(x.geometry(), uso, t);
  x.value(x.geometry(), area, "10");

  auto list = get("/campos/" + str(uso) + "/converter?tipo=lista&confirmar=true", x.who.owner);
  REQUIRE_MESSAGE(list->status == 200, list->body);
  CHECK(x.db("select tipo || '|' || opcoes::text from projeto.campos where id = " + str(uso)) ==
        R"(lista|["loja", "casa"])");
  CHECK(x.db("select string_agg(c_" + str(uso) + ", ',' order by id) from " + x.table()) == "loja,casa,loja");
  auto multiple = get("/campos/" + str(uso) + "/converter?tipo=multipla&confirmar=true", x.who.owner);
  REQUIRE_MESSAGE(multiple->status == 200, multiple->body);
  // A change of type family: the column made anew (jsonb) with the converted values.
  CHECK(x.db("select string_agg(c_" + str(uso) + "::text, ',' order by id) || '|' || min(pg_typeof(c_" + str(uso) +
             ")::text) from " + x.table()) == R"(["loja"],["casa"],["loja"]|jsonb)");

  // dobro reads area: area stays a number.
  refused(*get("/campos/" + str(area) + "/converter?tipo=texto", x.who.owner), 409, "conflito", "dobro");
  CHECK(get("/campos/" + str(area) + "/converter?tipo=inteiro&confirmar=true", x.who.owner)->status == 200);
  CHECK(x.db("select tipo from projeto.campos where id = " + str(area)) == "inteiro");
  refused(*get("/campos/" + str(area) + "/converter?tipo=calculado", x.who.owner), 400, "parametro_invalido", "tipo");
  refused(*get("/campos/" + str(area) + "/converter", x.who.owner), 400, "campo_obrigatorio", "tipo");
  refused(*get("/campos/" + str(area) + "/converter?tipo=texto&confirmar=sim", x.who.owner), 400, "parametro_invalido",
          "confirmar");
}

TEST_CASE_FIXTURE(PlatformFixture, "split divides a text field into new fields, all or nothing") {
  World x(*this);
  std::int64_t form = x.form(x.layer, "Ficha");
  std::int64_t medidas = x.field(form, R"({"nome":"Medidas","chave":"medidas","tipo":"texto"})");
  std::int64_t g[3] = {x.geometry(), x.geometry(), x.geometry()};
  x.value(g[0], medidas, "'10 x 20'");
  x.value(g[1], medidas, "'12,5 x 30 x 3'");
  std::int64_t bad = x.value(g[2], medidas, "'8 x ?'");
  const std::string path = "/campos/" + str(medidas) + "/converter?tipo=decimal&split=%20x%20";

  auto dry = get(path, x.who.owner);
  REQUIRE_MESSAGE(dry->status == 200, dry->body);
  CHECK(bool(dry->json()["divisao"]));
  CHECK(test::ids(dry->json()["campos"], "chave") == "medidas_1,medidas_2,medidas_3");
  CHECK(failures(*dry) == "parte 2: '?' não é um número");
  CHECK(int64_t(dry->json()["falhas"].at(0)["idValor"]) == bad);
  refused(*get(path + "&confirmar=true", x.who.owner), 409, "conflito", "não convertem");
  CHECK(x.count("campos", "chave like 'medidas\\_%'") == "0");
  CHECK(x.count("valores_auditoria") == "0");

  x.db("update " + x.table() + " set c_" + str(medidas) + " = '8 x 9' where id = " + str(g[2]) + " returning 1");
  auto yes = get(path + "&confirmar=true", x.who.owner);
  REQUIRE_MESSAGE(yes->status == 200, yes->body);
  CHECK(bool(yes->json()["aplicado"]));
  CHECK(test::ids(yes->json()["campos"], "chave") == "medidas_1,medidas_2,medidas_3");
  CHECK(test::ids(yes->json()["campos"], "tipo") == "decimal,decimal,decimal");
  CHECK(x.db("select string_agg(k.chave || '=' || (v.valor #>> '{}'), ' ' order by g.id, k.chave) from "
             "projeto.geometrias g cross join lateral projeto.valores_de(g.id) v join projeto.campos k on k.id = "
             "v.campo_id where jsonb_typeof(v.valor) = 'number' and k.chave like 'medidas\\_%'") ==
        "medidas_1=10 medidas_2=20 medidas_1=12.5 medidas_2=30 medidas_3=3 medidas_1=8 medidas_2=9");
  CHECK(x.count("valores_auditoria", "operacao = 'converter' and antes is null") == "7");
  // The text field stays as it was.
  CHECK(x.db("select tipo || '|' || (select count(c_" + str(medidas) + ") from " + x.table() +
             ") from projeto.campos where id = " + str(medidas)) == "texto|3");
  // Once made, the new keys are taken.
  refused(*get(path, x.who.owner), 409, "conflito", "medidas_1");
  std::int64_t number = x.field(form, R"({"nome":"N","chave":"n","tipo":"inteiro"})");
  refused(*get("/campos/" + str(number) + "/converter?tipo=texto&split=%3B", x.who.owner), 400, "parametro_invalido",
          "split");
}

TEST_CASE_FIXTURE(PlatformFixture, "converter is for the layer's admins, on active forms, in the caller's tenant") {
  World x(*this);
  std::int64_t form = x.form(x.layer, "Ficha");
  std::int64_t uso = x.field(form, R"({"nome":"Uso","chave":"uso","tipo":"texto"})");
  x.value(x.geometry(), uso, "'1'");
  const std::string path = "/campos/" + str(uso) + "/converter?tipo=inteiro&confirmar=true";

  refused(*get(path, x.who.reader), 403, "acesso_negado");
  refused(*get(path, x.who.editor), 403, "acesso_negado");
  refused(*get(path, x.who.stranger), 404, "nao_encontrado");
  refused(*get(path, x.who.beta), 404, "nao_encontrado");
  refused(*anonymous(*this, "GET", path), 401, "nao_autenticado");
  refused(*get("/campos/1;drop/converter?tipo=texto", x.who.owner), 400, "parametro_invalido");
  refused(*get("/campos/" + str(uso) + "/converter?tipo=texto&x=1", x.who.owner), 400, "campo_desconhecido", "x");
  REQUIRE(post("/formularios/inativar/" + str(form), "", x.who.owner)->status == 200);
  refused(*get(path, x.who.owner), 409, "transicao_invalida", "inativo");
  CHECK(x.db("select tipo from projeto.campos where id = " + str(uso)) == "texto");
  REQUIRE(post("/formularios/ativar/" + str(form), "", x.who.owner)->status == 200);
  CHECK(get(path, x.who.owner)->status == 200);
  CHECK(x.db("select tipo || '|' || (select c_" + str(uso) + "::text || '/' || pg_typeof(c_" + str(uso) + ") from " +
             x.table() + ") from projeto.campos where id = " + str(uso)) == "inteiro|1/numeric");
}
