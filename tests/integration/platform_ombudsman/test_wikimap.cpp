// The wiki map: the catalog of published projects across tenants, edited by the project's
// admins; each user's list, one rating per user per map (average and count consistent under
// concurrent raters) and comments deleted by their author or an administrator.
#include <atomic>
#include <thread>

#include "ouv_fixture.hpp"

using namespace cadastre;
using test::n;
using test::refused;

namespace {
// A published project of alfa and its catalog entry's id (publishing creates it).
struct Published {
  test::Workspace w;
  std::int64_t project = 0, entry = 0;
};
Published publish(test::OuvFixture& f, const std::string& nome) {
  Published p{test::Workspace(f, f.admin("alfa", "chefe@alfa.gov.br")), 0, 0};
  p.project = p.w.project(nome);
  auto a = f.post("/projetos/" + n(p.project) + "/publicar", "", p.w.owner);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  p.entry = std::stoll(f.platform_db("select id from plataforma.wikimap_mapas where projeto_id = " + n(p.project) +
                                     " and tenant_id = " + n(f.tenant_id("alfa"))));
  return p;
}
test::Session someone(test::OuvFixture& f, const std::string& email, const std::string& slug = "alfa") {
  test::TestUser u = f.stack->add_user(slug, email, {"*:rw"});
  return f.login(u.email, u.password);
}
}  // namespace

