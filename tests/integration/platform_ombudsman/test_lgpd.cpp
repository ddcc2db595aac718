// LGPD: names, e-mails and phone numbers of citizens never leave the staff routes. Known
// values are planted in requests (in the contact fields, and typed into a description), the
// requests go through everything that could show them (a staff import into a public layer,
// a status move, follow-ups, a published project in the wiki map), and then every public
// ombudsman route and every wiki map route is called and each answer searched for them.
#include "ouv_fixture.hpp"

using namespace cadastre;
using test::n;
using test::refused;

TEST_CASE_FIXTURE(test::OuvFixture, "no public ombudsman route and no wiki map route answers a citizen's name, e-mail or phone") {
  enable("alfa");
  const std::vector<std::string> planted = {
      "Joaquina Sentinela", "joaquina.sentinela@lgpd.test", "(11) 98765-4321", "98765-4321",
      "Epaminondas Vigia",  "epaminondas@lgpd.test",        "+55 21 3333-7777", "3333-7777",
      "vizinho.curioso@lgpd.test", "91234-5678"};
  std::vector<std::string> bodies;
  auto keep = [&](std::unique_ptr<test::Answer> a, int status) {
    CHECK_MESSAGE(a->status == status, a->body);
    bodies.push_back(a->body);
    return a;
  };

  auto f1 = keep(file("Buraco fundo", R"(,"nome":"Joaquina Sentinela","email":"Joaquina.Sentinela@lgpd.test",)"
                                      R"("telefone":"(11) 98765-4321","foto":")" + test::kPngBase64 + "\""), 201);
  auto f2 = keep(file("Poste apagado", R"(,"nome":"Epaminondas Vigia","email":"epaminondas@lgpd.test",)"
                                       R"("telefone":"+55 21 3333-7777")"), 201);
  auto f3 = keep(file("Entulho; ligue 11 91234-5678 ou escreva para vizinho.curioso@lgpd.test"), 201);
  // The planted values are stored (so this test is not vacuous).
  CHECK(tenant_db("select count(*) from ouvidoria.pedidos where nome is not null and email is not null "
                  "and telefone is not null") == "2");
  CHECK(tenant_db("select count(*) from ouvidoria.pedidos where descricao like '%vizinho.curioso@lgpd.test%'") == "1");

  // The staff work the requests: a public layer in a project published to the wiki map.
  test::Workspace w(*this, admin("alfa", "chefe@alfa.gov.br"));
  auto project = w.project("Zeladoria");
  auto layer = w.layer(project, "pedidos", "ponto");
  REQUIRE(imported(layer, "lgpd1", "todos", w.owner) == "concluida");
  test::staff_sets_status(w, layer, "em_atendimento");
  REQUIRE(imported(layer, "lgpd2", "todos", w.owner) == "concluida");
  REQUIRE(post("/projetos/" + n(project) + "/publicar", "", w.owner)->status == 200);

  // Every public ombudsman route.
  keep(anon("GET", "/ouv/cidades"), 200);
  keep(anon("GET", "/ouv/legenda?cidade=alfa"), 200);
  keep(anon("GET", "/ouv/?cidade=alfa"), 200);
  keep(anon("GET", "/ouv/?cidade=alfa&q=entulho"), 200);
  keep(anon("GET", "/ouv/camadas/" + n(layer) + "/geometrias?cidade=alfa"), 200);
  for (auto* f : {&f1, &f2, &f3}) {
    const std::string body = R"({"token":")" + (*f)->text("token") + R"(","mensagem":"e então?"})";
    keep(anon("POST", "/ouv/pedir/" + (*f)->text("protocolo") + "?cidade=alfa", body), 200);
  }
  // Searching for a planted value finds nothing (no oracle of who filed what).
  for (const auto& value : planted) {
    auto a = keep(anon("GET", "/ouv/?cidade=alfa&q=" + http::percent_encode(value)), 200);
    CHECK_MESSAGE(int64_t(a->json()["totalElements"]) == 0, value);
  }

  // Every wiki map route.
  test::TestUser leitor = stack->add_user("alfa", "leitor@alfa.gov.br", {"*:rw"});
  test::Session reader = login(leitor.email, leitor.password);
  keep(get("/wikimap", reader), 200);
  std::string entry = platform_db("select id from plataforma.wikimap_mapas where projeto_id = " + n(project));
  keep(get("/wikimap/" + entry, reader), 200);
  keep(put("/wikimap/" + entry, R"({"temaGeral":"Serviços públicos","temaEspecifico":"Ouvidoria"})", w.owner), 200);
  keep(get("/wikimap/consulta?q=zeladoria", reader), 200);
  keep(get("/wikimap/consulta?q=joaquina", reader), 200);
  keep(get("/wikimap/cfgs", reader), 200);
  keep(post("/wikimap/minha-lista?id=" + entry, "", reader), 201);
  keep(get("/wikimap/minha-lista", reader), 200);
  keep(post("/wikimap/avaliar?id=" + entry, R"({"nota":5})", reader), 200);
  keep(get("/wikimap/avaliacoes?id=" + entry, reader), 200);
  keep(get("/wikimap/avaliacoes", reader), 200);
  auto c = keep(post("/wikimap/" + entry + "/comentario", R"({"texto":"Bom mapa"})", reader), 201);
  keep(get("/wikimap/" + entry, reader), 200);
  keep(del("/wikimap/comentario/" + n(int64_t(c->json()["id"])), reader), 204);

  REQUIRE(bodies.size() == 35);
  for (const auto& body : bodies)
    for (const auto& value : planted) {
      CHECK_MESSAGE(body.find(value) == std::string::npos, value << " in " << body.substr(0, 400));
      CHECK_MESSAGE(http::lower_ascii(body).find(http::lower_ascii(value)) == std::string::npos, value);
    }
}

TEST_CASE_FIXTURE(test::OuvFixture, "full-width digits and accented e-mails are masked too (text normalised first)") {
  enable("alfa");
  // "ligue １９ ９８７６５-４３２１ ou joão.silva@exemplo.com.br": full-width digits, an accented local part.
  const std::string phone = "\xEF\xBC\x91\xEF\xBC\x99 \xEF\xBC\x99\xEF\xBC\x98\xEF\xBC\x97\xEF\xBC\x96\xEF\xBC\x95-"
                            "\xEF\xBC\x94\xEF\xBC\x93\xEF\xBC\x92\xEF\xBC\x91";
  REQUIRE(file("Lixo na rua; ligue " + phone + " ou jo\xC3\xA3o.silva@exemplo.com.br")->status == 201);
  auto list = anon("GET", "/ouv/?cidade=alfa");
  REQUIRE(list->status == 200);
  CHECK(list->body.find("[telefone omitido]") != std::string::npos);
  CHECK(list->body.find("[e-mail omitido]") != std::string::npos);
  CHECK(list->body.find("\xEF\xBC\x99\xEF\xBC\x98") == std::string::npos);  // no full-width digit left
  CHECK(list->body.find("98765") == std::string::npos);
  CHECK(list->body.find("jo\xC3\xA3") == std::string::npos);
  CHECK(list->body.find("silva") == std::string::npos);
  // The function itself, by hand.
  CHECK(tenant_db("select ouvidoria.mascarar('escreva a joão.silva@exemplo.com.br')") == "escreva a [e-mail omitido]");
  CHECK(tenant_db("select ouvidoria.mascarar('fone ９８７６５-４３２１ hoje')") == "fone [telefone omitido] hoje");
}
