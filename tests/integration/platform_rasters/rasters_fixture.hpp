// The rasters and WMS suite's fixture: the platform with a file store in a temporary
// directory, a known key for signed links, and an outbound allow-list that reaches one
// "outside" WMS server on 127.0.0.2 (listed, its /32 allowed). 127.0.0.1 stands for the
// platform's own network: listed as a host, so that what refuses it is the address rule.
//
// The fake WMS answers on /<name>?SERVICE=WMS&REQUEST=GetCapabilities with a 1.3.0
// document whose GetMap points back at /<name>, and GetMap by name: "ok" a PNG, "grande"
// a PNG over the size limit, "lento" after the time limit, "erro" a ServiceException,
// "dtd" capabilities with an entity declaration, "lixo" no XML at all, "v111" a WMS 1.1.1
// document (its GetMap answers a PNG).
//
// The cast around one project of tenant alfa: owner (created it), reader (leitura share),
// stranger (a user of alfa without a share), beta (a user of tenant beta), admin (alfa's
// administrator).
#pragma once

#include <cpl_conv.h>
#include <gdal.h>
#include <ogr_srs_api.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

#include "http/http.hpp"
#include "integration/outbound/destination.hpp"
#include "integration/platform/fixture.hpp"
#include "platform/files/signing.hpp"

namespace cadastre::test {

inline std::string raster_root() { return "/tmp/cadastre-rasters-files-" + std::to_string(::getpid()); }
inline const std::string kSecret = "segredo-dos-testes-de-raster";
constexpr std::size_t kWmsMaxBytes = 64 * 1024;
constexpr auto kWmsTimeout = std::chrono::milliseconds(1500);

inline std::string capabilities_xml(const std::string& getmap_url) {
  return R"(<?xml version="1.0" encoding="UTF-8"?>
<WMS_Capabilities version="1.3.0" xmlns="http://www.opengis.net/wms" xmlns:xlink="http://www.w3.org/1999/xlink">
  <Service><Name>WMS</Name><Title>Geoserviços de Alfa</Title></Service>
  <Capability>
    <Request>
      <GetCapabilities><Format>text/xml</Format></GetCapabilities>
      <GetMap>
        <Format>image/png</Format><Format>image/jpeg</Format>
        <DCPType><HTTP><Get><OnlineResource xlink:type="simple" xlink:href=")" +
         getmap_url + R"("/></Get></HTTP></DCPType>
      </GetMap>
    </Request>
    <Layer>
      <Title>Raiz</Title>
      <CRS>EPSG:4674</CRS><CRS>EPSG:4326</CRS>
      <EX_GeographicBoundingBox><westBoundLongitude>-48.5</westBoundLongitude><eastBoundLongitude>-47.5</eastBoundLongitude>
        <southBoundLatitude>-27.5</southBoundLatitude><northBoundLatitude>-26.5</northBoundLatitude></EX_GeographicBoundingBox>
      <Layer queryable="1"><Name>lotes</Name><Title>Lotes urbanos</Title><CRS>EPSG:31982</CRS>
        <EX_GeographicBoundingBox><westBoundLongitude>-48.1</westBoundLongitude><eastBoundLongitude>-47.9</eastBoundLongitude>
          <southBoundLatitude>-27.1</southBoundLatitude><northBoundLatitude>-26.9</northBoundLatitude></EX_GeographicBoundingBox>
      </Layer>
      <Layer><Name>ortofoto</Name><Title>Ortofoto 2020</Title></Layer>
    </Layer>
  </Capability>
</WMS_Capabilities>)";
}

/// The same service as WMS 1.1.1: SRS (several codes in one element), LatLonBoundingBox.
inline std::string capabilities_111(const std::string& getmap_url) {
  return R"(<?xml version="1.0" encoding="UTF-8"?>
<WMT_MS_Capabilities version="1.1.1">
  <Service><Name>OGC:WMS</Name><Title>Serviço antigo</Title></Service>
  <Capability>
    <Request><GetMap><Format>image/png</Format>
      <DCPType><HTTP><Get><OnlineResource xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href=")" +
         getmap_url + R"("/></Get></HTTP></DCPType></GetMap></Request>
    <Layer><Title>Raiz</Title><SRS>EPSG:4674 EPSG:4326</SRS>
      <Layer><Name>quadras</Name><Title>Quadras</Title>
        <LatLonBoundingBox minx="-48.2" miny="-27.2" maxx="-47.8" maxy="-26.8"/></Layer>
    </Layer>
  </Capability>
</WMT_MS_Capabilities>)";
}

