// /campos: fields are made and changed by the layer's admins under their type's rules (a
// list needs options, a domain list a table of the tenant's dominio schema, a calculated
// field a formula over the layer's numeric fields), with keys unique in the whole layer.
// Their type changes only through the converter (test_converter.cpp).
#include <string>

#include "cast.hpp"

using namespace cadastre;
using test::anonymous;
using test::PlatformFixture;
using test::refused;
using test::Session;
using test::str;
using test::World;

namespace {

std::string body(std::int64_t form, const std::string& rest) {
  return R"({"idFormulario":)" + str(form) + "," + rest.substr(1);
}

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture, "fields are created under their type's rules, with keys unique in the layer") {
  World x(*this);
  std::int64_t ficha = x.form(x.layer, "Ficha");
  std::int64_t obra = x.form(x.layer, "Obra");
  auto create = [&](std::int64_t form, const std::string& rest, const Session& who) {
    return post("/campos", body(form, rest), who);
  };

  auto area = create(ficha, R"({"nome":"Área","chave":"area","tipo":"decimal","minimo":0,"maximo":1000.5,
                                "obrigatorio":true,"ajuda":"em m²"})", x.who.owner);
  REQUIRE_MESSAGE(area->status == 201, area->body);
  std::int64_t area_id = int64_t(area->json()["id"]);
  CHECK(int64_t(area->json()["idFormulario"]) == ficha);
  CHECK(area->text("chave") == "area");
  CHECK(area->text("tipo") == "decimal");
  CHECK(bool(area->json()["obrigatorio"]));
  CHECK(double(area->json()["maximo"]) == 1000.5);
  CHECK(area->json()["opcoes"].is_null());
  CHECK(x.db("select tipo || '|' || minimo || '|' || maximo || '|' || obrigatorio || '|' || ordem from projeto.campos "
             "where id = " + str(area_id)) == "decimal|0|1000.5|true|0");

  // The key is the layer's: another form of the same layer cannot take it; another layer can.
  refused(*create(obra, R"({"nome":"Área","chave":"area","tipo":"texto"})", x.who.owner), 409, "conflito", "area");
  std::int64_t elsewhere = x.form(x.new_layer("quadras"), "Quadra");
  CHECK(create(elsewhere, R"({"nome":"Área","chave":"area","tipo":"decimal"})", x.who.owner)->status == 201);

  SUBCASE("each type's needs") {
    auto uso = create(ficha, R"({"nome":"Uso","chave":"uso","tipo":"lista","opcoes":["casa","loja"]})", x.who.owner);
    REQUIRE_MESSAGE(uso->status == 201, uso->body);
    CHECK(simdjson::minify(uso->json()["opcoes"]) == R"(["casa","loja"])");
    CHECK(x.db("select ordem from projeto.campos where chave = 'uso'") == "1");
    auto topo = create(ficha, R"({"nome":"Topografia","chave":"topografia","tipo":"lista_dominio","dominio":"topografia"})",
                       x.who.owner);
    CHECK_MESSAGE(topo->status == 201, topo->body);
    auto dobro = create(obra, R"j({"nome":"Dobro","chave":"dobro","tipo":"calculado","formula":"round(area * 2, 1)"})j",
                        x.who.owner);
    CHECK_MESSAGE(dobro->status == 201, dobro->body);
    CHECK(x.db("select formula from projeto.campos where chave = 'dobro'") == "round(area * 2, 1)");
    auto cep = create(ficha, R"({"nome":"CEP","chave":"cep","tipo":"texto","padrao":"\\d{5}-\\d{3}","maximo":9})",
                      x.who.owner);
    CHECK_MESSAGE(cep->status == 201, cep->body);

    refused(*create(ficha, R"({"nome":"U","chave":"u","tipo":"lista"})", x.who.owner), 400, "parametro_invalido", "opcoes");
    refused(*create(ficha, R"({"nome":"U","chave":"u","tipo":"lista","opcoes":["a","a"]})", x.who.owner), 400,
            "parametro_invalido", "opcoes");
    refused(*create(ficha, R"({"nome":"U","chave":"u","tipo":"texto","opcoes":["a"]})", x.who.owner), 400,
            "parametro_invalido", "opcoes");
    refused(*create(ficha, R"({"nome":"D","chave":"d","tipo":"lista_dominio"})", x.who.owner), 400,
            "parametro_invalido", "dominio");
    refused(*create(ficha, R"({"nome":"D","chave":"d","tipo":"lista_dominio","dominio":"nao_existe"})", x.who.owner), 400,
            "parametro_invalido", "dominio");
    refused(*create(ficha, R"({"nome":"D","chave":"d","tipo":"lista_dominio","dominio":"topografia;drop"})", x.who.owner),
            400, "parametro_invalido", "dominio");
    refused(*create(ficha, R"({"nome":"C","chave":"c","tipo":"calculado"})", x.who.owner), 400, "parametro_invalido",
            "formula");
    refused(*create(ficha, R"({"nome":"C","chave":"c","tipo":"calculado","formula":"area * profundidade"})", x.who.owner),
            400, "parametro_invalido", "formula: chave desconhecida na camada: profundidade");
    refused(*create(ficha, R"({"nome":"C","chave":"c","tipo":"calculado","formula":"uso * 2"})", x.who.owner), 400,
            "parametro_invalido", "formula: uso é do tipo lista");
    refused(*create(ficha, R"({"nome":"C","chave":"c","tipo":"calculado","formula":"dobro + 1"})", x.who.owner), 400,
            "parametro_invalido", "formula: dobro é do tipo calculado");
    refused(*create(ficha, R"({"nome":"C","chave":"c","tipo":"calculado","formula":"c + 1"})", x.who.owner), 400,
            "parametro_invalido", "formula");
    refused(*create(ficha, R"({"nome":"C","chave":"c","tipo":"calculado","formula":"area *"})", x.who.owner), 400,
            "parametro_invalido", "formula");
    refused(*create(ficha, R"({"nome":"C","chave":"c","tipo":"texto","formula":"area"})", x.who.owner), 400,
            "parametro_invalido", "formula");
    refused(*create(ficha, R"({"nome":"N","chave":"n","tipo":"inteiro","minimo":10,"maximo":1})", x.who.owner), 400,
            "parametro_invalido", "minimo");
    refused(*create(ficha, R"({"nome":"N","chave":"n","tipo":"data","minimo":1})", x.who.owner), 400,
            "parametro_invalido", "minimo");
    refused(*create(ficha, R"({"nome":"N","chave":"n","tipo":"texto","padrao":"(a+)+$"})", x.who.owner), 400,
            "parametro_invalido", "padrao");
    refused(*create(ficha, R"({"nome":"N","chave":"n","tipo":"inteiro","padrao":"\\d+"})", x.who.owner), 400,
            "parametro_invalido", "padrao");
    refused(*create(ficha, R"({"nome":"N","chave":"n","tipo":"booleano","unico":true})", x.who.owner), 400,
            "parametro_invalido", "unico");
    refused(*create(ficha, R"({"nome":"N","chave":"n","tipo":"moeda"})", x.who.owner), 400, "parametro_invalido", "tipo");
    refused(*create(ficha, R"({"nome":"N","chave":"Nome","tipo":"texto"})", x.who.owner), 400, "parametro_invalido",
            "chave");
    refused(*create(ficha, R"({"nome":"N","tipo":"texto"})", x.who.owner), 400, "campo_obrigatorio", "chave");
    refused(*create(ficha, R"({"nome":"N","chave":"n","tipo":"texto","obrigatorio":"sim"})", x.who.owner), 400,
            "parametro_invalido", "obrigatorio");
    refused(*create(ficha, R"({"nome":"N","chave":"n","tipo":"texto","cor":"azul"})", x.who.owner), 400,
            "campo_desconhecido", "cor");
    refused(*post("/campos", R"({"nome":"N","chave":"n","tipo":"texto"})", x.who.owner), 400, "campo_obrigatorio",
            "idFormulario");
    // A valuation variable names one field of the project.
    CHECK(create(ficha, R"({"nome":"Testada","chave":"testada","tipo":"decimal","avaliacao":"testada"})", x.who.owner)
              ->status == 201);
    refused(*create(elsewhere, R"({"nome":"T","chave":"testada","tipo":"decimal","avaliacao":"testada"})", x.who.owner),
            409, "conflito", "avaliacao");
    CHECK(x.count("campos", "chave in ('u', 'd', 'c', 'n')") == "0");
  }
  SUBCASE("who may create") {
    const std::string rest = R"({"nome":"Uso","chave":"uso","tipo":"texto"})";
    refused(*create(ficha, rest, x.who.reader), 403, "acesso_negado");
    refused(*create(ficha, rest, x.who.editor), 403, "acesso_negado");
    refused(*create(ficha, rest, x.who.stranger), 404, "nao_encontrado");
    refused(*create(ficha, rest, x.who.beta), 404, "nao_encontrado");
    refused(*anonymous(*this, "POST", "/campos", body(ficha, rest)), 401, "nao_autenticado");
    refused(*post("/campos", body(ficha, R"({"nome":"X","chave":"x","tipo":"lista","opcoes":[)" +
                                             std::string(300000, ' ') + "]}"),
                  x.who.owner),
            413, "corpo_muito_grande");
    CHECK(x.count("campos", "chave = 'uso'") == "0");
  }
}

