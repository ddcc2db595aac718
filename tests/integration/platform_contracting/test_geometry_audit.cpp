// GET /auditoria/geometrias: geometries written through the routes (create, a value, change,
// delete) read back from the audit with their state before and after, filtered by
// project, layer, user, time range and limit; only project admins and tenant admins read it.
#include "contracting.hpp"
#include "integration/platform/workspace.hpp"

using namespace cadastre;
using test::n;
using test::PlatformFixture;
using test::refused;
using test::Session;

namespace {

const char* kLot = "POLYGON((-48 -27,-48 -26.99,-47.99 -26.99,-48 -27))";
const char* kMoved = "POLYGON((-48 -27,-48 -26.98,-47.99 -26.98,-48 -27))";

std::string now_ms(const PlatformFixture& f) {
  return f.platform_db("select floor(extract(epoch from clock_timestamp()) * 1000)::bigint::text");
}

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture, "the geometry audit answers each write with its state before and after") {
  test::TestUser dono = stack->add_user("alfa", "dono@alfa.gov.br", {"*:rw"});
  test::Workspace w(*this, login(dono.email, dono.password));
  std::int64_t projeto = w.project("Cadastro"), camada = w.layer(projeto, "lotes");
  std::int64_t campo = w.field(w.form(camada, "Lote"), R"({"nome":"Inscrição","chave":"inscricao","tipo":"texto"})");
  const std::string t0 = now_ms(*this);

  auto g = post("/geometrias", R"({"idCamada":)" + n(camada) + R"(,"wkt":")" + kLot + R"("})", w.owner);
  REQUIRE_MESSAGE(g->status == 201, g->body);
  const std::string id = n(int64_t(g->json()["id"]));
  auto v = post("/valores", R"({"idGeometria":)" + id + R"(,"idCampo":)" + n(campo) + R"(,"valor":"A-1"})", w.owner);
  REQUIRE_MESSAGE(v->status == 201, v->body);
  auto changed = put("/geometrias/" + id, R"({"wkt":")" + std::string(kMoved) + R"(","versao":)" +
                                              n(int64_t(g->json()["versao"])) + "}", w.owner);
  REQUIRE_MESSAGE(changed->status == 200, changed->body);
  auto gone = del("/geometrias/" + id + "?versao=" + n(int64_t(changed->json()["versao"])), w.owner);
  REQUIRE_MESSAGE(gone->status == 204, gone->body);
  const std::string t1 = now_ms(*this);
  const std::string range = "&dataInicioLong=" + t0 + "&dataFinalLong=" + t1;

  auto a = get("/auditoria/geometrias?idProjeto=" + n(projeto) + range, w.owner);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto rows = a->json().get_array();
  REQUIRE(rows.size() == 3);
  // Newest first: the delete (nothing after), the change, the creation (nothing before).
  CHECK(std::string_view(rows.at(0)["operacao"]) == "excluir");
  CHECK(rows.at(0)["depois"].is_null());
  CHECK(std::string_view(rows.at(0)["antes"]["valores"]["inscricao"]) == "A-1");
  CHECK(std::string_view(rows.at(1)["operacao"]) == "alterar");
  CHECK(std::string_view(rows.at(1)["antes"]["geometria"]["type"]) == "Polygon");
  CHECK(double(rows.at(1)["antes"]["geometria"]["coordinates"].at(0).at(1).at(1)) == doctest::Approx(-26.99));
  CHECK(double(rows.at(1)["depois"]["geometria"]["coordinates"].at(0).at(1).at(1)) == doctest::Approx(-26.98));
  CHECK(std::string_view(rows.at(2)["operacao"]) == "criar");
  CHECK(rows.at(2)["antes"].is_null());
  CHECK(std::string_view(rows.at(2)["depois"]["geometria"]["type"]) == "Polygon");
  for (auto r : rows) {
    CHECK(int64_t(r["idUsuario"]) == w.owner.user_id);
    CHECK(std::string_view(r["nomeUsuario"]) ==
          platform_db("select nome from plataforma.usuarios where id = " + std::to_string(w.owner.user_id)));
    CHECK(int64_t(r["idProjeto"]) == projeto);
    CHECK(int64_t(r["idCamada"]) == camada);
    CHECK(std::to_string(int64_t(r["idGeometria"])) == id);
    CHECK(int64_t(r["emLong"]) >= std::stoll(t0));
    CHECK(int64_t(r["emLong"]) <= std::stoll(t1));
  }

  auto count = [&](const std::string& query, const Session& s) {
    auto r = get("/auditoria/geometrias?" + query + range, s);
    REQUIRE_MESSAGE(r->status == 200, query << " → " << r->body);
    return r->json().get_array().size();
  };
  CHECK(count("idCamada=" + n(camada), w.owner) == 3);
  CHECK(count("idProjeto=" + n(projeto) + "&idUsuario=" + n(w.owner.user_id), w.owner) == 3);
  CHECK(count("idProjeto=" + n(projeto) + "&idUsuario=" + n(w.owner.user_id + 1000), w.owner) == 0);
  auto one = get("/auditoria/geometrias?idProjeto=" + n(projeto) + "&limite=1" + range, w.owner);
  REQUIRE(one->json().get_array().size() == 1);
  CHECK(std::string_view(one->json().get_array().at(0)["operacao"]) == "excluir");
  auto before = get("/auditoria/geometrias?idProjeto=" + n(projeto) + "&dataInicioLong=" +
                        std::to_string(std::stoll(t0) - 86400000) + "&dataFinalLong=" + std::to_string(std::stoll(t0) - 1),
                    w.owner);
  CHECK(before->body == "[]");

  // The tenant's administrators read the whole tenant without filters.
  Session chefe = admin("alfa", "chefe@alfa.gov.br");
  CHECK(count("", chefe) == 3);

  // Everyone else: an editor of the project is refused (403), a user without a share and
  // another tenant do not see the project (404), no filter is for tenant admins only.
  test::TestUser ed = stack->add_user("alfa", "editor@alfa.gov.br", {"*:rw"});
  Session editor = login(ed.email, ed.password);
  w.db("insert into projeto.projeto_usuarios (projeto_id, usuario_id, papel, concedido_por) values (" + n(projeto) +
       ", " + n(editor.user_id) + ", 'edicao', " + n(w.owner.user_id) + ") returning 1");
  refused(*get("/auditoria/geometrias?idProjeto=" + n(projeto) + range, editor), 403, "acesso_negado");
  refused(*get("/auditoria/geometrias?idCamada=" + n(camada) + range, editor), 403, "acesso_negado");
  test::TestUser st = stack->add_user("alfa", "estranho@alfa.gov.br", {"*:rw"});
  Session stranger = login(st.email, st.password);
  refused(*get("/auditoria/geometrias?idProjeto=" + n(projeto) + range, stranger), 404, "nao_encontrado");
  refused(*get("/auditoria/geometrias?idCamada=" + n(camada) + range, stranger), 404, "nao_encontrado");
  refused(*get("/auditoria/geometrias?idProjeto=" + n(projeto) + range, admin("beta", "chefe@beta.gov.br")), 404,
          "nao_encontrado");
  refused(*get("/auditoria/geometrias?dataInicioLong=0&dataFinalLong=1", w.owner), 403, "acesso_negado");
  refused(*request("GET", "/auditoria/geometrias?idProjeto=" + n(projeto) + range, {}), 401, "nao_autenticado");
}

