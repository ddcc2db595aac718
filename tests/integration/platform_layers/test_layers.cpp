// /camadas: creating, reading, changing and deleting layers, their lists (filters, inactive
// and private layers), the state moves (inativar/ativar, privada) and the v2 shapes. Each
// route's refusals: no session 401, another tenant's user 404, a user without a share 404,
// a read-only share writing 403, bad input 400 naming the field, state conflicts 409.
#include "layers_fixture.hpp"

using namespace cadastre;
using test::Cast;
using test::LayersFixture;
using test::refused;
using test::Session;
using test::numbers;

namespace {

std::string ids_of(test::Answer& a) { return test::ids(a.json()); }
}  // namespace

TEST_CASE_FIXTURE(LayersFixture, "a project's administrator creates, reads, changes and deletes its layers") {
  Cast c = cast();
  std::int64_t p = project(c);
  const std::string body = R"({"idProjeto":)" + std::to_string(p) +
                           R"(,"nome":"Lotes","descricao":"os lotes","geometria":"poligono","moduloId":3,)"
                           R"("propriedades":{"tema":"lotes"},"estilo":{"cor":"#ff0000"}})";

  auto created = post("/camadas", body, c.owner);
  REQUIRE_MESSAGE(created->status == 201, created->body);
  std::int64_t id = int64_t(created->json()["id"]);
  CHECK(std::string_view(created->json()["nome"]) == "Lotes");
  CHECK(std::string_view(created->json()["tipo"]) == "vetor");
  CHECK(std::string_view(created->json()["papel"]) == "admin");
  CHECK(int64_t(created->json()["idProjeto"]) == p);
  CHECK(int64_t(created->json()["moduloId"]) == 3);
  CHECK(db("select concat_ws('|', nome, descricao, geometria, modulo_id, propriedades->>'tema', estilo->>'cor', "
           "criado_por, ordem, ativo, privada) from projeto.camadas where id = " + std::to_string(id)) ==
        "Lotes|os lotes|poligono|3|lotes|#ff0000|" + std::to_string(c.owner.user_id) + "|0|t|f");
  // A new layer goes last in its project.
  std::int64_t second = layer(c.owner, p, "Vias", "linha");
  CHECK(layer_column(second, "ordem") == "1");

  // Read, by each role.
  auto mine = get("/camadas/" + std::to_string(id), c.owner);
  REQUIRE_MESSAGE(mine->status == 200, mine->body);
  CHECK(std::string_view(mine->json()["propriedades"]["tema"]) == "lotes");
  CHECK(std::string_view(get("/camadas/" + std::to_string(id), c.editor)->json()["papel"]) == "edicao");
  CHECK(std::string_view(get("/camadas/" + std::to_string(id), c.reader)->json()["papel"]) == "leitura");
  guarded(c, "GET", "/camadas/" + std::to_string(id), "", false);

  // Only the project's administrators create layers in it.
  refused(*post("/camadas", body, c.editor), 403, "acesso_negado", "admin");
  refused(*post("/camadas", body, c.reader), 403, "acesso_negado");
  refused(*post("/camadas", body, c.stranger), 404, "nao_encontrado");
  refused(*post("/camadas", body, c.beta), 404, "nao_encontrado");
  refused(*request("POST", "/camadas", {}, body), 401, "nao_autenticado");

  // Bad bodies, each named.
  const std::string at = R"({"idProjeto":)" + std::to_string(p) + ",";
  refused(*post("/camadas", R"({"nome":"x"})", c.owner), 400, "campo_obrigatorio", "idProjeto");
  refused(*post("/camadas", at + R"("descricao":"x"})", c.owner), 400, "campo_obrigatorio", "nome");
  refused(*post("/camadas", at + R"("nome":"  "})", c.owner), 400, "parametro_invalido", "nome");
  refused(*post("/camadas", at + R"("nome":"x","geometria":"circulo"})", c.owner), 400, "parametro_invalido", "geometria");
  refused(*post("/camadas", at + R"("nome":"x","tipo":"tiff"})", c.owner), 400, "parametro_invalido", "tipo");
  refused(*post("/camadas", at + R"("nome":"x","propriedades":[1]})", c.owner), 400, "parametro_invalido", "propriedades");
  refused(*post("/camadas", at + R"("nome":"x","moduloId":-1})", c.owner), 400, "parametro_invalido", "moduloId");
  refused(*post("/camadas", at + R"("nome":"x","cor":"azul"})", c.owner), 400, "campo_desconhecido", "cor");
  refused(*post("/camadas", at + R"("nome":)", c.owner), 400, "json_invalido");
  refused(*post("/camadas", R"({"idProjeto":"1;drop table x","nome":"x"})", c.owner), 400, "parametro_invalido", "idProjeto");
  refused(*post("/camadas", at + R"("nome":"x","estilo":")" + std::string(600 * 1024, 'a') + "\"}", c.owner), 413,
          "corpo_muito_grande");
  CHECK(db("select count(*) from projeto.camadas") == "2");

  // Change: every change bumps the generation the tiles' ETag is made of.
  std::string generation = layer_column(id, "geracao");
  auto changed = put("/camadas/" + std::to_string(id), R"({"nome":"Lotes urbanos","estilo":{"cor":"#00ff00"},"descricao":null})",
                     c.owner);
  REQUIRE_MESSAGE(changed->status == 200, changed->body);
  CHECK(std::string_view(changed->json()["nome"]) == "Lotes urbanos");
  CHECK(layer_column(id, "concat_ws('|', nome, coalesce(descricao, '-'), estilo->>'cor', propriedades->>'tema')") ==
        "Lotes urbanos|-|#00ff00|lotes");
  CHECK(std::stoll(layer_column(id, "geracao")) == std::stoll(generation) + 1);
  refused(*put("/camadas/" + std::to_string(id), R"({"nome":"x"})", c.editor), 403, "acesso_negado");
  guarded(c, "PUT", "/camadas/" + std::to_string(id), R"({"nome":"x"})", true);
  refused(*put("/camadas/" + std::to_string(id), R"({"ativo":false})", c.owner), 400, "parametro_invalido", "ativo");
  refused(*put("/camadas/" + std::to_string(id), R"({"idProjeto":2})", c.owner), 400, "parametro_invalido", "idProjeto");
  refused(*put("/camadas/" + std::to_string(id), R"({"tipo":"wms"})", c.owner), 400, "parametro_invalido", "tipo");
  refused(*put("/camadas/" + std::to_string(id), R"({"rotulo":{"campos":[]}})", c.owner), 400, "parametro_invalido", "rotulo");
  refused(*put("/camadas/" + std::to_string(id), "{}", c.owner), 400, "campo_obrigatorio");
  // A geometry type the layer's geometries do not have.
  geometry(id, "POLYGON((-48 -27,-48 -26.99,-47.99 -26.99,-48 -27))");
  refused(*put("/camadas/" + std::to_string(id), R"({"geometria":"ponto"})", c.owner), 409, "conflito", "geometria");
  CHECK(layer_column(id, "geometria") == "poligono");
  CHECK(put("/camadas/" + std::to_string(id), R"({"geometria":"qualquer"})", c.owner)->status == 200);

  // Hostile paths.
  refused(*get("/camadas/1;drop", c.owner), 400, "parametro_invalido", "id");
  refused(*get("/camadas/1%20or%201=1", c.owner), 400, "parametro_invalido", "id");
  refused(*get("/camadas/0", c.owner), 400, "parametro_invalido", "id");
  refused(*get("/camadas/999999", c.owner), 404, "nao_encontrado");

  // Delete: the project's administrators only; forms and geometries go with the layer.
  form(id);
  refused(*del("/camadas/" + std::to_string(id), c.editor), 403, "acesso_negado");
  guarded(c, "DELETE", "/camadas/" + std::to_string(id), "", true);
  auto gone = del("/camadas/" + std::to_string(id), c.owner);
  CHECK_MESSAGE(gone->status == 204, gone->body);
  CHECK(db("select count(*) from projeto.camadas where id = " + std::to_string(id)) == "0");
  CHECK(db("select count(*) from projeto.geometrias where camada_id = " + std::to_string(id)) == "0");
  CHECK(db("select count(*) from projeto.formularios where camada_id = " + std::to_string(id)) == "0");
  refused(*get("/camadas/" + std::to_string(id), c.owner), 404, "nao_encontrado");
  refused(*del("/camadas/" + std::to_string(id), c.owner), 404, "nao_encontrado");

  // A layer in an inactive project: no new ones until it is active again.
  db("update projeto.projetos set ativo = false where id = " + std::to_string(p));
  refused(*post("/camadas", body, c.owner), 409, "transicao_invalida", "inativo");
}

