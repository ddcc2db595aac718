// The reports suite's fixture: the platform with a file store in a temporary directory and
// the municipal routes enabled for tenant alfa (AppOptions::city_routes), a cast around one
// project of alfa (owner, editor with edicao, reader with leitura, stranger without a
// share, a user of beta) with a polygon layer, a form and fields; helpers that read report
// files back with the tools a person would use: pdftotext, pdftoppm (poppler-utils) and
// openpyxl (python3-openpyxl). Files and the rendered pages go to the output directory
// (CADASTRE_TEST_OUTPUT_DIR, else /tmp/cadastre-test-output/platform_reports).
#pragma once

#include <cpl_vsi.h>
#include <gdal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "integration/platform/fixture.hpp"

namespace cadastre::test {

inline std::string reports_files_root() { return "/tmp/cadastre-platform-reports-" + std::to_string(::getpid()); }

inline std::filesystem::path output_dir() {
  const char* env = std::getenv("CADASTRE_TEST_OUTPUT_DIR");
  std::filesystem::path dir = env && *env ? std::filesystem::path(env) / "platform_reports"
                                          : std::filesystem::path("/tmp/cadastre-test-output/platform_reports");
  std::filesystem::create_directories(dir);
  return dir;
}

/// Writes `bytes` to the output directory as `name`; the path.
inline std::string save(const std::string& name, const std::string& bytes) {
  auto path = output_dir() / name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path.string();
}

/// The standard output of a shell command (its arguments are paths we made).
inline std::string run(const std::string& command) {
  std::string out;
  FILE* p = ::popen(command.c_str(), "r");
  REQUIRE_MESSAGE(p, command);
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  CHECK_MESSAGE(::pclose(p) == 0, command);
  return out;
}

/// The text of a PDF as pdftotext reads it keeping the layout (so a label and its value
/// on one line stay together), every run of blanks made one space.
inline std::string pdf_text(const std::string& path) {
  std::string raw = run("pdftotext -layout -enc UTF-8 '" + path + "' -"), out;
  for (char c : raw) {
    bool blank = c == ' ' || c == '\n' || c == '\t' || c == '\f' || c == '\r';
    if (blank && (out.empty() || out.back() == ' ')) continue;
    out += blank ? ' ' : c;
  }
  return out;
}

/// The first page rendered at 50 dpi into the output directory; the PNG's path.
inline std::string first_page_png(const std::string& pdf_path) {
  std::string prefix = pdf_path.substr(0, pdf_path.size() - 4) + "-pagina";
  run("pdftoppm -png -r 50 -f 1 -l 1 '" + pdf_path + "' '" + prefix + "'");
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(prefix).parent_path()))
    if (e.path().string().rfind(prefix, 0) == 0 && e.path().extension() == ".png") return e.path().string();
  FAIL("pdftoppm wrote no page for " << pdf_path);
  return {};
}

/// The cells of every sheet of an .xlsx, as openpyxl reads them: "sheet|row|col|value" lines.
/// The system's python (Debian's python3-openpyxl), not whatever python3 comes first in PATH.
inline std::string xlsx_cells(const std::string& path) {
  return run("/usr/bin/python3 -c \"import openpyxl,sys\nwb=openpyxl.load_workbook(sys.argv[1])\nfor ws in wb.worksheets:\n"
             " for row in ws.iter_rows():\n  for c in row:\n   if c.value is not None: "
             "print(ws.title+'|'+str(c.row)+'|'+str(c.column)+'|'+str(c.value))\" '" + path + "'");
}

/// A number as the reports write it (Brazilian notation), computed here independently.
inline std::string br(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v < 0 ? -v : v);
  std::string s(buf), frac;
  if (auto dot = s.find('.'); dot != std::string::npos) frac = "," + s.substr(dot + 1), s.resize(dot);
  std::string grouped;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i && (s.size() - i) % 3 == 0) grouped += '.';
    grouped += s[i];
  }
  return (v < 0 && std::stod(buf) != 0 ? "-" : "") + grouped + frac;
}

/// An image of w×h pixels (RGB gradient) in a GDAL format ("PNG", "JPEG").
inline std::string picture(int w, int h, const char* format) {
  GDALAllRegister();
  GDALDatasetH mem = GDALCreate(GDALGetDriverByName("MEM"), "", w, h, 3, GDT_Byte, nullptr);
  std::string pixels(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), '\0');
  for (int b = 1; b <= 3; ++b) {
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) pixels[static_cast<std::size_t>(y * w + x)] = static_cast<char>((x * b + y) & 0xff);
    REQUIRE(GDALRasterIO(GDALGetRasterBand(mem, b), GF_Write, 0, 0, w, h, pixels.data(), w, h, GDT_Byte, 0, 0) == CE_None);
  }
  std::string name = std::string("/vsimem/relatorio-foto.") + format;
  GDALDatasetH out = GDALCreateCopy(GDALGetDriverByName(format), name.c_str(), mem, FALSE, nullptr, nullptr, nullptr);
  REQUIRE(out);
  GDALClose(out);
  GDALClose(mem);
  vsi_l_offset n = 0;
  GByte* data = VSIGetMemFileBuffer(name.c_str(), &n, TRUE);
  std::string bytes(reinterpret_cast<char*>(data), static_cast<std::size_t>(n));
  VSIFree(data);
  return bytes;
}