TEST_CASE_FIXTURE(PlatformFixture, "fields are read by who sees the layer and changed by admins, never retyped by PUT") {
  World x(*this);
  std::int64_t form = x.form(x.layer, "Ficha");
  std::int64_t area = x.field(form, R"({"nome":"Área","chave":"area","tipo":"decimal","minimo":0})");
  std::int64_t uso = x.field(form, R"({"nome":"Uso","chave":"uso","tipo":"lista","opcoes":["casa"]})");
  std::int64_t other = x.form(x.new_layer("quadras"), "Quadra");
  std::int64_t face = x.field(other, R"({"nome":"Face","chave":"face","tipo":"texto"})");
  const std::string id = str(uso);

  CHECK(test::ids(get("/campos?idFormulario=" + str(form), x.who.reader)->json()) == str(area) + "," + str(uso));
  CHECK(test::ids(get("/campos", x.who.owner)->json()) == str(area) + "," + str(uso) + "," + str(face));
  CHECK(get("/campos", x.who.stranger)->body == "[]");
  CHECK(get("/campos", x.who.beta)->body == "[]");
  refused(*get("/campos?idFormulario=" + str(form), x.who.stranger), 404, "nao_encontrado");
  refused(*get("/campos?idFormulario=abc", x.who.owner), 400, "parametro_invalido", "idFormulario");
  refused(*anonymous(*this, "GET", "/campos"), 401, "nao_autenticado");

  auto read = get("/campos/" + id, x.who.reader);
  REQUIRE(read->status == 200);
  CHECK(read->text("tipo") == "lista");
  refused(*get("/campos/" + id, x.who.stranger), 404, "nao_encontrado");
  refused(*get("/campos/" + id, x.who.beta), 404, "nao_encontrado");
  refused(*get("/campos/1;drop", x.who.owner), 400, "parametro_invalido");
  refused(*anonymous(*this, "GET", "/campos/" + id), 401, "nao_autenticado");

  auto changed = put("/campos/" + id, R"({"nome":"Uso do lote","opcoes":["casa","loja"],"obrigatorio":true,"ajuda":"x"})",
                     x.who.owner);
  REQUIRE_MESSAGE(changed->status == 200, changed->body);
  CHECK(changed->text("nome") == "Uso do lote");
  CHECK(x.db("select nome || '|' || opcoes::text || '|' || obrigatorio from projeto.campos where id = " + id) ==
        R"(Uso do lote|["casa", "loja"]|true)");
  // null clears an optional rule.
  CHECK(put("/campos/" + str(area), R"({"minimo":null})", x.who.owner)->status == 200);
  CHECK(x.db("select coalesce(minimo::text, '-') from projeto.campos where id = " + str(area)) == "-");

  refused(*put("/campos/" + id, R"({"tipo":"texto"})", x.who.owner), 400, "parametro_invalido", "converter");
  refused(*put("/campos/" + id, R"({"opcoes":null})", x.who.owner), 400, "parametro_invalido", "opcoes");
  refused(*put("/campos/" + id, R"({"chave":"area"})", x.who.owner), 409, "conflito", "chave");
  refused(*put("/campos/" + id, R"({"idFormulario":1})", x.who.owner), 400, "parametro_invalido", "idFormulario");
  refused(*put("/campos/" + id, R"({"nome":"X"})", x.who.reader), 403, "acesso_negado");
  refused(*put("/campos/" + id, R"({"nome":"X"})", x.who.editor), 403, "acesso_negado");
  refused(*put("/campos/" + id, R"({"nome":"X"})", x.who.stranger), 404, "nao_encontrado");
  refused(*put("/campos/" + id, R"({"nome":"X"})", x.who.beta), 404, "nao_encontrado");
  refused(*anonymous(*this, "PUT", "/campos/" + id, R"({"nome":"X"})"), 401, "nao_autenticado");
  CHECK(x.db("select tipo || '|' || chave || '|' || nome from projeto.campos where id = " + id) ==
        "lista|uso|Uso do lote");

  // A key a formula reads keeps its name.
  x.field(form, R"({"nome":"Dobro","chave":"dobro","tipo":"calculado","formula":"area * 2"})");
  refused(*put("/campos/" + str(area), R"({"chave":"area_total"})", x.who.owner), 409, "conflito", "dobro");
  CHECK(put("/campos/" + id, R"({"chave":"uso_lote"})", x.who.owner)->status == 200);
}

