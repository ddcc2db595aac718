// /formularios: forms of a layer are made and changed by the layer's admins, seen by whoever
// sees the layer, moved between active and inactive by gestao, and deleted only when
// nothing depends on them (pode-excluir says what does; DELETE refuses with the same).
#include <string>

#include "cast.hpp"

using namespace cadastre;
using test::anonymous;
using test::PlatformFixture;
using test::refused;
using test::str;
using test::World;

TEST_CASE_FIXTURE(PlatformFixture, "layer admins create and change forms; readers see them; others are refused") {
  World x(*this);
  const std::string layer = str(x.layer);

  auto made = post("/formularios", R"({"idCamada":)" + layer + R"(,"nome":"Ficha do lote","descricao":"campo"})",
                   x.who.owner);
  REQUIRE_MESSAGE(made->status == 201, made->body);
  std::int64_t form = int64_t(made->json()["id"]);
  CHECK(int64_t(made->json()["idCamada"]) == x.layer);
  CHECK(made->text("nome") == "Ficha do lote");
  CHECK(made->text("descricao") == "campo");
  CHECK(bool(made->json()["ativo"]));
  CHECK(int64_t(made->json()["ordem"]) == 0);
  CHECK(x.db("select nome || '|' || ordem || '|' || camada_id from projeto.formularios where id = " + str(form)) ==
        "Ficha do lote|0|" + layer);
  // The next form goes after the last one.
  std::int64_t second = x.form(x.layer, "Edificação");
  CHECK(x.db("select ordem from projeto.formularios where id = " + str(second)) == "1");

  SUBCASE("who may create") {
    const std::string body = R"({"idCamada":)" + layer + R"(,"nome":"Outra"})";
    refused(*post("/formularios", body, x.who.reader), 403, "acesso_negado");
    refused(*post("/formularios", body, x.who.editor), 403, "acesso_negado", "admin");
    refused(*post("/formularios", body, x.who.stranger), 404, "nao_encontrado");
    refused(*post("/formularios", body, x.who.beta), 404, "nao_encontrado");
    refused(*anonymous(*this, "POST", "/formularios", body), 401, "nao_autenticado");
    // The layer inactive: its structure is frozen until it is activated again.
    x.db("update projeto.camadas set ativo = false where id = " + layer + " returning 1");
    refused(*post("/formularios", body, x.who.owner), 409, "transicao_invalida", "inativa");
    CHECK(x.count("formularios") == "2");
  }
  SUBCASE("bad bodies name the field") {
    refused(*post("/formularios", R"({"idCamada":)" + layer + "}", x.who.owner), 400, "campo_obrigatorio", "nome");
    refused(*post("/formularios", R"({"idCamada":)" + layer + R"(,"nome":"  "})", x.who.owner), 400,
            "parametro_invalido", "nome");
    refused(*post("/formularios", R"({"nome":"X"})", x.who.owner), 400, "campo_obrigatorio", "idCamada");
    refused(*post("/formularios", R"({"idCamada":"1;drop","nome":"X"})", x.who.owner), 400, "parametro_invalido",
            "idCamada");
    refused(*post("/formularios", R"({"idCamada":)" + layer + R"(,"nome":"X","cor":1})", x.who.owner), 400,
            "campo_desconhecido", "cor");
    refused(*post("/formularios", R"({"idCamada":)" + layer + R"(,"nome":"X","ativo":false})", x.who.owner), 400,
            "parametro_invalido", "ativo");
    refused(*post("/formularios", R"({"idCamada":)" + layer + R"(,"nome":"X","ordem":-1})", x.who.owner), 400,
            "parametro_invalido", "ordem");
    refused(*post("/formularios", "{\"idCamada\":" + layer + ",\"nome\":\"" + std::string(20000, 'a') + "\"}",
                  x.who.owner),
            413, "corpo_muito_grande");
    refused(*post("/formularios", R"({"idCamada":99999,"nome":"X"})", x.who.owner), 404, "nao_encontrado");
    CHECK(x.count("formularios") == "2");
  }
  SUBCASE("lists show the forms of the layers the caller sees") {
    auto mine = get("/formularios", x.who.owner);
    REQUIRE(mine->status == 200);
    CHECK(test::ids(mine->json()) == str(form) + "," + str(second));
    CHECK(test::ids(get("/formularios?idCamada=" + layer, x.who.reader)->json()) == str(form) + "," + str(second));
    CHECK(get("/formularios", x.who.stranger)->body == "[]");
    CHECK(get("/formularios", x.who.beta)->body == "[]");
    refused(*get("/formularios?idCamada=" + layer, x.who.stranger), 404, "nao_encontrado");
    refused(*get("/formularios?idCamada=1;drop", x.who.owner), 400, "parametro_invalido", "idCamada");
    refused(*anonymous(*this, "GET", "/formularios"), 401, "nao_autenticado");
    // A private layer hides its forms from a reader of the project.
    x.db("update projeto.camadas set privada = true where id = " + layer + " returning 1");
    CHECK(get("/formularios", x.who.reader)->body == "[]");
  }
  SUBCASE("one form: read by who sees it, changed by admins") {
    auto read = get("/formularios/" + str(form), x.who.reader);
    REQUIRE(read->status == 200);
    CHECK(read->text("nome") == "Ficha do lote");
    refused(*get("/formularios/" + str(form), x.who.stranger), 404, "nao_encontrado");
    refused(*get("/formularios/" + str(form), x.who.beta), 404, "nao_encontrado");
    refused(*get("/formularios/1;drop", x.who.owner), 400, "parametro_invalido");
    refused(*anonymous(*this, "GET", "/formularios/" + str(form)), 401, "nao_autenticado");

    auto changed = put("/formularios/" + str(form), R"({"nome":"Ficha","descricao":null,"ordem":5})", x.who.owner);
    REQUIRE_MESSAGE(changed->status == 200, changed->body);
    CHECK(changed->text("nome") == "Ficha");
    CHECK(changed->json()["descricao"].is_null());
    CHECK(x.db("select nome || '|' || coalesce(descricao, '-') || '|' || ordem from projeto.formularios where id = " +
               str(form)) == "Ficha|-|5");
    refused(*put("/formularios/" + str(form), R"({"nome":"X"})", x.who.reader), 403, "acesso_negado");
    refused(*put("/formularios/" + str(form), R"({"nome":"X"})", x.who.editor), 403, "acesso_negado");
    refused(*put("/formularios/" + str(form), R"({"nome":"X"})", x.who.stranger), 404, "nao_encontrado");
    refused(*put("/formularios/" + str(form), R"({"nome":"X"})", x.who.beta), 404, "nao_encontrado");
    refused(*put("/formularios/" + str(form), R"({"nome":""})", x.who.owner), 400, "parametro_invalido", "nome");
    refused(*put("/formularios/" + str(form), R"({"idCamada":1})", x.who.owner), 400, "campo_desconhecido", "idCamada");
    refused(*anonymous(*this, "PUT", "/formularios/" + str(form), R"({"nome":"X"})"), 401, "nao_autenticado");
    CHECK(x.db("select nome from projeto.formularios where id = " + str(form)) == "Ficha");
  }
}