TEST_CASE_FIXTURE(PlatformFixture, "the geometry audit refuses bad ranges, limits and ids") {
  Session chefe = admin("alfa", "chefe@alfa.gov.br");
  auto bad = [&](const std::string& query, const std::string& codigo, const std::string& words) {
    CAPTURE(query);
    refused(*get("/auditoria/geometrias?" + query, chefe), 400, codigo, words);
  };
  bad("dataFinalLong=1", "campo_obrigatorio", "dataInicioLong");
  bad("dataInicioLong=1", "campo_obrigatorio", "dataFinalLong");
  bad("dataInicioLong=10&dataFinalLong=5", "parametro_invalido", "dataFinalLong");
  // 366 days are 31622400000 ms; one more is too wide.
  CHECK(get("/auditoria/geometrias?dataInicioLong=0&dataFinalLong=31622400000", chefe)->status == 200);
  bad("dataInicioLong=0&dataFinalLong=31622400001", "parametro_invalido", "366 dias");
  bad("dataInicioLong=-5&dataFinalLong=5", "parametro_invalido", "dataInicioLong");
  bad("dataInicioLong=0&dataFinalLong=5&limite=0", "parametro_invalido", "limite");
  bad("dataInicioLong=0&dataFinalLong=5&limite=1001", "parametro_invalido", "limite");
  bad("dataInicioLong=0&dataFinalLong=5&idProjeto=1;drop%20table%20projeto.projetos", "parametro_invalido",
      "idProjeto");
  bad("dataInicioLong=0&dataFinalLong=5&idCamada=1%20or%201=1", "parametro_invalido", "idCamada");
  bad("dataInicioLong=0&dataFinalLong=5&idUsuario=x", "parametro_invalido", "idUsuario");
  refused(*get("/auditoria/geometrias?dataInicioLong=0&dataFinalLong=5&idProjeto=424242", chefe), 404,
          "nao_encontrado");
}