TEST_CASE_FIXTURE(PlatformFixture, "resumo counts values, filled, distinct and number and date ranges per field") {
  World x(*this);
  std::int64_t form = x.form(x.layer, "Ficha");
  std::int64_t extra = x.form(x.layer, "Extra");
  std::int64_t area = x.field(form, R"({"nome":"Área","chave":"area","tipo":"decimal"})");
  std::int64_t uso = x.field(form, R"({"nome":"Uso","chave":"uso","tipo":"lista","opcoes":["casa","loja"]})");
  std::int64_t vistoria = x.field(extra, R"({"nome":"Vistoria","chave":"vistoria","tipo":"data"})");
  std::int64_t g[4];
  for (auto& one : g) one = x.geometry();
  x.value(g[0], area, "10");
  x.value(g[1], area, "20.0");
  x.value(g[2], area, "30");
  x.value(g[3], area, "null");  // an emptied value (NULL): no value, counted in neither
  x.value(g[0], uso, "'casa'");
  x.value(g[1], uso, "'casa'");
  x.value(g[2], uso, "'loja'");
  x.value(g[0], vistoria, "'2024-12-31'");
  x.value(g[1], vistoria, "'2024-01-01'");

  auto all = get("/campos/resumo?idCamada=" + str(x.layer), x.who.reader);
  REQUIRE_MESSAGE(all->status == 200, all->body);
  CHECK(int64_t(all->json()["geometrias"]) == 4);
  simdjson::dom::element fields = all->json()["campos"];
  CHECK(test::ids(fields, "idCampo") == str(area) + "," + str(uso) + "," + str(vistoria));
  simdjson::dom::element a = fields.at(0);
  CHECK(int64_t(a["quantidade"]) == 3);
  CHECK(int64_t(a["preenchidos"]) == 3);
  CHECK(int64_t(a["distintos"]) == 3);
  CHECK(double(a["minimo"]) == 10);
  CHECK(double(a["maximo"]) == 30);
  CHECK(double(a["media"]) == 20);
  simdjson::dom::element u = fields.at(1);
  CHECK(int64_t(u["quantidade"]) == 3);
  CHECK(int64_t(u["preenchidos"]) == 3);
  CHECK(int64_t(u["distintos"]) == 2);
  CHECK(u["minimo"].is_null());
  CHECK(u["media"].is_null());
  simdjson::dom::element v = fields.at(2);
  CHECK(std::string(std::string_view(v["minimo"])) == "2024-01-01");
  CHECK(std::string(std::string_view(v["maximo"])) == "2024-12-31");
  CHECK(v["media"].is_null());

  auto one = get("/campos/resumo?idFormulario=" + str(extra), x.who.owner);
  REQUIRE(one->status == 200);
  CHECK(test::ids(one->json()["campos"], "idCampo") == str(vistoria));
  CHECK(get("/campos/resumo?idCamada=" + str(x.layer) + "&idFormulario=" + str(extra), x.who.owner)->status == 200);
  std::int64_t elsewhere = x.form(x.new_layer("quadras"), "Quadra");
  refused(*get("/campos/resumo?idCamada=" + str(x.layer) + "&idFormulario=" + str(elsewhere), x.who.owner), 400,
          "parametro_invalido", "idFormulario");
  refused(*get("/campos/resumo", x.who.owner), 400, "campo_obrigatorio", "idCamada");
  refused(*get("/campos/resumo?idCamada=1;drop", x.who.owner), 400, "parametro_invalido", "idCamada");
  refused(*get("/campos/resumo?idCamada=" + str(x.layer), x.who.stranger), 404, "nao_encontrado");
  refused(*get("/campos/resumo?idCamada=" + str(x.layer), x.who.beta), 404, "nao_encontrado");
  refused(*anonymous(*this, "GET", "/campos/resumo?idCamada=" + str(x.layer)), 401, "nao_autenticado");
}

