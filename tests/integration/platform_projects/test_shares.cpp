// Projects and users: shares (/projetos/usuarios, /projetos/:idProjeto/usuarios) with
// names from the platform database, audited in projeto.eventos; only active users of the
// same tenant; and /projetos/usuariospvgeo (the tenant's users of one e-mail domain with
// their roles on the projects the caller administers).
#include "team.hpp"

using namespace cadastre;
using test::PlatformFixture;
using test::refused;
using test::Rows;
using test::Session;
using test::str;
using test::Workspace;

TEST_CASE_FIXTURE(PlatformFixture, "project admins share, change and remove roles of active users of their tenant") {
  test::Team t = test::team(*this);
  Workspace w(*this, t.owner);
  auto made = post("/projetos", R"({"nome":"Lotes"})", t.owner);
  REQUIRE(made->status == 201);
  std::int64_t p = int64_t(made->json()["id"]);
  const std::string P = str(p);
  auto body = [&](const Session& who, const std::string& papel) {
    return R"({"idProjeto":)" + P + R"(,"idUsuario":)" + str(who.user_id) + R"(,"papel":")" + papel + R"("})";
  };

  auto a = post("/projetos/usuarios", body(t.reader, "leitura"), t.owner);
  REQUIRE_MESSAGE(a->status == 201, a->body);
  CHECK(int64_t(a->json()["idUsuario"]) == t.reader.user_id);
  CHECK(std::string_view(a->json()["email"]) == "leitor@alfa.gov.br");
  CHECK(std::string_view(a->json()["papel"]) == "leitura");
  CHECK(int64_t(a->json()["concedidoPor"]) == t.owner.user_id);
  CHECK(w.db("select papel from projeto.projeto_usuarios where projeto_id = " + P + " and usuario_id = " +
             str(t.reader.user_id)) == "leitura");
  CHECK(get("/projetos/" + P, t.reader)->status == 200);

  auto up = post("/projetos/usuarios", body(t.reader, "edicao"), t.owner);
  CHECK_MESSAGE(up->status == 200, up->body);
  CHECK(std::string_view(up->json()["papel"]) == "edicao");
  CHECK(w.db("select string_agg(detalhes->>'papel' || '<' || coalesce(detalhes->>'papelAnterior', '-'), ',' order by id) "
             "from projeto.eventos where operacao = 'compartilhar' and projeto_id = " + P) == "leitura<-,edicao<leitura");
  REQUIRE(post("/projetos/usuarios", body(t.editor, "admin"), t.owner)->status == 201);

  auto list = get("/projetos/" + P + "/usuarios", t.owner);
  REQUIRE_MESSAGE(list->status == 200, list->body);
  CHECK(test::ids(list->json(), "idUsuario") == str(t.reader.user_id) + "," + str(t.editor.user_id));
  CHECK(test::ids(list->json(), "email") == "leitor@alfa.gov.br,editor@alfa.gov.br");
  CHECK(test::ids(list->json(), "nome") == "Usuário alfa,Usuário alfa");
  CHECK(test::ids(list->json(), "papel") == "edicao,admin");
  // An admin by share manages shares too; an editor does not.
  CHECK(get("/projetos/" + P + "/usuarios", t.editor)->status == 200);
  refused(*get("/projetos/" + P + "/usuarios", t.reader), 403, "acesso_negado");
  refused(*post("/projetos/usuarios", body(t.stranger, "leitura"), t.reader), 403, "acesso_negado");

  // Who may be named: active users of this tenant, not the caller, not the creator.
  Session gone = test::signed_in(*this, "alfa", "inativo@alfa.gov.br");
  platform_db("update plataforma.usuarios set ativo = false where id = " + str(gone.user_id) + " returning id");
  refused(*post("/projetos/usuarios", body(gone, "leitura"), t.owner), 404, "nao_encontrado", "não encontrado");
  refused(*post("/projetos/usuarios", body(t.beta, "leitura"), t.owner), 404, "nao_encontrado");
  refused(*post("/projetos/usuarios", R"({"idProjeto":)" + P + R"(,"idUsuario":999999,"papel":"leitura"})", t.owner), 404,
          "nao_encontrado");
  refused(*post("/projetos/usuarios", body(t.owner, "leitura"), t.owner), 409, "conflito");
  refused(*post("/projetos/usuarios", body(t.owner, "leitura"), t.editor), 409, "conflito", "criou");
  refused(*post("/projetos/usuarios", body(t.stranger, "dono"), t.owner), 400, "parametro_invalido", "papel");
  refused(*post("/projetos/usuarios", R"({"idProjeto":)" + P + R"(,"papel":"leitura"})", t.owner), 400,
          "campo_obrigatorio", "idUsuario");
  refused(*post("/projetos/usuarios", R"({"idProjeto":"1;drop","idUsuario":1,"papel":"leitura"})", t.owner), 400,
          "parametro_invalido", "idProjeto");
  refused(*request("POST", "/projetos/usuarios", {}, body(t.stranger, "leitura")), 401, "nao_autenticado");
  refused(*post("/projetos/usuarios", body(t.stranger, "leitura"), t.beta), 404, "nao_encontrado");
  refused(*post("/projetos/usuarios", body(t.owner, "admin"), t.stranger), 404, "nao_encontrado");
  for (std::string path : {"/projetos/" + P + "/usuarios", "/projetos/" + P + "/usuarios/" + str(t.reader.user_id)}) {
    std::string method = path.ends_with("/usuarios") ? "GET" : "DELETE";
    refused(*request(method, path, {}), 401, "nao_autenticado");
    refused(*request(method, path, PlatformFixture::headers(t.beta)), 404, "nao_encontrado");
    refused(*request(method, path, PlatformFixture::headers(t.stranger)), 404, "nao_encontrado");
  }
  refused(*get("/projetos/1;drop/usuarios", t.owner), 400, "parametro_invalido");
  refused(*del("/projetos/" + P + "/usuarios/1;drop", t.owner), 400, "parametro_invalido", "idUsuario");
  CHECK(w.db("select count(*) from projeto.projeto_usuarios") == "2");

  refused(*del("/projetos/" + P + "/usuarios/" + str(t.editor.user_id), t.reader), 403, "acesso_negado");
  auto removed = del("/projetos/" + P + "/usuarios/" + str(t.reader.user_id), t.owner);
  CHECK_MESSAGE(removed->status == 204, removed->body);
  CHECK(w.db("select count(*) from projeto.projeto_usuarios where usuario_id = " + str(t.reader.user_id)) == "0");
  CHECK(w.db("select detalhes->>'papelAnterior' from projeto.eventos where operacao = 'descompartilhar'") == "edicao");
  refused(*del("/projetos/" + P + "/usuarios/" + str(t.reader.user_id), t.owner), 404, "nao_encontrado", "compartilhamento");
  refused(*get("/projetos/" + P, t.reader), 404, "nao_encontrado");

  // An inactive project refuses share changes (its state moves are the managers' only).
  w.db("update projeto.projetos set ativo = false where id = " + P);
  refused(*post("/projetos/usuarios", body(t.stranger, "leitura"), t.owner), 409, "transicao_invalida", "inativo");
}

