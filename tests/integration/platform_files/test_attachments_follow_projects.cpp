// A project's attachments (projeto.arquivos) under the project routes: deleting the project
// takes its own files (projetos/<id>/) and its layers' away with the rows; a copy carries
// the layers' own files but not the attachments, which are records of their own; a
// transfer refuses a project that has attachments rather than leave them behind.
#include "files_fixture.hpp"

using namespace cadastre;
using test::refused;
namespace fs = std::filesystem;

TEST_CASE_FIXTURE(test::FilesFixture, "attachments go with a deleted project, stay out of copies and stop a transfer") {
  auto c = cast();
  const fs::path tenant = fs::path(test::files_root()) / "alfa";
  auto on_layer = uploaded("/arquivos/" + n(c.camada) + "/files/upload?tipo=camada", test::image(8, 8), "a.png", c.editor);
  auto on_project = uploaded("/arquivos/projeto/" + n(c.projeto) + "/files/upload", test::image(8, 8), "b.png", c.editor);
  const fs::path layer_file = tenant / "camadas" / n(c.camada) / "arquivos" /
                              std::string(std::string_view(on_layer->json()["chave"]));
  const fs::path project_file = tenant / "projetos" / n(c.projeto) / "arquivos" /
                                std::string(std::string_view(on_project->json()["chave"]));
  REQUIRE(fs::exists(layer_file));
  REQUIRE(fs::exists(project_file));

  // A copy: new layers, none of the attachments (no rows for them, so no files either).
  auto copy = post("/projetos/copiar-projeto", R"({"idProjeto":)" + n(c.projeto) + R"(,"nome":"Cópia"})", c.owner);
  REQUIRE_MESSAGE(copy->status == 201, copy->body);
  std::int64_t copied = int64_t(copy->json()["id"]);
  std::string copied_layer = db("select min(id) from projeto.camadas where projeto_id = " + n(copied));
  CHECK_FALSE(fs::exists(tenant / "camadas" / copied_layer / "arquivos"));
  CHECK(db("select count(*) from projeto.arquivos where projeto_id = " + n(copied)) == "0");

  // A transfer: refused while attachments exist, nothing moved or changed.
  test::Session root = platform_admin();
  auto moved = get("/projetos/transferir?id=" + n(c.projeto) + "&tenant=beta&idUsuario=" +
                       std::to_string(stack->user("beta").id),
                   root);
  refused(*moved, 409, "conflito", "arquivo");
  CHECK(db("select count(*) from projeto.projetos where id = " + n(c.projeto)) == "1");
  CHECK(fs::exists(layer_file));
  CHECK(fs::exists(project_file));

  // The delete: rows and files together, the project's own folder included.
  REQUIRE(del("/projetos/" + n(c.projeto), c.owner)->status == 204);
  CHECK(db("select count(*) from projeto.arquivos where projeto_id = " + n(c.projeto)) == "0");
  CHECK_FALSE(fs::exists(layer_file));
  CHECK_FALSE(fs::exists(project_file));
  CHECK_FALSE(fs::exists(tenant / "projetos" / n(c.projeto)));
}
