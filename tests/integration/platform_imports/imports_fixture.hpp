// The imports suite's fixture: the platform, a project of tenant alfa with its cast
// (owner, reader with a leitura share, stranger without one, a user of beta), a scratch
// directory where the tests make real files with GDAL's own tools (ogr2ogr), and helpers
// that upload a file, wait for its job (a bounded number of polls, no timing) and read it.
#pragma once

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "integration/platform/fixture.hpp"

namespace cadastre::test {

namespace fs = std::filesystem;

/// What a finished job says.
struct JobView {
  std::string estado, mensagem, json;
  std::int64_t lidas = 0, importadas = 0, reparadas = 0, recusadas = 0, camada = 0, erros = 0;
  std::vector<std::int64_t> camadas;
};

struct ImportCast {
  Session owner, reader, stranger, beta;
  std::int64_t projeto = 0;
};

class ImportsFixture : public PlatformFixture {
 public:
  ImportsFixture() : dir(fs::temp_directory_path() / ("cadastre-imports-" + std::to_string(::getpid()))) {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~ImportsFixture() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }

  fs::path dir;

  std::string db(const std::string& sql, const std::string& slug = "alfa") const {
    return query_value(stack->tenant_dsn(slug), sql);
  }
  static std::string n(std::int64_t v) { return std::to_string(v); }
  static std::string enc(const std::string& v) { return http::percent_encode(v); }