TEST_CASE_FIXTURE(test::OuvFixture, "published projects enter the catalog across tenants and their admin edits the entry") {
  Published p = publish(*this, "Árvores da cidade");
  auto draft = p.w.project("Rascunho");
  test::Session reader = someone(*this, "leitor@alfa.gov.br"), beta = user("beta");
  // Another tenant sees it at once: no user of alfa has listed the catalog yet.
  auto first = get("/wikimap", beta);
  REQUIRE_MESSAGE(first->status == 200, first->body);
  CHECK(first->body.find("Árvores da cidade") != std::string::npos);

  auto list = get("/wikimap", reader);
  REQUIRE_MESSAGE(list->status == 200, list->body);
  CHECK(int64_t(list->json()["totalElements"]) == 1);
  CHECK(list->body.find("Árvores da cidade") != std::string::npos);
  CHECK(list->body.find("Rascunho") == std::string::npos);
  CHECK(platform_db("select count(*) from plataforma.wikimap_mapas where projeto_id = " + n(draft)) == "0");
  CHECK(platform_db("select organizacao = t.nome from plataforma.wikimap_mapas m join plataforma.tenants t "
                    "on t.id = m.tenant_id where m.id = " + n(p.entry)) == "t");
  // Another tenant's user reads it (the catalog is across tenants).
  auto seen = get("/wikimap/" + n(p.entry), beta);
  REQUIRE_MESSAGE(seen->status == 200, seen->body);
  CHECK(seen->text("cidade") == "alfa");

  // Only an admin of the project, in its tenant, edits the entry.
  const std::string change = R"({"titulo":"Árvores","temaGeral":"Meio ambiente","temaEspecifico":"Áreas verdes",)"
                             R"("organizacao":"Secretaria do Verde"})";
  refused(*put("/wikimap/" + n(p.entry), change, beta), 403, "acesso_negado");
  refused(*put("/wikimap/" + n(p.entry), change, reader), 403, "acesso_negado");
  auto changed = put("/wikimap/" + n(p.entry), change, p.w.owner);
  REQUIRE_MESSAGE(changed->status == 200, changed->body);
  CHECK(changed->text("temaEspecifico") == "Áreas verdes");
  CHECK(platform_db("select titulo || '|' || organizacao || '|' || editado from plataforma.wikimap_mapas where id = " +
                    n(p.entry)) == "Árvores|Secretaria do Verde|true");
  refused(*put("/wikimap/" + n(p.entry), R"({"temaGeral":"Meio ambiente"})", p.w.owner), 400, "parametro_invalido",
          "temaEspecifico");
  refused(*put("/wikimap/" + n(p.entry), R"({"temaGeral":"Meio ambiente","temaEspecifico":"Saúde"})", p.w.owner), 400,
          "parametro_invalido", "temaEspecifico");
  refused(*put("/wikimap/" + n(p.entry), R"({"titulo":" "})", p.w.owner), 400, "parametro_invalido", "titulo");
  refused(*put("/wikimap/" + n(p.entry), R"({"dono":1})", p.w.owner), 400, "campo_desconhecido", "dono");
  // A refresh keeps the owner's title.
  CHECK(get("/wikimap", reader)->body.find("\"titulo\": \"Árvores\"") != std::string::npos);

  // Search: accent- and case-insensitive text, themes, organisation, id.
  auto hits = [&](const std::string& query) {
    auto a = get("/wikimap/consulta?" + query, beta);
    REQUIRE_MESSAGE(a->status == 200, a->body);
    return int64_t(a->json()["totalElements"]);
  };
  CHECK(hits("q=ARVORES") == 1);
  CHECK(hits("q=verde") == 1);
  CHECK(hits("q=zzz") == 0);
  CHECK(hits("temaGeral=meio%20ambiente") == 1);
  CHECK(hits("temaGeral=Infraestrutura") == 0);
  CHECK(hits("temaEspecifico=areas%20verdes&organizacao=secretaria%20do%20verde") == 1);
  CHECK(hits("id=" + n(p.entry)) == 1);
  CHECK(hits("q=%27%20or%201%3D1--") == 0);
  refused(*get("/wikimap/consulta?id=abc", beta), 400, "parametro_invalido", "id");
  auto cfgs = get("/wikimap/cfgs", beta);
  REQUIRE_MESSAGE(cfgs->status == 200, cfgs->body);
  CHECK(cfgs->body.find("\"temaGeral\": \"Meio ambiente\"") != std::string::npos);
  CHECK(cfgs->body.find("Secretaria do Verde") != std::string::npos);

  // Unpublished: gone from the catalog (checked against its tenant on the way).
  REQUIRE(post("/projetos/" + n(p.project) + "/despublicar", "", p.w.owner)->status == 200);
  refused(*get("/wikimap/" + n(p.entry), beta), 404, "nao_encontrado");
  CHECK(platform_db("select publicado from plataforma.wikimap_mapas where id = " + n(p.entry)) == "f");
  CHECK(int64_t(get("/wikimap", beta)->json()["totalElements"]) == 0);

  // Every wiki map route needs a session.
  const std::string e = n(p.entry);
  for (const auto& [method, path] : std::vector<std::pair<std::string, std::string>>{
           {"GET", "/wikimap"}, {"GET", "/wikimap/" + e}, {"PUT", "/wikimap/" + e}, {"GET", "/wikimap/consulta?q=a"},
           {"GET", "/wikimap/cfgs"}, {"GET", "/wikimap/minha-lista"}, {"POST", "/wikimap/minha-lista?id=" + e},
           {"GET", "/wikimap/avaliacoes"}, {"POST", "/wikimap/avaliar?id=" + e}, {"POST", "/wikimap/" + e + "/comentario"},
           {"DELETE", "/wikimap/comentario/1"}}) {
    CAPTURE(path);
    refused(*request(method, path, {}, "{}"), 401, "nao_autenticado");
  }
  refused(*get("/wikimap/1%3Bdrop", beta), 400, "parametro_invalido", "id");
  refused(*get("/wikimap/999999", beta), 404, "nao_encontrado");
}