TEST_CASE_FIXTURE(PlatformFixture, "inativar and ativar move a form's state; an inactive form refuses edits") {
  World x(*this);
  std::int64_t form = x.form(x.layer, "Ficha");
  const std::string id = str(form);

  refused(*post("/formularios/inativar/" + id, "", x.who.reader), 403, "acesso_negado");
  refused(*post("/formularios/inativar/" + id, "", x.who.editor), 403, "acesso_negado");
  refused(*post("/formularios/inativar/" + id, "", x.who.stranger), 404, "nao_encontrado");
  refused(*post("/formularios/inativar/" + id, "", x.who.beta), 404, "nao_encontrado");
  refused(*anonymous(*this, "POST", "/formularios/inativar/" + id), 401, "nao_autenticado");
  refused(*post("/formularios/inativar/x1", "", x.who.owner), 400, "parametro_invalido");

  auto off = post("/formularios/inativar/" + id, "", x.who.owner);
  REQUIRE_MESSAGE(off->status == 200, off->body);
  CHECK_FALSE(bool(off->json()["ativo"]));
  CHECK(x.db("select ativo from projeto.formularios where id = " + id) == "f");
  refused(*post("/formularios/inativar/" + id, "", x.who.owner), 409, "transicao_invalida", "já está inativo");

  // Inactive: no edits of the form or its fields until it is active again.
  refused(*put("/formularios/" + id, R"({"nome":"X"})", x.who.owner), 409, "transicao_invalida", "inativo");
  refused(*post("/campos", R"({"idFormulario":)" + id + R"(,"nome":"A","chave":"a","tipo":"texto"})", x.who.owner),
          409, "transicao_invalida", "inativo");
  CHECK(test::ids(get("/formularios?ativo=false", x.who.owner)->json()) == id);
  CHECK(get("/formularios?ativo=true", x.who.owner)->body == "[]");
  refused(*get("/formularios?ativo=talvez", x.who.owner), 400, "parametro_invalido", "ativo");

  refused(*post("/formularios/ativar/" + id, "", x.who.reader), 403, "acesso_negado");
  auto on = post("/formularios/ativar/" + id, "", x.who.owner);
  REQUIRE(on->status == 200);
  CHECK(bool(on->json()["ativo"]));
  CHECK(x.db("select ativo from projeto.formularios where id = " + id) == "t");
  refused(*post("/formularios/ativar/" + id, "", x.who.owner), 409, "transicao_invalida", "já está ativo");
  CHECK(put("/formularios/" + id, R"({"nome":"X"})", x.who.owner)->status == 200);
}