struct Cast {
  Session owner, editor, reader, stranger, beta;
  std::int64_t projeto = 0, camada = 0, formulario = 0;
};

class ReportsFixture : public PlatformFixture {
 public:
  ReportsFixture()
      : PlatformFixture([](platform::AppOptions& o) {
          o.files_dir = reports_files_root();
          o.city_routes = {"alfa"};
        }) {
    std::filesystem::create_directories(reports_files_root());
  }
  ~ReportsFixture() {
    std::error_code ec;
    std::filesystem::remove_all(reports_files_root(), ec);
  }

  std::string db(const std::string& sql, const std::string& slug = "alfa") const {
    return query_value(stack->tenant_dsn(slug), sql);
  }
  static std::string n(std::int64_t v) { return std::to_string(v); }

  Session signed_in(const std::string& email) const {
    TestUser u = stack->add_user("alfa", email, {"*:rw"});
    return login(u.email, u.password);
  }

  std::int64_t created(const std::string& path, const std::string& body, const Session& s) const {
    auto a = post(path, body, s);
    REQUIRE_MESSAGE(a->status == 201, path << " " << body << " → " << a->body);
    return int64_t(a->json()["id"]);
  }

  /// The cast: the owner's project shared with the editor (edicao) and the reader (leitura),
  /// a polygon layer "lotes" with a form "Ficha".
  Cast cast() {
    Cast c;
    c.owner = signed_in("dono@alfa.gov.br");
    c.editor = signed_in("editor@alfa.gov.br");
    c.reader = signed_in("leitor@alfa.gov.br");
    c.stranger = signed_in("estranho@alfa.gov.br");
    c.beta = user("beta");
    c.projeto = created("/projetos", R"({"nome":"Cadastro"})", c.owner);
    for (auto [who, papel] : {std::pair{&c.editor, "edicao"}, std::pair{&c.reader, "leitura"}})
      db("insert into projeto.projeto_usuarios (projeto_id, usuario_id, papel, concedido_por) values (" + n(c.projeto) +
         ", " + n(who->user_id) + ", '" + papel + "', " + n(c.owner.user_id) + ") returning projeto_id");
    c.camada = created("/camadas", R"({"idProjeto":)" + n(c.projeto) + R"(,"nome":"lotes","geometria":"poligono"})", c.owner);
    c.formulario = created("/formularios", R"({"idCamada":)" + n(c.camada) + R"(,"nome":"Ficha"})", c.owner);
    return c;
  }

  std::int64_t field(const Cast& c, const std::string& rest) const {
    return created("/campos", R"({"idFormulario":)" + n(c.formulario) + "," + rest.substr(1), c.owner);
  }
  /// A geometry (WKT, SIRGAS 2000) straight into the layer.
  std::int64_t geometry(std::int64_t camada, const std::string& wkt, const Cast& c) const {
    return std::stoll(db("insert into projeto.geometrias (camada_id, geom, criado_por) values (" + n(camada) +
                         ", st_geomfromtext('" + wkt + "', 4674), " + n(c.owner.user_id) + ") returning id"));
  }
  /// A value through POST /valores.
  void value(std::int64_t geometria, std::int64_t campo, const std::string& json, const Cast& c) const {
    created("/valores", R"({"idGeometria":)" + n(geometria) + R"(,"idCampo":)" + n(campo) + R"(,"valor":)" + json + "}",
            c.owner);
  }

  /// The refusals of a route: no session 401, a user of beta and a user without a share
  /// 404; when it writes, a reader 403.
  void guarded(const Cast& c, const std::string& method, const std::string& path, bool writes,
               const std::string& body = "") const {
    CAPTURE(method);
    CAPTURE(path);
    refused(*request(method, path, {}, body), 401, "nao_autenticado");
    refused(*request(method, path, headers(c.beta), body), 404, "nao_encontrado");
    refused(*request(method, path, headers(c.stranger), body), 404, "nao_encontrado");
    if (writes) refused(*request(method, path, headers(c.reader), body), 403, "acesso_negado");
  }
};

}  // namespace cadastre::test