inline const std::string kPng = std::string("\x89PNG\r\n\x1a\n", 8) + std::string(200, 'p');

/// The fake WMS on 127.0.0.2 and a server on 127.0.0.1 that must never be reached.
struct FakeWms {
  std::unique_ptr<Destination> outside, inside;
  std::mutex mutex;
  std::string last_getmap;  ///< the query of the last GetMap

  FakeWms() {
    inside = std::make_unique<Destination>([](httplib::Server& s) {
      s.Get(".*", [](const httplib::Request&, httplib::Response& res) { res.set_content("interno", "text/plain"); });
    });
    outside = std::make_unique<Destination>(
        [this](httplib::Server& s) {
          s.Get(R"(/(\w+))", [this](const httplib::Request& r, httplib::Response& res) {
            std::string name = r.matches[1];
            std::string request = r.get_param_value("REQUEST");
            if (request == "GetCapabilities") {
              if (name == "dtd")
                res.set_content("<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY a \"aaaa\">]><WMS_Capabilities "
                                "version=\"1.3.0\">&a;</WMS_Capabilities>",
                                "text/xml");
              else if (name == "v111")
                res.set_content(capabilities_111(outside->url("/" + name + "?map=quadras")), "application/vnd.ogc.wms_xml");
              else if (name == "lixo")
                res.set_content("isto não é XML <<<", "text/xml");
              else
                res.set_content(capabilities_xml(outside->url("/" + name)), "text/xml");
              return;
            }
            {
              std::lock_guard lock(mutex);
              last_getmap = r.target.substr(r.target.find('?') + 1);
            }
            if (name == "grande") {
              res.set_content(std::string("\x89PNG\r\n\x1a\n", 8) + std::string(kWmsMaxBytes * 2, 'g'), "image/png");
            } else if (name == "lento") {
              std::this_thread::sleep_for(kWmsTimeout + std::chrono::milliseconds(1000));
              res.set_content(kPng, "image/png");
            } else if (name == "erro") {
              res.set_content("<ServiceExceptionReport><ServiceException>Camada desconhecida</ServiceException>"
                              "</ServiceExceptionReport>",
                              "application/vnd.ogc.se_xml");
            } else {
              res.set_content(kPng, "image/png");
            }
          });
        },
        "127.0.0.2");
  }
  std::string getmap_query() {
    std::lock_guard lock(mutex);
    return last_getmap;
  }
};

struct Cast {
  Session owner, reader, stranger, beta, admin;
};

class RastersFixture : public FakeWms, public PlatformFixture {
 public:
  RastersFixture()
      : FakeWms(), PlatformFixture([](platform::AppOptions& o) {
          o.files_dir = raster_root();
          o.files_secret = kSecret;
          o.outbound.allowed_hosts = {"127.0.0.2", "127.0.0.1", "localhost"};
          o.outbound.allowed_networks = {"127.0.0.2/32"};
          o.outbound.max_bytes = kWmsMaxBytes;
          o.outbound.connect_timeout = std::chrono::milliseconds(500);
          o.outbound.total_timeout = kWmsTimeout;
        }) {
    std::filesystem::create_directories(raster_root());
  }
  ~RastersFixture() {
    std::error_code ec;
    std::filesystem::remove_all(raster_root(), ec);
  }

  std::string db(const std::string& sql, const std::string& slug = "alfa") const {
    return query_value(stack->tenant_dsn(slug), sql);
  }
  std::int64_t id_of(const std::string& sql) const { return std::stoll(db(sql)); }