TEST_CASE_FIXTURE(test::OuvFixture, "my list, one rating per user kept consistent under concurrency, and comments") {
  Published p = publish(*this, "Iluminação");
  test::Session a = someone(*this, "a@alfa.gov.br"), beta = user("beta");
  const std::string entry = n(p.entry);

  // My list: add once (201), again (200), listed, per user.
  CHECK(post("/wikimap/minha-lista?id=" + entry, "", a)->status == 201);
  CHECK(post("/wikimap/minha-lista?id=" + entry, "", a)->status == 200);
  auto mine = get("/wikimap/minha-lista", a);
  REQUIRE_MESSAGE(mine->status == 200, mine->body);
  CHECK(int64_t(mine->json()["totalElements"]) == 1);
  CHECK(int64_t(get("/wikimap/minha-lista", beta)->json()["totalElements"]) == 0);
  CHECK(platform_db("select count(*) from plataforma.wikimap_minha_lista") == "1");
  refused(*post("/wikimap/minha-lista?id=999999", "", a), 404, "nao_encontrado");
  refused(*post("/wikimap/minha-lista", "", a), 400, "campo_obrigatorio", "id");

  // Ratings: a second one replaces the first.
  auto rated = post("/wikimap/avaliar?id=" + entry, R"({"nota":4})", a);
  REQUIRE_MESSAGE(rated->status == 200, rated->body);
  rated = post("/wikimap/avaliar?id=" + entry, R"({"nota":2})", a);
  CHECK(int64_t(rated->json()["totalAvaliacoes"]) == 1);
  CHECK(double(rated->json()["media"]) == 2.0);
  refused(*post("/wikimap/avaliar?id=" + entry, R"({"nota":6})", a), 400, "parametro_invalido", "nota");
  refused(*post("/wikimap/avaliar?id=" + entry, R"({"nota":2.5})", a), 400, "parametro_invalido", "nota");
  refused(*post("/wikimap/avaliar?id=" + entry, "{}", a), 400, "campo_obrigatorio", "nota");
  refused(*post("/wikimap/avaliar?id=999999", R"({"nota":3})", a), 404, "nao_encontrado");

  // Parallel raters: every rating counted, the average that of the rows.
  std::vector<test::Session> raters;
  for (int i = 0; i < 6; ++i) raters.push_back(someone(*this, "r" + std::to_string(i) + "@alfa.gov.br"));
  std::atomic<int> ok{0};
  for (int round = 0; round < 3; ++round) {
    std::vector<std::thread> threads;
    for (int i = 0; i < 6; ++i)
      threads.emplace_back([&, i] {
        auto r = post("/wikimap/avaliar?id=" + entry, R"({"nota":)" + std::to_string(1 + (i + round) % 5) + "}", raters[i]);
        if (r->status == 200) ++ok;
      });
    for (auto& t : threads) t.join();
  }
  CHECK(ok == 18);
  CHECK(platform_db("select total_avaliacoes || '|' || media from plataforma.wikimap_mapas where id = " + entry) ==
        platform_db("select count(*) || '|' || round(avg(nota), 2) from plataforma.wikimap_avaliacoes where mapa_id = " +
                    entry));
  CHECK(platform_db("select total_avaliacoes from plataforma.wikimap_mapas where id = " + entry) == "7");

  auto of_map = get("/wikimap/avaliacoes?id=" + entry, a);
  REQUIRE_MESSAGE(of_map->status == 200, of_map->body);
  CHECK(int64_t(of_map->json()["totalAvaliacoes"]) == 7);
  CHECK(int64_t(of_map->json()["minhaNota"]) == 2);
  auto mine_rated = get("/wikimap/avaliacoes", a);
  REQUIRE_MESSAGE(mine_rated->status == 200, mine_rated->body);
  CHECK(int64_t(mine_rated->json()["totalElements"]) == 1);
  CHECK(int64_t(mine_rated->json()["content"].at(0)["nota"]) == 2);

  // Comments: the author or an administrator (of the map's tenant, or of the platform) deletes.
  auto c1 = post("/wikimap/" + entry + "/comentario", R"({"texto":"Muito útil"})", a);
  REQUIRE_MESSAGE(c1->status == 201, c1->body);
  auto c2 = post("/wikimap/" + entry + "/comentario", R"({"texto":"Faltam postes"})", beta);
  REQUIRE_MESSAGE(c2->status == 201, c2->body);
  CHECK(get("/wikimap/" + entry, a)->json()["comentarios"].get_array().size() == 2);
  refused(*post("/wikimap/" + entry + "/comentario", R"({"texto":""})", a), 400, "parametro_invalido", "texto");
  refused(*post("/wikimap/" + entry + "/comentario", R"({"texto":")" + std::string(2001, 'x') + "\"}", a), 400,
          "parametro_invalido", "texto");
  std::string id1 = n(int64_t(c1->json()["id"])), id2 = n(int64_t(c2->json()["id"]));
  refused(*del("/wikimap/comentario/" + id1, beta), 403, "acesso_negado");
  CHECK(del("/wikimap/comentario/" + id1, a)->status == 204);
  CHECK(del("/wikimap/comentario/" + id2, p.w.owner)->status == 204);  // alfa's administrator
  CHECK(platform_db("select count(*) from plataforma.wikimap_comentarios") == "0");
  refused(*del("/wikimap/comentario/" + id2, a), 404, "nao_encontrado");
  refused(*del("/wikimap/comentario/x", a), 400, "parametro_invalido", "id");
  refused(*request("POST", "/wikimap/avaliar?id=" + entry, {}, R"({"nota":3})"), 401, "nao_autenticado");
}
