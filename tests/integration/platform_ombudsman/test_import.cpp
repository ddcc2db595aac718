// POST /importar/add/ouv: the staff bring the requests into a point layer of a project (a
// job of tipo "ouv"), once per codigo, and the statuses they move in the layer come back to
// the requests (and go on to the other layers at their next import).
#include "ouv_fixture.hpp"

using namespace cadastre;
using test::n;
using test::refused;

namespace {
const std::string kMaria = R"(,"nome":"Maria Planta","email":"maria.planta@exemplo.com","telefone":"(19) 99999-0000")";

// The layer's value of field `chave` for the request with `protocolo`.
std::string value_of(const test::Workspace& w, std::int64_t layer, const std::string& protocolo, const std::string& chave) {
  return w.db("select v.valor #>> '{}' from ouvidoria.pedidos_camada pc join ouvidoria.pedidos p on p.id = pc.pedido_id "
              "cross join lateral projeto.valores_de(pc.geometria_id) v join projeto.campos f on f.id = v.campo_id "
              "where pc.camada_id = " + n(layer) + " and f.chave = '" + chave + "' and p.protocolo = '" + protocolo + "'");
}
// What staff do through the value routes: set the status value of a request's geometry.
void staff_moves(const test::Workspace& w, std::int64_t layer, const std::string& protocolo, const std::string& status) {
  test::staff_sets_status(w, layer, status, "p.protocolo = '" + protocolo + "'");
}
}  // namespace

TEST_CASE_FIXTURE(test::OuvFixture, "the staff import copies requests into a point layer once per codigo and brings status moves back") {
  enable("alfa");
  auto [p1, t1] = filed("Buraco na esquina", kMaria);
  auto [p2, t2] = filed("Buraco na ponte");
  auto [p3, t3] = filed("Buraco no beco");
  test::Workspace w(*this, admin("alfa", "chefe@alfa.gov.br"));
  auto project = w.project("Ouvidoria");
  auto layer = w.layer(project, "pedidos", "ponto");
  const std::string in_layer = "select count(*) from projeto.geometrias where camada_id = ";

  REQUIRE(imported(layer, "imp1", "todos", w.owner) == "concluida");
  CHECK(w.db(in_layer + n(layer)) == "3");
  CHECK(w.db("select string_agg(f.chave, ',' order by f.ordem) from projeto.campos f join projeto.formularios fo "
             "on fo.id = f.formulario_id where fo.camada_id = " + n(layer)) == "protocolo,categoria,status,data,descricao");
  CHECK(value_of(w, layer, p1, "protocolo") == p1);
  CHECK(value_of(w, layer, p1, "categoria") == "Buraco na via");
  CHECK(value_of(w, layer, p1, "status") == "aberto");
  CHECK(value_of(w, layer, p1, "descricao") == "Buraco na esquina");
  CHECK(w.db("select count(*) from projeto.geometrias g cross join lateral projeto.valores_de(g.id) v join "
             "projeto.campos f on f.id = v.campo_id where g.camada_id = " + n(layer) + " and f.tipo = 'data' "
             "and v.valor #>> '{}' = current_date::text") == "3");
  // Audited like any write; a public layer gets no personal data.
  CHECK(w.db("select count(*) from projeto.geometrias_auditoria where operacao = 'criar' and camada_id = " + n(layer)) == "3");
  CHECK(w.db("select count(*) from projeto.valores_auditoria a join projeto.geometrias g on g.id = a.geometria_id "
             "where g.camada_id = " + n(layer)) == "15");
  CHECK(w.db("select count(*) from projeto.geometrias g cross join lateral projeto.valores_de(g.id) v "
             "where v.valor #>> '{}' ilike '%maria%'") == "0");
  CHECK(tenant_db("select contagens->>'importadas' from projeto.importacoes where tipo = 'ouv' and codigo = 'imp1'") == "3");

  // The same codigo again: the first job, nothing copied again.
  auto again = post("/importar/add/ouv?codigo=imp1&idCamada=" + n(layer) + "&xdzs=todos", "", w.owner);
  REQUIRE_MESSAGE(again->status == 202, again->body);
  CHECK_FALSE(bool(again->json()["novo"]));
  REQUIRE(imported(layer, "imp2", "todos", w.owner) == "concluida");
  CHECK(w.db(in_layer + n(layer)) == "3");

  // Staff close p2 in the layer: the next import moves the request, with its history.
  staff_moves(w, layer, p2, "concluido");
  REQUIRE(imported(layer, "imp3", "todos", w.owner) == "concluida");
  CHECK(tenant_db("select status from ouvidoria.pedidos where protocolo = '" + p2 + "'") == "concluido");
  CHECK(tenant_db("select h.usuario_id from ouvidoria.historico h join ouvidoria.pedidos p on p.id = h.pedido_id "
                  "where h.tipo = 'status' and h.status = 'concluido' and p.protocolo = '" + p2 + "'") == n(w.owner.user_id));
  auto follow = anon("POST", "/ouv/pedir/" + p2 + "?cidade=alfa", R"({"token":")" + t2 + R"("})");
  REQUIRE_MESSAGE(follow->status == 200, follow->body);
  CHECK(follow->text("status") == "concluido");

  // Another layer takes only the open ones; a move made in the first layer reaches it at its
  // next import.
  auto open_layer = w.layer(project, "abertos", "ponto");
  REQUIRE(imported(open_layer, "a1", "aberto", w.owner) == "concluida");
  CHECK(w.db(in_layer + n(open_layer)) == "2");
  staff_moves(w, layer, p1, "em_analise");
  REQUIRE(imported(layer, "imp4", "todos", w.owner) == "concluida");
  REQUIRE(imported(open_layer, "a2", "aberto", w.owner) == "concluida");
  CHECK(value_of(w, open_layer, p1, "status") == "em_analise");
  CHECK(tenant_db("select count(*) from ouvidoria.historico where tipo = 'status'") == "2");

  // A private layer also receives the citizen's contact, for the staff who may see it.
  auto private_layer = w.created("/camadas", R"({"idProjeto":)" + n(project) +
                                                 R"(,"nome":"privada","geometria":"ponto","privada":true})");
  REQUIRE(imported(private_layer, "p1", "todos", w.owner) == "concluida");
  CHECK(value_of(w, private_layer, p1, "email") == "maria.planta@exemplo.com");
  CHECK(value_of(w, private_layer, p1, "nome") == "Maria Planta");

  // The public GeoJSON of a layer: its requests, without personal data.
  auto gj = anon("GET", "/ouv/camadas/" + n(private_layer) + "/geometrias?cidade=alfa");
  REQUIRE_MESSAGE(gj->status == 200, gj->body);
  CHECK(gj->content_type.find("application/geo+json") == 0);
  CHECK(gj->text("type") == "FeatureCollection");
  CHECK(gj->json()["features"].get_array().size() == 3);
  CHECK(gj->body.find(p1) != std::string::npos);
  CHECK(gj->body.find("Maria") == std::string::npos);
  CHECK(gj->body.find("maria.planta") == std::string::npos);
  auto never_imported = w.layer(project, "outra", "ponto");
  refused(*anon("GET", "/ouv/camadas/" + n(never_imported) + "/geometrias?cidade=alfa"), 404, "nao_encontrado");
  refused(*anon("GET", "/ouv/camadas/1%3Bdrop/geometrias?cidade=alfa"), 400, "parametro_invalido", "id");
}