  Session signed_in(const std::string& email) const {
    return login(stack->add_user("alfa", email, {"*:rw"}).email, "senha-alfa");
  }
  Cast cast() {
    Cast c;
    c.owner = signed_in("dono@alfa.gov.br");
    c.reader = signed_in("leitor@alfa.gov.br");
    c.stranger = signed_in("estranho@alfa.gov.br");
    c.beta = user("beta");
    c.admin = admin("alfa", "chefe@alfa.gov.br");
    return c;
  }
  std::int64_t project(const Cast& c, const std::string& nome = "Relevo") {
    std::int64_t p = id_of("insert into projeto.projetos (nome, criado_por) values ('" + nome + "', " +
                           std::to_string(c.owner.user_id) + ") returning id");
    db("insert into projeto.projeto_usuarios (projeto_id, usuario_id, papel, concedido_por) values (" +
       std::to_string(p) + ", " + std::to_string(c.reader.user_id) + ", 'leitura', " + std::to_string(c.owner.user_id) +
       ")");
    return p;
  }

  /// A request with a raw body of `type` (PUT /importar/tiff/envio takes the GeoTIFF so).
  std::unique_ptr<Answer> raw(const std::string& method, const std::string& path, const httplib::Headers& h,
                              const std::string& body, const std::string& type) const {
    return request(method, path, h, body, type);
  }
  /// POST of a multipart body with the part `file`.
  std::unique_ptr<Answer> upload(const std::string& path, const std::string& bytes, const Session* s,
                                 const std::string& part = "file") const {
    auto c = client();
    httplib::MultipartFormDataItems items = {{part, bytes, "relevo.tif", "image/tiff"}};
    httplib::Result r = c.Post(path, s ? headers(*s) : httplib::Headers{}, items);
    return answer(r, "POST " + path);
  }

  /// GET /importacoes-tiff/:id until the job has finished (a bounded wait, not a timing).
  std::unique_ptr<Answer> finished(std::int64_t job, const Session& s) {
    for (int i = 0; i < 600; ++i) {
      auto a = get("/importacoes-tiff/" + std::to_string(job), s);
      REQUIRE_MESSAGE(a->status == 200, a->body);
      std::string estado = a->text("estado");
      if (estado == "concluida" || estado == "falhou") return a;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    FAIL("a importação não terminou");
    return nullptr;
  }

  /// Refusals every record route shows: no session 401, beta and stranger 404, and (writes)
  /// the reader 403.
  void guarded(const Cast& c, const std::string& method, const std::string& path, const std::string& body,
               bool writes) {
    CAPTURE(method);
    CAPTURE(path);
    refused(*request(method, path, {}, body), 401, "nao_autenticado");
    refused(*request(method, path, headers(c.beta), body), 404, "nao_encontrado");
    refused(*request(method, path, headers(c.stranger), body), 404, "nao_encontrado");
    if (writes) refused(*request(method, path, headers(c.reader), body), 403, "acesso_negado");
  }
};

/// Gives SIRGAS 2000 / UTM 23S (EPSG:31983) to a dataset.
inline void set_utm23(GDALDatasetH ds) {
  OGRSpatialReferenceH srs = OSRNewSpatialReference(nullptr);
  OSRImportFromEPSG(srs, 31983);
  GDALSetSpatialRef(ds, srs);
  OSRDestroySpatialReference(srs);
}

/// The bytes of a GeoTIFF written to `path` in /vsimem, which goes away.
inline std::string take_vsimem(const std::string& path) {
  vsi_l_offset size = 0;
  GByte* bytes = VSIGetMemFileBuffer(path.c_str(), &size, TRUE);
  std::string out(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(size));
  CPLFree(bytes);
  return out;
}

inline std::string vsimem_path() {
  static std::atomic<int> n{0};
  return "/vsimem/teste-raster-" + std::to_string(++n) + ".tif";
}

/// A GeoTIFF of 4 columns × 3 rows in SIRGAS 2000 / UTM 23S (EPSG:31983), 100 m pixels from
/// (300000, 7400000) down and right: band 1 holds row*10 + col, band 2 twice that; the
/// cell (0, 0) is no-data (-9999) in both. `crs` false: no coordinate system. Returns the
/// file's bytes.
inline std::string make_geotiff(bool crs = true) {
  GDALAllRegister();
  const std::string path = vsimem_path();
  GDALDatasetH ds = GDALCreate(GDALGetDriverByName("GTiff"), path.c_str(), 4, 3, 2, GDT_Float32, nullptr);
  double gt[6] = {300000, 100, 0, 7400000, 0, -100};
  GDALSetGeoTransform(ds, gt);
  if (crs) set_utm23(ds);
  for (int b = 1; b <= 2; ++b) {
    float v[12];
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 4; ++c) v[r * 4 + c] = static_cast<float>((r * 10 + c) * b);
    v[0] = -9999;
    GDALRasterBandH band = GDALGetRasterBand(ds, b);
    GDALSetRasterNoDataValue(band, -9999);
    REQUIRE(GDALRasterIO(band, GF_Write, 0, 0, 4, 3, v, 4, 3, GDT_Float32, 0, 0) == CE_None);
  }
  GDALClose(ds);
  return take_vsimem(path);
}

