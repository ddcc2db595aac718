// /mapas-personalizados: saved views of a project (layers in drawing order with
// visibility, opacity and style, extent, base map). Whoever sees the project reads its
// maps; the edicao role saves, changes and deletes them; every layer must be a layer of
// that project the caller may read.
#include "reports_fixture.hpp"

using namespace cadastre;
using test::Cast;
using test::refused;
using test::ReportsFixture;

TEST_CASE_FIXTURE(ReportsFixture, "custom maps: the project's editors save, change and delete them; readers read them") {
  Cast c = cast();
  std::int64_t ruas = created("/camadas", R"({"idProjeto":)" + n(c.projeto) + R"(,"nome":"ruas","geometria":"linha"})",
                              c.owner);
  std::string base = db("select min(id) from geografia.mapas_base");
  std::string body = R"({"idProjeto":)" + n(c.projeto) + R"(,"nome":"Vista do centro","descricao":"lotes sobre ruas",)"
                     R"("camadas":[{"idCamada":)" + n(c.camada) + R"(,"ordem":2,"opacidade":0.5,"estilo":{"fill-color":"#f00"}},)"
                     R"({"idCamada":)" + n(ruas) + R"(,"ordem":1,"visivel":false}],)"
                     R"("extensao":[-48.1,-27.1,-47.9,-26.9],"idMapaBase":)" + base + "}";
  auto made = post("/mapas-personalizados", body, c.editor);
  REQUIRE_MESSAGE(made->status == 201, made->body);
  std::int64_t id = int64_t(made->json()["id"]);
  const std::string path = "/mapas-personalizados/" + n(id);
  // Stored in drawing order, renumbered; defaults filled in.
  CHECK(db("select string_agg((e->>'idCamada') || ':' || (e->>'ordem') || ':' || (e->>'visivel') || ':' || "
           "(e->>'opacidade'), ' ' order by o) from projeto.mapas_personalizados, "
           "jsonb_array_elements(camadas) with ordinality as x(e, o) where id = " + n(id)) ==
        n(ruas) + ":1:false:1 " + n(c.camada) + ":2:true:0.5");
  CHECK(db("select (camadas->1->'estilo'->>'fill-color') || ' ' || array_to_string(extensao, ',') || ' ' || mapa_base_id "
           "|| ' ' || criado_por from projeto.mapas_personalizados where id = " + n(id)) ==
        "#f00 -48.1,-27.1,-47.9,-26.9 " + base + " " + n(c.editor.user_id));

  auto read = get(path, c.reader);
  REQUIRE_MESSAGE(read->status == 200, read->body);
  CHECK(std::string_view(read->json()["nome"]) == "Vista do centro");
  CHECK(int64_t(read->json()["idProjeto"]) == c.projeto);
  CHECK(int64_t(read->json()["camadas"].at(0)["idCamada"]) == ruas);
  CHECK(double(read->json()["extensao"].at(2)) == doctest::Approx(-47.9));
  auto listed = get("/mapas-personalizados?idProjeto=" + n(c.projeto), c.reader);
  REQUIRE_MESSAGE(listed->status == 200, listed->body);
  CHECK(int64_t(listed->json()["totalElements"]) == 1);
  CHECK(int64_t(get("/mapas-personalizados", c.stranger)->json()["totalElements"]) == 0);
  CHECK(int64_t(get("/mapas-personalizados", c.beta)->json()["totalElements"]) == 0);

  auto changed = put(path, R"({"nome":"Centro","extensao":null,"idMapaBase":null,"camadas":[{"idCamada":)" + n(c.camada) + "}]}",
                     c.editor);
  REQUIRE_MESSAGE(changed->status == 200, changed->body);
  CHECK(std::string_view(changed->json()["nome"]) == "Centro");
  CHECK(changed->json()["extensao"].is_null());
  CHECK(db("select nome || ' ' || coalesce(extensao::text, 'sem extensao') || ' ' || coalesce(mapa_base_id::text, 'sem base') "
           "|| ' ' || jsonb_array_length(camadas) || ' ' || descricao from projeto.mapas_personalizados where id = " + n(id)) ==
        "Centro sem extensao sem base 1 lotes sobre ruas");

  CHECK(del(path, c.editor)->status == 204);
  CHECK(db("select count(*) from projeto.mapas_personalizados") == "0");
  refused(*get(path, c.owner), 404, "nao_encontrado");
}

