// /camadasAdicionais: external layers attached to projects. Lists follow the projects'
// visibility (ids the caller may not see are left out); adding and deleting need the
// project's admin role; URLs are http(s) without credentials, XYZ templates carry
// {z}/{x}/{y} and WMS layers name their LAYERS.
#include "team.hpp"

using namespace cadastre;
using test::PlatformFixture;
using test::refused;
using test::Rows;
using test::Session;
using test::str;
using test::Workspace;

TEST_CASE_FIXTURE(PlatformFixture, "additional layers: admins add and delete them, readers list those they may see") {
  test::Team t = test::team(*this);
  Workspace w(*this, t.owner);
  Rows r{w};
  std::int64_t p = int64_t(post("/projetos", R"({"nome":"Lotes"})", t.owner)->json()["id"]);
  std::int64_t q = int64_t(post("/projetos", R"({"nome":"Alheio"})", t.stranger)->json()["id"]);
  r.share(p, t.reader, "leitura");
  const std::string P = str(p);
  auto layer = [&](const std::string& rest) { return R"({"idProjeto":)" + P + "," + rest + "}"; };

  auto wms = post("/camadasAdicionais",
                  layer(R"("nome":"Ortofoto","tipo":"wms","url":"https://geo.alfa.gov.br/wms","camadas":"orto2020",)"
                        R"("opcoes":{"transparente":true,"formato":"image/png"},"ordem":2)"),
                  t.owner);
  REQUIRE_MESSAGE(wms->status == 201, wms->body);
  std::int64_t a1 = int64_t(wms->json()["id"]);
  CHECK(std::string_view(wms->json()["camadas"]) == "orto2020");
  CHECK(bool(wms->json()["opcoes"]["transparente"]));
  CHECK(w.db("select tipo || ' ' || url || ' ' || (opcoes->>'formato') || ' ' || ordem from projeto.camadas_adicionais "
             "where id = " + str(a1)) == "wms https://geo.alfa.gov.br/wms image/png 2");
  auto xyz = post("/camadasAdicionais",
                  layer(R"("nome":"OSM","tipo":"xyz","url":"https://tile.example.org/{z}/{x}/{y}.png")"), t.owner);
  REQUIRE_MESSAGE(xyz->status == 201, xyz->body);
  std::int64_t a2 = int64_t(xyz->json()["id"]);
  CHECK(xyz->json()["camadas"].is_null());
  auto theirs = post("/camadasAdicionais",
                     R"({"idProjeto":)" + str(q) + R"(,"nome":"Rios","tipo":"vetor","url":"http://dados.br/rios.geojson"})",
                     t.stranger);
  REQUIRE_MESSAGE(theirs->status == 201, theirs->body);
  std::int64_t a3 = int64_t(theirs->json()["id"]);

  // Bad input names its field; nothing is stored.
  const std::pair<std::string, std::string> bad[] = {
      {R"("nome":"x","tipo":"xyz","url":"https://t.br/{z}/{x}.png")", "url"},
      {R"("nome":"x","tipo":"wms","url":"https://t.br/wms")", "camadas"},
      {R"("nome":"x","tipo":"wms","url":"https://t.br/wms","camadas":" , ")", "camadas"},
      {R"("nome":"x","tipo":"vetor","url":"ftp://t.br/a")", "url"},
      {R"j("nome":"x","tipo":"vetor","url":"javascript:alert(1)")j", "url"},
      {R"("nome":"x","tipo":"vetor","url":"https://usuario:senha@t.br/a")", "url"},
      {R"("nome":"x","tipo":"vetor","url":"https://t.br/a b")", "url"},
      {R"("nome":"x","tipo":"vetor","url":"https:///caminho")", "url"},
      {R"("nome":"x","tipo":"vetor","url":"https://t.br/)" + std::string(2000, 'a') + "\"", "url"},
      {R"("nome":"x","tipo":"tms","url":"https://t.br/a")", "tipo"},
      {R"("nome":"x","tipo":"vetor","url":"https://t.br/a","opcoes":[1])", "opcoes"},
      {R"("nome":"","tipo":"vetor","url":"https://t.br/a")", "nome"},
      {R"("tipo":"vetor","url":"https://t.br/a")", "nome"},
      {R"("nome":"x","url":"https://t.br/a")", "tipo"},
      {R"("nome":"x","tipo":"vetor")", "url"},
      {R"("nome":"x","tipo":"vetor","url":"https://t.br/a","senha":"1")", "senha"},
  };
  for (const auto& [body, field] : bad) {
    CAPTURE(body);
    auto a = post("/camadasAdicionais", layer(body), t.owner);
    CHECK_MESSAGE(a->status == 400, a->body);
    CHECK_MESSAGE(a->mensagem().find(field) != std::string::npos, a->body);
  }
  refused(*post("/camadasAdicionais", R"({"idProjeto":"1;drop","nome":"x","tipo":"vetor","url":"https://t.br/a"})",
                t.owner), 400, "parametro_invalido", "idProjeto");
  const std::string ok = layer(R"("nome":"x","tipo":"vetor","url":"https://t.br/a")");
  refused(*post("/camadasAdicionais", ok, t.reader), 403, "acesso_negado");
  refused(*post("/camadasAdicionais", ok, t.beta), 404, "nao_encontrado");
  refused(*post("/camadasAdicionais", ok, t.editor), 404, "nao_encontrado");  // no share
  refused(*request("POST", "/camadasAdicionais", {}, ok), 401, "nao_autenticado");
  CHECK(r.count("camadas_adicionais") == "3");

  // Lists: what the caller may see.
  CHECK(test::ids(get("/camadasAdicionais", t.reader)->json()) == str(a2) + "," + str(a1));  // by ordem
  CHECK(test::ids(get("/camadasAdicionais", t.stranger)->json()) == str(a3));
  CHECK(test::ids(get("/camadasAdicionais?id_projetos=" + P + "," + str(q), t.reader)->json()) ==
        str(a2) + "," + str(a1));
  CHECK(test::ids(get("/camadasAdicionais?id_projetos=" + str(q), t.reader)->json()).empty());
  CHECK(get("/camadasAdicionais", t.beta)->body == "[]");
  auto grouped = get("/camadasAdicionais/v2", t.owner);
  REQUIRE_MESSAGE(grouped->status == 200, grouped->body);
  CHECK(test::ids(grouped->json(), "idProjeto") == P);
  CHECK(test::ids(grouped->json().at(0)["camadas"]) == str(a2) + "," + str(a1));
  CHECK(test::ids(get("/camadasAdicionais/v2?id_projetos=" + str(q), t.stranger)->json(), "idProjeto") == str(q));
  for (const char* path : {"/camadasAdicionais?id_projetos=1;drop", "/camadasAdicionais?id_projetos=abc",
                           "/camadasAdicionais?id_projetos=1,", "/camadasAdicionais/v2?id_projetos=-1"})
    refused(*get(path, t.owner), 400, "parametro_invalido", "id_projetos");
  refused(*request("GET", "/camadasAdicionais", {}), 401, "nao_autenticado");
  refused(*request("GET", "/camadasAdicionais/v2", {}), 401, "nao_autenticado");
  // An inactive project's layers leave the default list, and it refuses new ones.
  w.db("update projeto.projetos set ativo = false where id = " + P);
  CHECK(get("/camadasAdicionais", t.owner)->body == "[]");
  CHECK(test::ids(get("/camadasAdicionais?id_projetos=" + P, t.owner)->json()) == str(a2) + "," + str(a1));
  refused(*post("/camadasAdicionais", ok, t.owner), 409, "transicao_invalida", "inativo");
  refused(*del("/camadasAdicionais/" + str(a1), t.owner), 409, "transicao_invalida");
  w.db("update projeto.projetos set ativo = true where id = " + P);

  // Deleting.
  const std::string path = "/camadasAdicionais/" + str(a1);
  refused(*del(path, t.reader), 403, "acesso_negado");
  refused(*del(path, t.stranger), 404, "nao_encontrado");
  refused(*del(path, t.beta), 404, "nao_encontrado");
  refused(*request("DELETE", path, {}), 401, "nao_autenticado");
  refused(*del("/camadasAdicionais/1;drop", t.owner), 400, "parametro_invalido");
  auto gone = del(path, t.owner);
  CHECK_MESSAGE(gone->status == 204, gone->body);
  CHECK(r.count("camadas_adicionais", "id = " + str(a1)) == "0");
  refused(*del(path, t.owner), 404, "nao_encontrado");
  CHECK(r.count("camadas_adicionais") == "2");
}