TEST_CASE_FIXTURE(test::OuvFixture, "the import is guarded and checks its parameters before any copy") {
  enable("alfa");
  filed("Buraco");
  test::Workspace w(*this, admin("alfa", "chefe@alfa.gov.br"));
  auto project = w.project("Ouvidoria");
  auto layer = w.layer(project, "pedidos", "ponto");
  const std::string path = "/importar/add/ouv?idCamada=" + n(layer);

  refused(*request("POST", path + "&codigo=a&xdzs=todos", {}), 401, "nao_autenticado");
  // A read-only share sees the layer but may not write to it; beta does not see it at all.
  test::TestUser leitor = stack->add_user("alfa", "leitor@alfa.gov.br", {"*:rw"});
  test::Session reader = login(leitor.email, leitor.password);
  auto share = post("/projetos/usuarios",
                    R"({"idProjeto":)" + n(project) + R"(,"idUsuario":)" + n(reader.user_id) + R"(,"papel":"leitura"})",
                    w.owner);
  REQUIRE_MESSAGE(share->status == 201, share->body);
  refused(*post(path + "&codigo=a&xdzs=todos", "", reader), 403, "acesso_negado");
  refused(*post(path + "&codigo=a&xdzs=todos", "", user("beta")), 404, "nao_encontrado");
  // Bad parameters, each named.
  refused(*post(path + "&xdzs=todos", "", w.owner), 400, "campo_obrigatorio", "codigo");
  refused(*post(path + "&codigo=a%27%3Bdrop&xdzs=todos", "", w.owner), 400, "parametro_invalido", "codigo");
  refused(*post(path + "&codigo=a", "", w.owner), 400, "campo_obrigatorio", "xdzs");
  refused(*post(path + "&codigo=a&xdzs=aberto,fechado", "", w.owner), 400, "parametro_invalido", "xdzs");
  refused(*post("/importar/add/ouv?idCamada=1%3Bdrop&codigo=a&xdzs=todos", "", w.owner), 400, "parametro_invalido");
  auto polygons = w.layer(project, "lotes", "poligono");
  refused(*post("/importar/add/ouv?idCamada=" + n(polygons) + "&codigo=a&xdzs=todos", "", w.owner), 400,
          "parametro_invalido", "idCamada");
  CHECK(tenant_db("select count(*) from projeto.importacoes") == "0");
  CHECK(tenant_db("select count(*) from projeto.geometrias") == "0");
}