TEST_CASE_FIXTURE(ReportsFixture, "custom maps: sessions, tenants, shares and states are checked") {
  Cast c = cast();
  std::string body = R"({"idProjeto":)" + n(c.projeto) + R"(,"nome":"Mapa","camadas":[{"idCamada":)" + n(c.camada) + "}]}";
  std::int64_t id = created("/mapas-personalizados", body, c.owner);
  const std::string path = "/mapas-personalizados/" + n(id);
  guarded(c, "GET", path, false);
  guarded(c, "PUT", path, true, R"({"nome":"Outro"})");
  guarded(c, "DELETE", path, true);
  guarded(c, "POST", "/mapas-personalizados", true, body);
  refused(*request("GET", "/mapas-personalizados", {}), 401, "nao_autenticado");
  CHECK(db("select count(*) || nome from projeto.mapas_personalizados group by nome") == "1Mapa");

  // A layer of another project, or one the caller cannot see, is refused.
  std::int64_t other = created("/projetos", R"({"nome":"Outro"})", c.stranger);
  std::int64_t alheia = created("/camadas", R"({"idProjeto":)" + n(other) + R"(,"nome":"alheia"})", c.stranger);
  refused(*post("/mapas-personalizados", R"({"idProjeto":)" + n(c.projeto) + R"(,"nome":"M","camadas":[{"idCamada":)" +
                                             n(alheia) + "}]}", c.owner),
          404, "nao_encontrado");
  std::int64_t mine = created("/projetos", R"({"nome":"Meu"})", c.owner);
  std::int64_t minha = created("/camadas", R"({"idProjeto":)" + n(mine) + R"(,"nome":"minha"})", c.owner);
  refused(*put(path, R"({"camadas":[{"idCamada":)" + n(minha) + "}]}", c.owner), 400, "parametro_invalido", "camadas");

  // An inactive project refuses changes (the guard's 409).
  REQUIRE(post("/projetos/inativar/" + n(c.projeto), "", c.owner)->status == 200);
  refused(*put(path, R"({"nome":"Inativo"})", c.editor), 409, "transicao_invalida");
  CHECK(get(path, c.reader)->status == 200);
}

TEST_CASE_FIXTURE(ReportsFixture, "custom maps: bad input is refused naming the field") {
  Cast c = cast();
  const std::string P = n(c.projeto), L = n(c.camada);
  auto refuse = [&](const std::string& body, const std::string& codigo, const std::string& field) {
    CAPTURE(body);
    refused(*post("/mapas-personalizados", body, c.owner), 400, codigo, field);
  };
  refuse(R"({"nome":"M","camadas":[{"idCamada":)" + L + "}]}", "campo_obrigatorio", "idProjeto");
  refuse(R"({"idProjeto":)" + P + R"(,"camadas":[{"idCamada":)" + L + "}]}", "campo_obrigatorio", "nome");
  refuse(R"({"idProjeto":)" + P + R"(,"nome":"M"})", "campo_obrigatorio", "camadas");
  refuse(R"({"idProjeto":)" + P + R"(,"nome":"M","camadas":[]})", "parametro_invalido", "camadas");
  refuse(R"({"idProjeto":)" + P + R"(,"nome":" ","camadas":[{"idCamada":)" + L + "}]}", "parametro_invalido", "nome");
  refuse(R"({"idProjeto":)" + P + R"(,"nome":"M","camadas":[{"idCamada":)" + L + R"(,"opacidade":2}]})", "parametro_invalido",
         "opacidade");
  refuse(R"({"idProjeto":)" + P + R"(,"nome":"M","camadas":[{"idCamada":)" + L + "},{\"idCamada\":" + L + "}]}",
         "parametro_invalido", "duas vezes");
  refuse(R"({"idProjeto":)" + P + R"(,"nome":"M","camadas":[{"idCamada":"1;drop"}]})", "parametro_invalido", "idCamada");
  refuse(R"({"idProjeto":)" + P + R"(,"nome":"M","camadas":[{"idCamada":)" + L + R"(}],"extensao":[1,2,3]})",
         "parametro_invalido", "extensao");
  refuse(R"({"idProjeto":)" + P + R"(,"nome":"M","camadas":[{"idCamada":)" + L + R"(}],"extensao":[10,0,5,1]})",
         "parametro_invalido", "extensao");
  refuse(R"({"idProjeto":)" + P + R"(,"nome":"M","camadas":[{"idCamada":)" + L + R"(}],"idMapaBase":999999})",
         "parametro_invalido", "idMapaBase");
  refuse(R"({"idProjeto":)" + P + R"(,"nome":"M","camadas":[{"idCamada":)" + L + R"(,"estilo":"vermelho"}]})",
         "parametro_invalido", "estilo");
  refuse(R"({"idProjeto":)" + P + R"(,"nome":"M","camadas":[{"idCamada":)" + L + R"(}],"cor":1})", "campo_desconhecido",
         "cor");
  std::int64_t id = created("/mapas-personalizados", R"({"idProjeto":)" + P + R"(,"nome":"M","camadas":[{"idCamada":)" + L + "}]}",
                            c.owner);
  refused(*put("/mapas-personalizados/" + n(id), R"({"idProjeto":)" + P + "}", c.owner), 400, "parametro_invalido", "idProjeto");
  refused(*put("/mapas-personalizados/" + n(id), "{}", c.owner), 400, "campo_obrigatorio");
  refused(*get("/mapas-personalizados/1;drop", c.owner), 400, "parametro_invalido", "id");
  refused(*del("/mapas-personalizados/x", c.owner), 400, "parametro_invalido", "id");
  refused(*get("/mapas-personalizados?idProjeto=1;drop", c.owner), 400, "parametro_invalido", "idProjeto");
  refused(*post("/mapas-personalizados", std::string(300000, ' '), c.owner), 413, "corpo_muito_grande");
  CHECK(db("select count(*) from projeto.mapas_personalizados") == "1");
}
