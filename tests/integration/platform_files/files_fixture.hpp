// The files suite's fixture: the platform with a file store in a temporary directory and a
// small upload limit (so an oversize upload is cheap), a cast around one project of tenant
// alfa (owner, editor with edicao, reader with leitura, stranger without a share, a user
// of beta), a layer and a geometry in it, and helpers that upload through multipart and
// make images with GDAL.
#pragma once

#include <cpl_vsi.h>
#include <gdal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "integration/platform/fixture.hpp"

namespace cadastre::test {

inline std::string files_root() { return "/tmp/cadastre-platform-files-" + std::to_string(::getpid()); }
inline constexpr std::size_t kLimit = 256u << 10;

/// An image of w×h pixels (RGB gradient) in a GDAL format ("PNG", "JPEG").
inline std::string image(int w, int h, const char* format = "PNG") {
  GDALAllRegister();
  GDALDatasetH mem = GDALCreate(GDALGetDriverByName("MEM"), "", w, h, 3, GDT_Byte, nullptr);
  std::string pixels(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), '\0');
  for (int b = 1; b <= 3; ++b) {
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) pixels[static_cast<std::size_t>(y * w + x)] = static_cast<char>((x * b + y) & 0xff);
    REQUIRE(GDALRasterIO(GDALGetRasterBand(mem, b), GF_Write, 0, 0, w, h, pixels.data(), w, h, GDT_Byte, 0, 0) ==
            CE_None);
  }
  std::string name = "/vsimem/teste-" + std::to_string(w) + "x" + std::to_string(h) + "." + format;
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

/// The width and height of an image (0×0 when GDAL cannot read it).
inline std::pair<int, int> size_of(const std::string& bytes) {
  std::string name = "/vsimem/lido-" + std::to_string(bytes.size());
  VSIFCloseL(VSIFileFromMemBuffer(name.c_str(), reinterpret_cast<GByte*>(const_cast<char*>(bytes.data())),
                                  bytes.size(), FALSE));
  GDALDatasetH ds = GDALOpen(name.c_str(), GA_ReadOnly);
  std::pair<int, int> out{0, 0};
  if (ds) {
    out = {GDALGetRasterXSize(ds), GDALGetRasterYSize(ds)};
    GDALClose(ds);
  }
  VSIUnlink(name.c_str());
  return out;
}

/// A Windows executable's first bytes ("MZ" header, NULs): what an .exe renamed .jpg holds.
inline std::string exe() { return std::string("MZ\x90\0\x03\0\0\0\x04\0\0\0\xff\xff\0\0", 16) + std::string(512, '\0'); }

inline std::string file_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Cast {
  Session owner, editor, reader, stranger, beta;
  std::int64_t projeto = 0, camada = 0, geometria = 0;
};

class FilesFixture : public PlatformFixture {
 public:
  FilesFixture()
      : PlatformFixture([](platform::AppOptions& o) {
          o.files_dir = files_root();
          o.files_max_bytes = kLimit;
          o.files_secret = "segredo-dos-testes";
        }) {
    std::filesystem::create_directories(files_root());
  }
  ~FilesFixture() {
    std::error_code ec;
    std::filesystem::remove_all(files_root(), ec);
  }

  std::string db(const std::string& sql, const std::string& slug = "alfa") const {
    return query_value(stack->tenant_dsn(slug), sql);
  }
  std::string platform_db(const std::string& sql) const { return query_value(stack->platform_dsn(), sql); }
  static std::string n(std::int64_t v) { return std::to_string(v); }

  Session signed_in(const std::string& email, bool admin = false) const {
    return login(stack->add_user("alfa", email, {"*:rw"}, admin).email, "senha-alfa");
  }

  /// The cast, with the owner's project shared with the editor and the reader, a layer
  /// (through POST /camadas) and a geometry in it.
  Cast cast() {
    Cast c;
    c.owner = signed_in("dono@alfa.gov.br");
    c.editor = signed_in("editor@alfa.gov.br");
    c.reader = signed_in("leitor@alfa.gov.br");
    c.stranger = signed_in("estranho@alfa.gov.br");
    c.beta = user("beta");
    auto p = post("/projetos", R"({"nome":"Cadastro"})", c.owner);
    REQUIRE_MESSAGE(p->status == 201, p->body);
    c.projeto = int64_t(p->json()["id"]);
    for (auto [who, papel] : {std::pair{&c.editor, "edicao"}, std::pair{&c.reader, "leitura"}})
      db("insert into projeto.projeto_usuarios (projeto_id, usuario_id, papel, concedido_por) values (" + n(c.projeto) +
         ", " + n(who->user_id) + ", '" + papel + "', " + n(c.owner.user_id) + ")");
    auto l = post("/camadas", R"({"idProjeto":)" + n(c.projeto) + R"(,"nome":"lotes","geometria":"poligono"})", c.owner);
    REQUIRE_MESSAGE(l->status == 201, l->body);
    c.camada = int64_t(l->json()["id"]);
    c.geometria = std::stoll(db("insert into projeto.geometrias (camada_id, geom) values (" + n(c.camada) +
                                ", st_geomfromtext('POLYGON((-48 -27,-48 -26.99,-47.99 -26.99,-48 -27))', 4674)) "
                                "returning id"));
    return c;
  }

  /// A multipart POST: part `file` (`bytes` named `filename`) and the text parts `fields`
  /// (to the instance listening on `port`, `app` when 0).
  std::unique_ptr<Answer> upload(const std::string& path, const std::string& bytes, const std::string& filename,
                                 const httplib::Headers& h,
                                 const std::vector<std::pair<std::string, std::string>>& fields = {},
                                 int port = 0) const {
    httplib::MultipartFormDataItems items = {{"file", bytes, filename, "application/octet-stream"}};
    for (const auto& [k, v] : fields) items.push_back({k, v, "", ""});
    auto cl = client(port);
    return answer(cl.Post(path, h, items), "POST " + path);
  }
  std::unique_ptr<Answer> upload(const std::string& path, const std::string& bytes, const std::string& filename,
                                 const Session& s, const std::vector<std::pair<std::string, std::string>>& fields = {}) const {
    return upload(path, bytes, filename, headers(s), fields);
  }
  /// An upload that must succeed: the record's JSON.
  std::unique_ptr<Answer> uploaded(const std::string& path, const std::string& bytes, const std::string& filename,
                                   const Session& s, const std::vector<std::pair<std::string, std::string>>& fields = {}) const {
    auto a = upload(path, bytes, filename, s, fields);
    REQUIRE_MESSAGE(a->status == 201, path << " → " << a->body);
    return a;
  }

  /// The refusals of a route on a record: no session 401, another tenant's user and a user
  /// without a share 404; when it writes (`writes`), a reader 403.
  void guarded(const Cast& c, const std::string& method, const std::string& path, bool writes,
               const std::string& body = "") {
    CAPTURE(method);
    CAPTURE(path);
    auto call = [&](const httplib::Headers& h) {
      if (method == "UPLOAD") return upload(path, image(8, 8), "a.png", h);
      return request(method, path, h, body);
    };
    refused(*call({}), 401, "nao_autenticado");
    refused(*call(headers(c.beta)), 404, "nao_encontrado");
    refused(*call(headers(c.stranger)), 404, "nao_encontrado");
    if (writes) refused(*call(headers(c.reader)), 403, "acesso_negado");
  }
};

}  // namespace cadastre::test
