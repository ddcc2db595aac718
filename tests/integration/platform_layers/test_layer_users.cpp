// /camadas-usuarios: a layer's administrators give users of their tenant a right on one
// layer (leitura or edicao), change and remove it. A right replaces the project's share on
// that layer and opens a private layer to its user.
#include "layers_fixture.hpp"

using namespace cadastre;
using test::Cast;
using test::LayersFixture;
using test::refused;
using test::Session;

namespace {
}  // namespace

TEST_CASE_FIXTURE(LayersFixture, "a layer's administrators give, change and take away a user's right on it") {
  Cast c = cast();
  std::int64_t p = project(c);
  std::int64_t hidden = layer(c.owner, p, "Sigilosa", "poligono", R"(,"privada":true)");
  std::int64_t open = layer(c.owner, p, "Lotes");
  const std::string body = R"({"idCamada":)" + std::to_string(hidden) + R"(,"idUsuario":)" + std::to_string(c.stranger.user_id) +
                           R"(,"direito":"leitura"})";

  // Before: the stranger sees nothing.
  refused(*get("/camadas/" + std::to_string(hidden), c.stranger), 404, "nao_encontrado");

  // Only the layer's administrators give rights.
  refused(*post("/camadas-usuarios", body, c.editor), 404, "nao_encontrado");  // a private layer: not seen
  refused(*post("/camadas-usuarios", R"({"idCamada":)" + std::to_string(open) + R"(,"idUsuario":)" + std::to_string(c.stranger.user_id) +
                                         R"(,"direito":"leitura"})", c.editor),
          403, "acesso_negado");
  refused(*post("/camadas-usuarios", body, c.stranger), 404, "nao_encontrado");
  refused(*post("/camadas-usuarios", body, c.beta), 404, "nao_encontrado");
  refused(*request("POST", "/camadas-usuarios", {}, body), 401, "nao_autenticado");

  auto given = post("/camadas-usuarios", body, c.owner);
  REQUIRE_MESSAGE(given->status == 201, given->body);
  std::int64_t right = int64_t(given->json()["id"]);
  CHECK(std::string_view(given->json()["direito"]) == "leitura");
  CHECK(std::string_view(given->json()["usuario"]["email"]) == "estranho@alfa.gov.br");
  CHECK(db("select concat_ws('|', camada_id, usuario_id, direito, concedido_por) from projeto.camada_usuarios "
           "where id = " + std::to_string(right)) ==
        std::to_string(hidden) + "|" + std::to_string(c.stranger.user_id) + "|leitura|" + std::to_string(c.owner.user_id));
  // The right opens the private layer (and its project) to its user, read-only.
  auto seen = get("/camadas/" + std::to_string(hidden), c.stranger);
  REQUIRE_MESSAGE(seen->status == 200, seen->body);
  CHECK(std::string_view(seen->json()["papel"]) == "leitura");
  refused(*put("/camadas/" + std::to_string(hidden), R"({"nome":"x"})", c.stranger), 403, "acesso_negado");

  // Bad bodies, each named.
  const std::string at = R"({"idCamada":)" + std::to_string(open) + ",";
  refused(*post("/camadas-usuarios", body, c.owner), 409, "conflito", "já tem direito");
  refused(*post("/camadas-usuarios", at + R"("idUsuario":)" + std::to_string(c.beta.user_id) + R"(,"direito":"leitura"})", c.owner),
          400, "parametro_invalido", "idUsuario");
  refused(*post("/camadas-usuarios", at + R"("idUsuario":999999,"direito":"leitura"})", c.owner), 400,
          "parametro_invalido", "idUsuario");
  Session gone = signed_in("saiu@alfa.gov.br");
  platform_db("update plataforma.usuarios set ativo = false where id = " + std::to_string(gone.user_id) + " returning id");
  refused(*post("/camadas-usuarios", at + R"("idUsuario":)" + std::to_string(gone.user_id) + R"(,"direito":"leitura"})", c.owner), 400,
          "parametro_invalido", "idUsuario");
  refused(*post("/camadas-usuarios", at + R"("idUsuario":)" + std::to_string(c.reader.user_id) + R"(,"direito":"admin"})", c.owner),
          400, "parametro_invalido", "direito");
  refused(*post("/camadas-usuarios", R"({"idUsuario":1,"direito":"leitura"})", c.owner), 400, "campo_obrigatorio",
          "idCamada");
  refused(*post("/camadas-usuarios", at + R"("direito":"leitura"})", c.owner), 400, "campo_obrigatorio", "idUsuario");
  refused(*post("/camadas-usuarios", at + R"("idUsuario":"1;drop","direito":"leitura"})", c.owner), 400,
          "parametro_invalido", "idUsuario");
  refused(*post("/camadas-usuarios", at + R"("idUsuario":1,"direito":"leitura","papel":"x"})", c.owner), 400,
          "campo_desconhecido", "papel");
  refused(*post("/camadas-usuarios", std::string(2000, ' ') + "{}", c.owner), 413, "corpo_muito_grande");
  CHECK(db("select count(*) from projeto.camada_usuarios") == "1");

  // Lists: the rights on the layers the caller administers.
  auto editor_right = post("/camadas-usuarios", at + R"("idUsuario":)" + std::to_string(c.reader.user_id) + R"(,"direito":"edicao"})",
                           c.owner);
  REQUIRE_MESSAGE(editor_right->status == 201, editor_right->body);
  std::int64_t second = int64_t(editor_right->json()["id"]);
  auto all = get("/camadas-usuarios", c.owner);
  REQUIRE_MESSAGE(all->status == 200, all->body);
  CHECK(test::ids(all->json()) == std::to_string(right) + "," + std::to_string(second));
  CHECK(test::ids(get("/camadas-usuarios?idCamada=" + std::to_string(open), c.owner)->json()) == std::to_string(second));
  CHECK(get("/camadas-usuarios", c.reader)->body == "[]");
  CHECK(get("/camadas-usuarios", c.stranger)->body == "[]");
  CHECK(get("/camadas-usuarios", c.beta)->body == "[]");
  refused(*get("/camadas-usuarios?idCamada=x", c.owner), 400, "parametro_invalido", "idCamada");
  refused(*request("GET", "/camadas-usuarios", {}), 401, "nao_autenticado");
  // The right of edicao lets the project's reader edit that layer's data.
  CHECK(std::string_view(get("/camadas/" + std::to_string(open), c.reader)->json()["papel"]) == "edicao");

  // One right.
  auto one = get("/camadas-usuarios/" + std::to_string(right), c.owner);
  REQUIRE_MESSAGE(one->status == 200, one->body);
  CHECK(int64_t(one->json()["idUsuario"]) == c.stranger.user_id);
  CHECK(std::string_view(one->json()["usuario"]["nome"]) == "Usuário alfa");
  refused(*get("/camadas-usuarios/" + std::to_string(right), c.stranger), 403, "acesso_negado");  // sees the layer, does not administer it
  refused(*get("/camadas-usuarios/" + std::to_string(right), c.editor), 404, "nao_encontrado");
  refused(*get("/camadas-usuarios/" + std::to_string(right), c.beta), 404, "nao_encontrado");
  refused(*request("GET", "/camadas-usuarios/" + std::to_string(right), {}), 401, "nao_autenticado");
  refused(*get("/camadas-usuarios/1;drop", c.owner), 400, "parametro_invalido", "id");

  // Change it.
  auto changed = put("/camadas-usuarios/" + std::to_string(right), R"({"direito":"edicao"})", c.owner);
  REQUIRE_MESSAGE(changed->status == 200, changed->body);
  CHECK(db("select direito from projeto.camada_usuarios where id = " + std::to_string(right)) == "edicao");
  CHECK(std::string_view(get("/camadas/" + std::to_string(hidden), c.stranger)->json()["papel"]) == "edicao");
  refused(*put("/camadas-usuarios/" + std::to_string(right), R"({"direito":"dono"})", c.owner), 400, "parametro_invalido", "direito");
  refused(*put("/camadas-usuarios/" + std::to_string(right), R"({"idUsuario":1})", c.owner), 400, "parametro_invalido", "idUsuario");
  refused(*put("/camadas-usuarios/" + std::to_string(right), "{}", c.owner), 400, "campo_obrigatorio", "direito");
  refused(*put("/camadas-usuarios/" + std::to_string(second), R"({"direito":"leitura"})", c.reader), 403, "acesso_negado");
  // (The stranger sees the project now, through its right: a user without any share is needed.)
  Session nobody = signed_in("ninguem@alfa.gov.br");
  for (const auto& [method, payload] : {std::pair<std::string, std::string>{"PUT", R"({"direito":"leitura"})"},
                                        std::pair<std::string, std::string>{"DELETE", ""}}) {
    CAPTURE(method);
    refused(*request(method, "/camadas-usuarios/" + std::to_string(second), {}, payload), 401, "nao_autenticado");
    refused(*request(method, "/camadas-usuarios/" + std::to_string(second), headers(c.beta), payload), 404, "nao_encontrado");
    refused(*request(method, "/camadas-usuarios/" + std::to_string(second), headers(nobody), payload), 404, "nao_encontrado");
    refused(*request(method, "/camadas-usuarios/" + std::to_string(second), headers(c.stranger), payload), 403, "acesso_negado");
  }
  // Rights on an inactive layer are not changed, but may be removed.
  REQUIRE(post("/camadas/inativar/" + std::to_string(open), "", c.owner)->status == 200);
  refused(*put("/camadas-usuarios/" + std::to_string(second), R"({"direito":"leitura"})", c.owner), 409, "transicao_invalida");

  // Take them away.
  refused(*del("/camadas-usuarios/" + std::to_string(second), c.reader), 403, "acesso_negado");
  CHECK(del("/camadas-usuarios/" + std::to_string(second), c.owner)->status == 204);
  auto removed = del("/camadas-usuarios/" + std::to_string(right), c.owner);
  CHECK_MESSAGE(removed->status == 204, removed->body);
  CHECK(db("select count(*) from projeto.camada_usuarios") == "0");
  refused(*get("/camadas/" + std::to_string(hidden), c.stranger), 404, "nao_encontrado");
  refused(*del("/camadas-usuarios/" + std::to_string(right), c.owner), 404, "nao_encontrado");
}