/// A one-band Float32 GeoTIFF of cols × rows in SIRGAS 2000 / UTM 23S, `pixel`-metre cells
/// from (300000, 7400000) down and right, uncompressed; cell (c, r) holds value(c, r),
/// asked row by row.
inline std::string utm23_geotiff(int cols, int rows, double pixel, const std::function<float(int, int)>& value) {
  GDALAllRegister();
  const std::string path = vsimem_path();
  GDALDatasetH ds = GDALCreate(GDALGetDriverByName("GTiff"), path.c_str(), cols, rows, 1, GDT_Float32, nullptr);
  double gt[6] = {300000, pixel, 0, 7400000, 0, -pixel};
  GDALSetGeoTransform(ds, gt);
  set_utm23(ds);
  std::vector<float> line(static_cast<std::size_t>(cols));
  GDALRasterBandH band = GDALGetRasterBand(ds, 1);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) line[static_cast<std::size_t>(c)] = value(c, r);
    REQUIRE(GDALRasterIO(band, GF_Write, 0, r, cols, 1, line.data(), cols, 1, GDT_Float32, 0, 0) == CE_None);
  }
  GDALClose(ds);
  return take_vsimem(path);
}

/// A point of SIRGAS 2000 / UTM 23S as lon/lat (EPSG:4674).
inline std::pair<double, double> utm23_to_lonlat(double x, double y) {
  OGRSpatialReferenceH utm = OSRNewSpatialReference(nullptr), geo = OSRNewSpatialReference(nullptr);
  OSRImportFromEPSG(utm, 31983);
  OSRImportFromEPSG(geo, 4674);
  OSRSetAxisMappingStrategy(utm, OAMS_TRADITIONAL_GIS_ORDER);
  OSRSetAxisMappingStrategy(geo, OAMS_TRADITIONAL_GIS_ORDER);
  OGRCoordinateTransformationH ct = OCTNewCoordinateTransformation(utm, geo);
  REQUIRE(OCTTransform(ct, 1, &x, &y, nullptr));
  OCTDestroyCoordinateTransformation(ct);
  OSRDestroySpatialReference(utm);
  OSRDestroySpatialReference(geo);
  return {x, y};
}

/// The lon/lat (EPSG:4674) of the centre of cell (col, row) of make_geotiff().
inline std::pair<double, double> cell_center(int col, int row) {
  return utm23_to_lonlat(300000 + 100 * col + 50, 7400000 - 100 * row - 50);
}

/// What a command printed (stdout).
inline std::string run_command(const std::string& cmd) {
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p);
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  ::pclose(p);
  return out;
}

/// POST /importar/tiff of project `projeto` into a new layer named `nome`.
inline std::string import_path(std::int64_t projeto, const std::string& nome) {
  return "/importar/tiff?idProjeto=" + std::to_string(projeto) + "&nomeCamada=" + http::percent_encode(nome);
}

inline std::string number(double d) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.10f", d);
  return buf;
}

}  // namespace cadastre::test