TEST_CASE_FIXTURE(PlatformFixture, "pode-excluir names what depends on a form; DELETE refuses with it, then deletes") {
  World x(*this);
  std::int64_t form = x.form(x.layer, "Ficha");
  std::int64_t other = x.form(x.layer, "Cálculos");
  std::int64_t area = x.field(form, R"({"nome":"Área","chave":"area","tipo":"decimal","avaliacao":"area"})");
  std::int64_t uso = x.field(form, R"({"nome":"Uso","chave":"uso","tipo":"texto"})");
  std::int64_t dobro = x.field(other, R"({"nome":"Dobro","chave":"dobro","tipo":"calculado","formula":"area * 2"})");
  std::int64_t g = x.geometry();
  x.value(g, area, "250");
  // The layer's label shows uso (a field reference object) and its categories classify area.
  x.db("update projeto.camadas set rotulo = '{\"campos\":[{\"id\":" + str(uso) +
       ",\"chave\":\"uso\",\"nome\":\"Uso\"}],\"separador\":\" \"}', categorias = '{\"idCampo\":" + str(area) +
       ",\"classes\":[]}' where id = " + str(x.layer) + " returning 1");
  const std::string id = str(form);

  auto why = get("/formularios/pode-excluir/" + id, x.who.reader);
  REQUIRE_MESSAGE(why->status == 200, why->body);
  CHECK_FALSE(bool(why->json()["podeExcluir"]));
  CHECK(test::ids(why->json()["motivos"], "codigo") == "valores,avaliacao,rotulo,categorias,formula");
  CHECK(test::ids(why->json()["motivos"], "quantidade") == "1,1,1,1,1");
  CHECK(std::string(std::string_view(why->json()["motivos"].at(0)["mensagem"])) == "o formulário tem 1 valores gravados");
  refused(*get("/formularios/pode-excluir/" + id, x.who.stranger), 404, "nao_encontrado");
  refused(*get("/formularios/pode-excluir/" + id, x.who.beta), 404, "nao_encontrado");
  refused(*anonymous(*this, "GET", "/formularios/pode-excluir/" + id), 401, "nao_autenticado");

  auto no = del("/formularios/" + id, x.who.owner);
  refused(*no, 409, "conflito", "valores gravados");
  CHECK_FALSE(bool(no->json()["podeExcluir"]));
  CHECK(test::ids(no->json()["motivos"], "codigo") == "valores,avaliacao,rotulo,categorias,formula");
  CHECK(x.count("formularios", "id = " + id) == "1");
  CHECK(x.count("campos", "formulario_id = " + id) == "2");
  refused(*del("/formularios/" + id, x.who.reader), 403, "acesso_negado");
  refused(*del("/formularios/" + id, x.who.editor), 403, "acesso_negado");
  refused(*del("/formularios/" + id, x.who.stranger), 404, "nao_encontrado");
  refused(*del("/formularios/" + id, x.who.beta), 404, "nao_encontrado");
  refused(*anonymous(*this, "DELETE", "/formularios/" + id), 401, "nao_autenticado");

  // Each dependency removed takes its reason away.
  x.db("delete from " + x.table() + " returning 1");
  x.db("update projeto.campos set avaliacao = null where id = " + str(area) + " returning 1");
  x.db("update projeto.camadas set rotulo = null, categorias = null returning 1");
  auto left = get("/formularios/pode-excluir/" + id, x.who.owner);
  CHECK(test::ids(left->json()["motivos"], "codigo") == "formula");
  x.db("delete from projeto.campos where id = " + str(dobro) + " returning 1");

  // A geometry's own label reading its rotation from a field of the form counts too.
  x.db("insert into projeto.rotulos_geometria (geometria_id, campo_rotacao_id, atualizado_por) values (" + str(g) +
       ", " + str(area) + ", 1) returning 1");
  CHECK(test::ids(get("/formularios/pode-excluir/" + id, x.who.owner)->json()["motivos"], "codigo") == "rotulo");
  x.db("delete from projeto.rotulos_geometria returning 1");

  auto yes = get("/formularios/pode-excluir/" + id, x.who.owner);
  CHECK(yes->body == R"({"podeExcluir":true,"motivos":[]})");
  // gestao deletes an inactive form too.
  REQUIRE(post("/formularios/inativar/" + id, "", x.who.owner)->status == 200);
  auto gone = del("/formularios/" + id, x.who.owner);
  CHECK_MESSAGE(gone->status == 204, gone->body);
  CHECK(x.count("formularios", "id = " + id) == "0");
  CHECK(x.count("campos", "formulario_id = " + id) == "0");
  refused(*del("/formularios/" + id, x.who.owner), 404, "nao_encontrado");
}