TEST_CASE_FIXTURE(PlatformFixture, "usuariospvgeo lists the tenant's users of a domain with their roles on my projects") {
  test::Team t = test::team(*this);
  Workspace w(*this, t.owner);
  Rows r{w};
  auto made = post("/projetos", R"({"nome":"Lotes"})", t.owner);
  std::int64_t p = int64_t(made->json()["id"]);
  std::int64_t q = int64_t(post("/projetos", R"({"nome":"Rural"})", t.owner)->json()["id"]);
  std::int64_t theirs = int64_t(post("/projetos", R"({"nome":"Alheio"})", t.stranger)->json()["id"]);
  r.share(p, t.reader, "leitura");
  r.share(q, t.editor, "edicao");
  Session other = test::signed_in(*this, "alfa", "fulano@outro.com.br");
  Session gone = test::signed_in(*this, "alfa", "antigo@alfa.gov.br");
  platform_db("update plataforma.usuarios set ativo = false where id = " + str(gone.user_id) + " returning id");

  auto a = get("/projetos/usuariospvgeo?dominio=ALFA.gov.br", t.owner);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  const std::string expected =
      platform_db("select string_agg(id::text, ',' order by nome, id) from plataforma.usuarios where ativo and "
                  "email like '%@alfa.gov.br' and tenant_id = " + str(tenant_id("alfa")));
  CHECK(test::ids(a->json()) == expected);
  for (auto u : a->json().get_array()) {
    std::int64_t id = int64_t(u["id"]);
    CHECK(test::ids(u["projetos"]) == str(p) + "," + str(q));  // not the stranger's project
    std::string roles = test::ids(u["projetos"], "papel");
    if (id == t.owner.user_id) CHECK(roles == "admin,admin");
    if (id == t.reader.user_id) CHECK(roles == "leitura,null");
    if (id == t.editor.user_id) CHECK(roles == "null,edicao");
    CHECK(u["adm"].error() == simdjson::NO_SUCH_FIELD);
  }
  CHECK(test::ids(get("/projetos/usuariospvgeo?dominio=outro.com.br", t.owner)->json()) == str(other.user_id));
  CHECK(get("/projetos/usuariospvgeo?dominio=beta.gov.br", t.owner)->body == "[]");  // another tenant's users
  auto mine = get("/projetos/usuariospvgeo?dominio=alfa.gov.br", t.stranger);  // administers "Alheio"
  CHECK(test::ids(mine->json().at(0)["projetos"]) == str(theirs));
  refused(*get("/projetos/usuariospvgeo?dominio=alfa.gov.br", t.reader), 403, "acesso_negado");
  refused(*get("/projetos/usuariospvgeo", t.owner), 400, "campo_obrigatorio", "dominio");
  refused(*get("/projetos/usuariospvgeo?dominio=alfa%27%20or%201=1--", t.owner), 400, "parametro_invalido", "dominio");
  refused(*get("/projetos/usuariospvgeo?dominio=sem-ponto", t.owner), 400, "parametro_invalido", "dominio");
  refused(*get("/projetos/usuariospvgeo?dominio=alfa.gov.br&x=1", t.owner), 400, "campo_desconhecido", "x");
  refused(*request("GET", "/projetos/usuariospvgeo?dominio=alfa.gov.br", {}), 401, "nao_autenticado");
}