TEST_CASE_FIXTURE(PlatformFixture, "avaliacao lists the project's valuation variables to who sees them, in its tenant") {
  World x(*this);
  std::int64_t form = x.form(x.layer, "Ficha");
  std::int64_t area = x.field(form, R"({"nome":"Área","chave":"area","tipo":"decimal","avaliacao":"area_terreno"})");
  x.field(form, R"({"nome":"Uso","chave":"uso","tipo":"texto"})");
  std::int64_t hidden_layer = x.new_layer("reservada");
  std::int64_t hidden = x.field(x.form(hidden_layer, "F"), R"({"nome":"T","chave":"testada","tipo":"decimal","avaliacao":"testada"})");
  const std::string path = "/campos/avaliacao/" + str(tenant_id("alfa")) + "/" + str(x.project);

  auto owner = get(path, x.who.owner);
  REQUIRE_MESSAGE(owner->status == 200, owner->body);
  CHECK(test::ids(owner->json(), "variavel") == "area_terreno,testada");
  CHECK(test::ids(owner->json(), "idCampo") == str(area) + "," + str(hidden));
  CHECK(std::string(std::string_view(owner->json().at(0)["camada"])) == "lotes");
  // A private layer's variables are not the reader's to see.
  x.db("update projeto.camadas set privada = true where id = " + str(hidden_layer) + " returning 1");
  CHECK(test::ids(get(path, x.who.reader)->json(), "variavel") == "area_terreno");

  refused(*get("/campos/avaliacao/" + str(tenant_id("beta")) + "/" + str(x.project), x.who.owner), 404,
          "nao_encontrado", "município");
  refused(*get(path, x.who.stranger), 404, "nao_encontrado");
  refused(*get("/campos/avaliacao/" + str(tenant_id("beta")) + "/" + str(x.project), x.who.beta), 404,
          "nao_encontrado");
  refused(*get(path, x.who.beta), 404, "nao_encontrado");
  refused(*get("/campos/avaliacao/abc/" + str(x.project), x.who.owner), 400, "parametro_invalido", "idTenant");
  refused(*get("/campos/avaliacao/1/1;drop", x.who.owner), 400, "parametro_invalido");
  refused(*anonymous(*this, "GET", path), 401, "nao_autenticado");
}