TEST_CASE_FIXTURE(PlatformFixture, "formularios/v2 pages the forms the caller sees, each with its fields") {
  World x(*this);
  std::int64_t a = x.form(x.layer, "Bravo");
  std::int64_t b = x.form(x.layer, "Alfa");
  std::int64_t c = x.form(x.new_layer("quadras"), "Charlie");
  std::int64_t k1 = x.field(a, R"({"nome":"Área","chave":"area","tipo":"decimal"})");
  std::int64_t k2 = x.field(a, R"({"nome":"Uso","chave":"uso","tipo":"lista","opcoes":["casa","loja"]})");

  auto first = get("/formularios/v2?pageSize=2&orderBy=nome", x.who.owner);
  REQUIRE_MESSAGE(first->status == 200, first->body);
  CHECK(int64_t(first->json()["totalElements"]) == 3);
  CHECK(int64_t(first->json()["totalPages"]) == 2);
  CHECK(test::ids(first->json()["content"]) == str(b) + "," + str(a));
  CHECK(test::ids(first->json()["content"].at(1)["campos"]) == str(k1) + "," + str(k2));
  CHECK(first->json()["content"].at(0)["campos"].get_array().size() == 0);
  auto second = get("/formularios/v2?pageSize=2&pageNumber=2&orderBy=nome", x.who.owner);
  CHECK(test::ids(second->json()["content"]) == str(c));
  CHECK(test::ids(get("/formularios/v2?idCamada=" + str(x.layer) + "&orderBy=id&direction=desc", x.who.reader)
                      ->json()["content"]) == str(b) + "," + str(a));
  CHECK(int64_t(get("/formularios/v2", x.who.stranger)->json()["totalElements"]) == 0);
  refused(*get("/formularios/v2?orderBy=senha", x.who.owner), 400, "parametro_invalido", "orderBy");
  refused(*get("/formularios/v2?pageSize=0", x.who.owner), 400, "parametro_invalido", "pageSize");
  refused(*get("/formularios/v2?idCamada=" + str(x.layer), x.who.stranger), 404, "nao_encontrado");
  refused(*anonymous(*this, "GET", "/formularios/v2"), 401, "nao_autenticado");

  auto one = get("/formularios/v2/" + str(a), x.who.reader);
  REQUIRE(one->status == 200);
  CHECK(one->text("nome") == "Bravo");
  CHECK(test::ids(one->json()["campos"], "chave") == "area,uso");
  CHECK(simdjson::minify(one->json()["campos"].at(1)["opcoes"]) == R"(["casa","loja"])");
  refused(*get("/formularios/v2/" + str(a), x.who.stranger), 404, "nao_encontrado");
  refused(*get("/formularios/v2/" + str(a), x.who.beta), 404, "nao_encontrado");
  refused(*anonymous(*this, "GET", "/formularios/v2/" + str(a)), 401, "nao_autenticado");
}