TEST_CASE_FIXTURE(LayersFixture, "lists show the layers the caller sees, filtered, inactive ones only when asked") {
  Cast c = cast();
  std::int64_t p = project(c), other = project(c, "Outro");
  std::int64_t a = layer(c.owner, p, "Lotes", "poligono", R"(,"moduloId":3,"propriedades":{"tema":"lotes"})");
  std::int64_t b = layer(c.owner, p, "Vias", "linha", R"(,"propriedades":{"tema":"vias"})");
  std::int64_t hidden = layer(c.owner, p, "Sigilosa", "ponto", R"(,"privada":true)");
  std::int64_t off = layer(c.owner, p, "Antiga");
  std::int64_t elsewhere = layer(c.owner, other, "Bairros");
  REQUIRE(post("/camadas/inativar/" + std::to_string(off), "", c.owner)->status == 200);

  auto all = get("/camadas?idProjeto=" + std::to_string(p), c.owner);
  REQUIRE_MESSAGE(all->status == 200, all->body);
  CHECK(ids_of(*all) == std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(hidden));
  CHECK(ids_of(*get("/camadas", c.owner)) == std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(hidden) + "," + std::to_string(elsewhere));
  CHECK(ids_of(*get("/camadas?ativo=false", c.owner)) == std::to_string(off));
  CHECK(ids_of(*get("/camadas?prop=tema", c.owner)) == std::to_string(a) + "," + std::to_string(b));
  CHECK(ids_of(*get("/camadas?moduloId=3", c.owner)) == std::to_string(a));
  CHECK(ids_of(*get("/camadas?id_camadas=" + std::to_string(b) + "," + std::to_string(elsewhere) + "," + std::to_string(off), c.owner)) ==
        std::to_string(b) + "," + std::to_string(elsewhere));
  // An inactive project hides its layers too.
  db("update projeto.projetos set ativo = false where id = " + std::to_string(other));
  CHECK(ids_of(*get("/camadas", c.owner)) == std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(hidden));
  CHECK(ids_of(*get("/camadas?ativo=false", c.owner)) == std::to_string(off) + "," + std::to_string(elsewhere));
  db("update projeto.projetos set ativo = true where id = " + std::to_string(other));

  // A private layer is invisible to the project's readers, until one gets a right on it.
  CHECK(ids_of(*get("/camadas?idProjeto=" + std::to_string(p), c.reader)) == std::to_string(a) + "," + std::to_string(b));
  refused(*get("/camadas/" + std::to_string(hidden), c.reader), 404, "nao_encontrado");
  db("insert into projeto.camada_usuarios (camada_id, usuario_id, direito, concedido_por) values (" + std::to_string(hidden) +
     ", " + std::to_string(c.reader.user_id) + ", 'leitura', " + std::to_string(c.owner.user_id) + ")");
  CHECK(ids_of(*get("/camadas?idProjeto=" + std::to_string(p), c.reader)) == std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(hidden));
  // Nothing for whoever has no share, in this tenant or another.
  CHECK(get("/camadas", c.stranger)->body == "[]");
  CHECK(get("/camadas", c.beta)->body == "[]");
  refused(*request("GET", "/camadas", {}), 401, "nao_autenticado");

  // Every project's layers, with the project's name.
  auto everywhere = get("/camadas/all", c.owner);
  REQUIRE_MESSAGE(everywhere->status == 200, everywhere->body);
  CHECK(ids_of(*everywhere) == std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(hidden) + "," + std::to_string(elsewhere));
  CHECK(test::ids(everywhere->json(), "nomeProjeto") == "Cadastro,Cadastro,Cadastro,Outro");
  CHECK(ids_of(*get("/camadas/all?ativo=false", c.owner)) == std::to_string(off));
  CHECK(get("/camadas/all", c.stranger)->body == "[]");
  CHECK(get("/camadas/all", c.beta)->body == "[]");
  refused(*request("GET", "/camadas/all", {}), 401, "nao_autenticado");

  // By a property's value.
  CHECK(ids_of(*get("/camadas/prop-valor?prop=tema&valor=vias", c.owner)) == std::to_string(b));
  CHECK(get("/camadas/prop-valor?prop=tema&valor=vias", c.stranger)->body == "[]");
  CHECK(get("/camadas/prop-valor?prop=tema&valor=vias", c.beta)->body == "[]");
  CHECK(get("/camadas/prop-valor?prop=tema&valor=%27%20or%20%271%27=%271", c.owner)->body == "[]");
  refused(*get("/camadas/prop-valor?prop=tema", c.owner), 400, "campo_obrigatorio", "valor");
  refused(*get("/camadas/prop-valor?valor=x", c.owner), 400, "campo_obrigatorio", "prop");
  refused(*get("/camadas/prop-valor?prop=tema%27;drop&valor=x", c.owner), 400, "identificador_invalido", "prop");
  refused(*request("GET", "/camadas/prop-valor?prop=tema&valor=x", {}), 401, "nao_autenticado");

  // Filters refused.
  refused(*get("/camadas?id_camadas=1,x", c.owner), 400, "parametro_invalido", "id_camadas");
  refused(*get("/camadas?id_camadas=1;drop", c.owner), 400, "parametro_invalido", "id_camadas");
  refused(*get("/camadas?prop=a%20b", c.owner), 400, "identificador_invalido", "prop");
  refused(*get("/camadas?moduloId=tres", c.owner), 400, "parametro_invalido", "moduloId");
  refused(*get("/camadas?ativo=sim", c.owner), 400, "parametro_invalido", "ativo");
  refused(*get("/camadas?tenant=beta", c.owner), 400, "campo_desconhecido", "tenant");

  // The picker's light list: counts and extents.
  geometry(a, "POLYGON((-48 -27,-48 -26.99,-47.99 -26.99,-48 -27))");
  geometry(a, "POLYGON((-47.5 -26.5,-47.5 -26.4,-47.4 -26.4,-47.5 -26.5))");
  auto picker = get("/camadas/previa?idProjeto=" + std::to_string(p), c.owner);
  REQUIRE_MESSAGE(picker->status == 200, picker->body);
  CHECK(ids_of(*picker) == std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(hidden));
  simdjson::dom::element first = picker->json().at(0);
  CHECK(int64_t(first["geometrias"]) == 2);
  CHECK(numbers(first["bbox"]) == "-48,-27,-47.4,-26.4");
  CHECK(picker->json().at(1)["bbox"].is_null());
  CHECK(ids_of(*get("/camadas/previa?nome=VIA", c.owner)) == std::to_string(b));
  CHECK(ids_of(*get("/camadas/previa?limite=1", c.owner)) == std::to_string(a));
  CHECK(ids_of(*get("/camadas/previa?idProjeto=" + std::to_string(p), c.reader)) == std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(hidden));
  CHECK(get("/camadas/previa", c.stranger)->body == "[]");
  CHECK(get("/camadas/previa", c.beta)->body == "[]");
  refused(*get("/camadas/previa?limite=0", c.owner), 400, "parametro_invalido", "limite");
  refused(*get("/camadas/previa?limite=201", c.owner), 400, "parametro_invalido", "limite");
  refused(*request("GET", "/camadas/previa", {}), 401, "nao_autenticado");

  // v2: paged, and one layer with its forms and fields.
  auto page = get("/camadas/v2?idProjeto=" + std::to_string(p) + "&pageSize=2", c.owner);
  REQUIRE_MESSAGE(page->status == 200, page->body);
  CHECK(test::ids(page->json()["content"]) == std::to_string(a) + "," + std::to_string(b));
  CHECK(int64_t(page->json()["totalElements"]) == 3);
  CHECK(int64_t(page->json()["totalPages"]) == 2);
  CHECK(test::ids(get("/camadas/v2?idProjeto=" + std::to_string(p) + "&orderBy=nome&direction=desc", c.owner)->json()["content"]) ==
        std::to_string(b) + "," + std::to_string(hidden) + "," + std::to_string(a));
  CHECK(int64_t(get("/camadas/v2", c.stranger)->json()["totalElements"]) == 0);
  CHECK(int64_t(get("/camadas/v2", c.beta)->json()["totalElements"]) == 0);
  refused(*get("/camadas/v2?orderBy=senha", c.owner), 400, "parametro_invalido", "orderBy");
  refused(*get("/camadas/v2?pageSize=1001", c.owner), 400, "parametro_invalido", "pageSize");
  refused(*request("GET", "/camadas/v2", {}), 401, "nao_autenticado");

  std::int64_t f2 = form(a, "Segunda"), f1 = form(a, "Primeira");
  db("update projeto.formularios set ordem = 1 where id = " + std::to_string(f2));
  std::int64_t k1 = field(f1, "area", "decimal"), k2 = field(f1, "uso", "texto");
  db("update projeto.campos set ordem = 2 where id = " + std::to_string(k1));
  auto nested = get("/camadas/v2/" + std::to_string(a), c.reader);
  REQUIRE_MESSAGE(nested->status == 200, nested->body);
  CHECK(test::ids(nested->json()["formularios"]) == std::to_string(f1) + "," + std::to_string(f2));
  CHECK(test::ids(nested->json()["formularios"].at(0)["campos"]) == std::to_string(k2) + "," + std::to_string(k1));
  CHECK(std::string_view(nested->json()["formularios"].at(0)["campos"].at(1)["tipo"]) == "decimal");
  CHECK(nested->json()["formularios"].at(1)["campos"].get_array().size() == 0);
  guarded(c, "GET", "/camadas/v2/" + std::to_string(a), "", false);
  refused(*get("/camadas/v2/" + std::to_string(hidden), c.stranger), 404, "nao_encontrado");
  refused(*get("/camadas/v2/1;drop", c.owner), 400, "parametro_invalido", "id");
}