TEST_CASE_FIXTURE(PlatformFixture, "campos/v2 pages fields with their layer, project and value count") {
  World x(*this);
  std::int64_t form = x.form(x.layer, "Ficha");
  std::int64_t b = x.field(form, R"({"nome":"Bravo","chave":"bravo","tipo":"texto"})");
  std::int64_t a = x.field(form, R"({"nome":"Alfa","chave":"alfa","tipo":"inteiro"})");
  std::int64_t c = x.field(x.form(x.new_layer("quadras"), "Q"), R"({"nome":"Charlie","chave":"charlie","tipo":"texto"})");
  x.value(x.geometry(), a, "7");

  auto page = get("/campos/v2?orderBy=nome&pageSize=2", x.who.owner);
  REQUIRE_MESSAGE(page->status == 200, page->body);
  CHECK(int64_t(page->json()["totalElements"]) == 3);
  CHECK(test::ids(page->json()["content"]) == str(a) + "," + str(b));
  CHECK(int64_t(page->json()["content"].at(0)["quantidadeValores"]) == 1);
  CHECK(int64_t(page->json()["content"].at(0)["idCamada"]) == x.layer);
  CHECK(int64_t(page->json()["content"].at(0)["idProjeto"]) == x.project);
  CHECK(test::ids(get("/campos/v2?idFormulario=" + str(form) + "&orderBy=chave&direction=desc", x.who.reader)
                      ->json()["content"]) == str(b) + "," + str(a));
  CHECK(test::ids(get("/campos/v2?idCamada=" + str(x.layer), x.who.reader)->json()["content"]) ==
        str(b) + "," + str(a));
  CHECK(int64_t(get("/campos/v2", x.who.stranger)->json()["totalElements"]) == 0);
  refused(*get("/campos/v2?orderBy=tipo", x.who.owner), 400, "parametro_invalido", "orderBy");
  refused(*get("/campos/v2?pageSize=1001", x.who.owner), 400, "parametro_invalido", "pageSize");
  refused(*get("/campos/v2?idFormulario=" + str(form), x.who.stranger), 404, "nao_encontrado");
  refused(*anonymous(*this, "GET", "/campos/v2"), 401, "nao_autenticado");

  auto one = get("/campos/v2/" + str(c), x.who.owner);
  REQUIRE(one->status == 200);
  CHECK(int64_t(one->json()["quantidadeValores"]) == 0);
  CHECK(one->text("chave") == "charlie");
  refused(*get("/campos/v2/" + str(c), x.who.stranger), 404, "nao_encontrado");
  refused(*get("/campos/v2/" + str(c), x.who.beta), 404, "nao_encontrado");
  refused(*anonymous(*this, "GET", "/campos/v2/" + str(c)), 401, "nao_autenticado");
}
