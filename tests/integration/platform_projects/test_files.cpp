// The layers' files (GeoTIFF, DXF, attachments) follow their project's rows: a copy or a new
// version gets copies of its own (deleting one layer never takes another's files), a
// transfer moves them into the target tenant's directory (and leaves nothing behind when
// it fails), a delete erases them.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "team.hpp"

using namespace cadastre;
using test::PlatformFixture;
using test::refused;
using test::Rows;
using test::str;
using test::Workspace;
namespace fs = std::filesystem;

namespace {

struct WithFiles : PlatformFixture {
  static std::string root() { return "/tmp/cadastre-projetos-arquivos-" + std::to_string(::getpid()); }
  WithFiles() : PlatformFixture([](platform::AppOptions& o) { o.files_dir = root(); }) {}
  ~WithFiles() { fs::remove_all(root()); }

  static void write(const std::string& relative, const std::string& content) {
    fs::path p = fs::path(root()) / relative;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << content;
  }
  static std::string read(const std::string& relative) {
    std::ifstream in(fs::path(root()) / relative);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  static bool has(const std::string& relative) { return fs::exists(fs::path(root()) / relative); }
  static bool empty(const std::string& relative) {
    fs::path p = fs::path(root()) / relative;
    return !fs::exists(p) || fs::is_empty(p);
  }
};

}  // namespace

TEST_CASE_FIXTURE(WithFiles, "layers' files follow their project through copies, versions, transfers and deletes") {
  test::Team t = test::team(*this);
  test::Session root_admin = platform_admin();
  Workspace w(*this, t.owner), wb(*this, t.beta, "beta");
  Rows r{w};
  auto made = post("/projetos", R"({"nome":"Cadastro","tipo":"cadastro_imobiliario"})", t.owner);
  REQUIRE(made->status == 201);
  std::int64_t p = int64_t(made->json()["id"]);
  std::int64_t tiff = r.layer(p, "orto", ", tipo", ", 'tiff'");
  std::int64_t dxf = r.layer(p, "planta", ", tipo", ", 'dxf'");
  const std::string orto = "camadas/" + str(tiff) + "/orto.tif";
  w.db("update projeto.camadas set arquivo = '" + orto + "' where id = " + str(tiff));
  w.db("update projeto.camadas set arquivo = 'importacoes/7/planta.dxf' where id = " + str(dxf));
  write("alfa/" + orto, "TIFF-A");
  write("alfa/camadas/" + str(tiff) + "/legenda.png", "PNG");
  write("alfa/importacoes/7/planta.dxf", "DXF");
  auto layer_of = [&](const Workspace& ws, std::int64_t project, const std::string& nome) {
    return ws.db("select id || ' ' || coalesce(arquivo, '-') from projeto.camadas where nome = '" + nome +
                 "' and projeto_id = " + str(project));
  };

  // A copy: files of its own, under its layers' ids.
  auto copy = post("/projetos/copiar-projeto", R"({"idProjeto":)" + str(p) + R"(,"nome":"Cópia"})", t.owner);
  REQUIRE_MESSAGE(copy->status == 201, copy->body);
  std::int64_t n = int64_t(copy->json()["id"]);
  std::string c_tiff = w.db("select id from projeto.camadas where nome = 'orto' and projeto_id = " + str(n));
  std::string c_dxf = w.db("select id from projeto.camadas where nome = 'planta' and projeto_id = " + str(n));
  CHECK(layer_of(w, n, "orto") == c_tiff + " camadas/" + c_tiff + "/orto.tif");
  CHECK(layer_of(w, n, "planta") == c_dxf + " camadas/" + c_dxf + "/planta.dxf");
  CHECK(read("alfa/camadas/" + c_tiff + "/orto.tif") == "TIFF-A");
  CHECK(read("alfa/camadas/" + c_tiff + "/legenda.png") == "PNG");
  CHECK(read("alfa/camadas/" + c_dxf + "/planta.dxf") == "DXF");
  // Deleting the copy takes only its files.
  REQUIRE(del("/projetos/" + str(n), t.owner)->status == 204);
  CHECK(!has("alfa/camadas/" + c_tiff));
  CHECK(!has("alfa/camadas/" + c_dxf));
  CHECK(read("alfa/" + orto) == "TIFF-A");
  CHECK(read("alfa/importacoes/7/planta.dxf") == "DXF");

  // A new version: the same.
  auto v2 = post("/projetos/cadastro-imobiliario/nova-versao", R"({"idProjeto":)" + str(p) + "}", t.owner);
  REQUIRE_MESSAGE(v2->status == 201, v2->body);
  std::int64_t v = int64_t(v2->json()["id"]);
  std::string v_tiff = w.db("select id from projeto.camadas where nome = 'orto' and projeto_id = " + str(v));
  CHECK(read("alfa/camadas/" + v_tiff + "/orto.tif") == "TIFF-A");

  // A transfer that fails after the files were copied (at the target's audit row) leaves
  // none in the target; one that succeeds moves them.
  wb.db("create function projeto.recusa() returns trigger language plpgsql as $$ begin "
        "raise exception 'o destino recusa'; end $$; "
        "create trigger recusa before insert on projeto.eventos for each row "
        "when (new.operacao = 'transferir_entrada') execute function projeto.recusa()");
  const std::string q = "/projetos/transferir?id=" + str(v) + "&tenant=beta&idUsuario=" + str(stack->user("beta").id);
  refused(*get(q, root_admin), 500, "erro_interno");
  CHECK(empty("beta/camadas"));
  CHECK(read("alfa/camadas/" + v_tiff + "/orto.tif") == "TIFF-A");
  wb.db("drop trigger recusa on projeto.eventos");
  auto moved = get(q, root_admin);
  REQUIRE_MESSAGE(moved->status == 200, moved->body);
  std::int64_t there = int64_t(moved->json()["destino"]["idProjeto"]);
  std::string b_tiff = wb.db("select id from projeto.camadas where nome = 'orto' and projeto_id = " + str(there));
  std::string b_dxf = wb.db("select id from projeto.camadas where nome = 'planta' and projeto_id = " + str(there));
  CHECK(layer_of(wb, there, "orto") == b_tiff + " camadas/" + b_tiff + "/orto.tif");
  CHECK(read("beta/camadas/" + b_tiff + "/orto.tif") == "TIFF-A");
  CHECK(read("beta/camadas/" + b_dxf + "/planta.dxf") == "DXF");
  CHECK(!has("alfa/camadas/" + v_tiff));
  // The first version keeps its own.
  CHECK(read("alfa/" + orto) == "TIFF-A");
  CHECK(read("alfa/importacoes/7/planta.dxf") == "DXF");
}