TEST_CASE_FIXTURE(LayersFixture, "inativar, ativar and privada move a layer's state, bump its generation and say why not") {
  Cast c = cast();
  std::int64_t p = project(c);
  std::int64_t id = layer(c.owner, p, "Lotes");
  std::string g0 = layer_column(id, "geracao");

  refused(*post("/camadas/inativar/" + std::to_string(id), "", c.editor), 403, "acesso_negado");
  guarded(c, "POST", "/camadas/inativar/" + std::to_string(id), "", true);
  auto off = post("/camadas/inativar/" + std::to_string(id), "", c.owner);
  REQUIRE_MESSAGE(off->status == 200, off->body);
  CHECK(bool(off->json()["ativo"]) == false);
  CHECK(layer_column(id, "ativo::text") == "false");
  CHECK(std::stoll(layer_column(id, "geracao")) == std::stoll(g0) + 1);
  refused(*post("/camadas/inativar/" + std::to_string(id), "", c.owner), 409, "transicao_invalida", "já está inativa");
  // An inactive layer refuses edits, and is still seen by its readers.
  refused(*put("/camadas/" + std::to_string(id), R"({"nome":"x"})", c.owner), 409, "transicao_invalida", "inativa");
  refused(*put("/camadas/privada/" + std::to_string(id), R"({"privada":true})", c.owner), 409, "transicao_invalida");
  CHECK(get("/camadas/" + std::to_string(id), c.reader)->status == 200);

  refused(*post("/camadas/ativar/" + std::to_string(id), "", c.reader), 403, "acesso_negado");
  guarded(c, "POST", "/camadas/ativar/" + std::to_string(id), "", true);
  auto on = post("/camadas/ativar/" + std::to_string(id), "", c.owner);
  REQUIRE_MESSAGE(on->status == 200, on->body);
  CHECK(layer_column(id, "ativo::text") == "true");
  CHECK(std::stoll(layer_column(id, "geracao")) == std::stoll(g0) + 2);
  refused(*post("/camadas/ativar/" + std::to_string(id), "", c.owner), 409, "transicao_invalida", "já está ativa");
  refused(*post("/camadas/ativar/1;drop", "", c.owner), 400, "parametro_invalido", "id");

  // Privacy: the project's readers lose sight of a private layer.
  refused(*put("/camadas/privada/" + std::to_string(id), R"({"privada":true})", c.editor), 403, "acesso_negado");
  guarded(c, "PUT", "/camadas/privada/" + std::to_string(id), R"({"privada":true})", true);
  refused(*put("/camadas/privada/" + std::to_string(id), R"({"privada":"sim"})", c.owner), 400, "parametro_invalido", "privada");
  refused(*put("/camadas/privada/" + std::to_string(id), "{}", c.owner), 400, "campo_obrigatorio", "privada");
  refused(*put("/camadas/privada/" + std::to_string(id), R"({"privada":true,"nome":"x"})", c.owner), 400, "campo_desconhecido", "nome");
  auto hidden = put("/camadas/privada/" + std::to_string(id), R"({"privada":true})", c.owner);
  REQUIRE_MESSAGE(hidden->status == 200, hidden->body);
  CHECK(bool(hidden->json()["privada"]) == true);
  CHECK(layer_column(id, "privada::text") == "true");
  CHECK(std::stoll(layer_column(id, "geracao")) == std::stoll(g0) + 3);
  refused(*get("/camadas/" + std::to_string(id), c.reader), 404, "nao_encontrado");
  refused(*get("/camadas/" + std::to_string(id), c.editor), 404, "nao_encontrado");
  CHECK(get("/camadas/" + std::to_string(id), c.owner)->status == 200);
  // A tenant administrator sees every layer.
  CHECK(get("/camadas/" + std::to_string(id), admin("alfa", "chefe@alfa.gov.br"))->status == 200);
  CHECK(put("/camadas/privada/" + std::to_string(id), R"({"privada":false})", c.owner)->status == 200);
  CHECK(get("/camadas/" + std::to_string(id), c.reader)->status == 200);
}