  /// Runs a shell command in the scratch directory (GDAL's tools, zip); it must succeed.
  void sh(const std::string& cmd) const {
    std::string full = "cd '" + dir.string() + "' && " + cmd + " >/dev/null 2>&1";
    REQUIRE_MESSAGE(std::system(full.c_str()) == 0, cmd);
  }
  /// A shell command's standard output.
  std::string out(const std::string& cmd) const {
    std::string full = "cd '" + dir.string() + "' && " + cmd + " 2>/dev/null";
    std::string text;
    if (FILE* p = ::popen(full.c_str(), "r")) {
      char buf[4096];
      std::size_t k;
      while ((k = std::fread(buf, 1, sizeof buf, p)) > 0) text.append(buf, k);
      ::pclose(p);
    }
    return text;
  }
  void write(const std::string& name, const std::string& bytes) const {
    std::ofstream o(dir / name, std::ios::binary);
    o << bytes;
  }
  std::string read(const std::string& name) const {
    std::ifstream in(dir / name, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  /// `geojson` made by ogr2ogr into the zipped shapefile p.zip (.shp, .shx, .dbf, .prj,
  /// .cpg) in the scratch directory: its bytes.
  std::string shapefile_zip(const std::string& geojson) const {
    write("p.geojson", geojson);
    sh("ogr2ogr -f 'ESRI Shapefile' p.shp p.geojson");
    sh("zip -j p.zip p.shp p.shx p.dbf p.prj p.cpg");
    return read("p.zip");
  }

  Session signed_in(const std::string& email) const {
    return login(stack->add_user("alfa", email, {"*:rw"}, false).email, "senha-alfa");
  }
  ImportCast cast() {
    ImportCast c;
    c.owner = signed_in("dono@alfa.gov.br");
    c.reader = signed_in("leitor@alfa.gov.br");
    c.stranger = signed_in("estranho@alfa.gov.br");
    c.beta = user("beta");
    auto p = post("/projetos", R"({"nome":"Importações"})", c.owner);
    REQUIRE_MESSAGE(p->status == 201, p->body);
    c.projeto = int64_t(p->json()["id"]);
    db("insert into projeto.projeto_usuarios (projeto_id, usuario_id, papel, concedido_por) values (" + n(c.projeto) +
       ", " + n(c.reader.user_id) + ", 'leitura', " + n(c.owner.user_id) + ")");
    return c;
  }

  /// A multipart POST with part `file` (to the instance on `port`; `app` when 0).
  std::unique_ptr<Answer> upload(const std::string& path, const std::string& bytes, const std::string& filename,
                                 const httplib::Headers& h, int port = 0) const {
    httplib::MultipartFormDataItems items = {{"file", bytes, filename, "application/octet-stream"}};
    auto cl = client(port);
    return answer(cl.Post(path, h, items), "POST " + path);
  }
  std::unique_ptr<Answer> upload(const std::string& path, const std::string& bytes, const std::string& filename,
                                 const Session& s) const {
    return upload(path, bytes, filename, headers(s));
  }
  /// An accepted upload: the job's id.
  std::int64_t submitted(const std::string& path, const std::string& bytes, const std::string& filename,
                         const Session& s) const {
    auto a = upload(path, bytes, filename, s);
    REQUIRE_MESSAGE(a->status == 202, path << " → " << a->body);
    CHECK(std::string_view(a->json()["estado"]) == "pendente");
    return int64_t(a->json()["idImportacao"]);
  }

  /// The job once finished (concluida or falhou), polled through GET /importar/pendentes.
  JobView finished(std::int64_t id, const Session& s) const {
    for (int poll = 0; poll < 3000; ++poll) {
      auto a = get("/importar/pendentes?pageSize=1000", s);
      REQUIRE_MESSAGE(a->status == 200, a->body);
      for (auto j : a->json()["content"].get_array()) {
        if (int64_t(j["idImportacao"]) != id) continue;
        std::string_view estado = j["estado"];
        if (estado != "concluida" && estado != "falhou") break;
        JobView v;
        v.json = simdjson::minify(j);
        v.estado = estado;
        if (j["mensagem"].is_string()) v.mensagem = std::string(std::string_view(j["mensagem"]));
        auto c = j["contagens"];
        v.lidas = int64_t(c["lidas"]), v.importadas = int64_t(c["importadas"]);
        v.reparadas = int64_t(c["reparadas"]), v.recusadas = int64_t(c["recusadas"]);
        if (j["idCamada"].is_int64()) v.camada = int64_t(j["idCamada"]);
        for (auto l : j["camadas"].get_array()) v.camadas.push_back(int64_t(l["id"]));
        v.erros = static_cast<std::int64_t>(j["erros"].get_array().size());
        return v;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    FAIL("a importação " << id << " não terminou");
    return {};
  }

  /// The path of an import route with its query.
  static std::string route(const std::string& what, const std::string& codigo, std::int64_t projeto,
                           const std::string& nome, const std::string& extra = "") {
    return "/importar/" + what + "?codigo=" + enc(codigo) + "&idProjeto=" + n(projeto) +
           (nome.empty() ? "" : "&nomeCamada=" + enc(nome)) + extra;
  }

  /// The id of layer `L`'s field `chave` (its values: column c_<id> of table camadas.l<L>).
  std::string field(const std::string& L, const std::string& chave) const {
    return db("select k.id from projeto.campos k join projeto.formularios f on f.id = k.formulario_id "
              "where f.camada_id = " + L + " and k.chave = '" + chave + "'");
  }

  /// Every value (in the layers' tables, camadas.l<id>) as a relation of rows geometria_id,
  /// campo_id, chave, valor (jsonb) and texto (its text).
  static constexpr const char* kValues =
      "(select g.id as geometria_id, v.campo_id, k.chave, v.valor, v.valor #>> '{}' as texto from projeto.geometrias g "
      "cross join lateral projeto.valores_de(g.id) v join projeto.campos k on k.id = v.campo_id)";

  /// Counts of what imports write, to show that a refused one wrote nothing.
  std::string footprint() const {
    return db("select (select count(*) from projeto.importacoes) || '/' || (select count(*) from projeto.camadas) || "
              "'/' || (select count(*) from projeto.campos) || '/' || (select count(*) from projeto.geometrias) || '/' || "
              "(select count(*) from " + std::string(kValues) + " v)");
  }
};

}  // namespace cadastre::test
