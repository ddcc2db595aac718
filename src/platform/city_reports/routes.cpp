// Municipal reports (/reports/<cidade>/...): PDFs of a municipality's own cadastre, in the
// same tenant database. Like /zonas/<cidade> (src/platform/geography/routes.cpp) they
// answer only for the cities AppOptions::city_routes names and only to a caller of that
// city's own tenant; anything else is 404, as an unknown path.
//
//   POST /reports/<cidade>/avaliacao  the valuation report of a property (IPTU with land and
//                                     constructions) with its memória de cálculo
//   POST /reports/<cidade>/previa     the preview sheet of a property (?idImovel) next to a
//                                     platform geometry (?idGeom, read permission): a map
//                                     picture of the lot and its neighbours, the geometry's
//                                     values and photos
#include <algorithm>
#include <chrono>
#include <memory>

#include "platform/app.hpp"
#include "platform/city_reports/documents.hpp"
#include "platform/city_reports/input.hpp"
#include "platform/city_reports/map.hpp"
#include "platform/city_reports/store.hpp"
#include "platform/city_reports/unit_value.hpp"
#include "platform/files/storage.hpp"
#include "platform/schemas.hpp"
#include "report/table.hpp"

namespace cadastre::platform::city_reports {
namespace {

using http::Request;
using http::Response;
using service::Scope;

constexpr const char* kTag = "Relatórios municipais";
constexpr int kMaxPhotos = 6;
constexpr int kMapWidth = 900, kMapHeight = 600;

struct Context {
  std::vector<std::string> cities;
  files::Storage storage;
  bool has_files = false;

  // The path's city must be configured and be the caller's own tenant.
  void check(const Scope& s, const Request& req) const {
    std::string cidade = parse_city(req);
    if (std::find(cities.begin(), cities.end(), cidade) == cities.end() || cidade != s.tenant.slug)
      throw Error(errc::not_found, "o município " + cidade + " não tem estas rotas para este usuário", "cidade");
  }
};

Response pdf(const report::Document& d, const std::string& name, std::int64_t id) {
  auto r = Response::text(report::pdf_document(d), "application/pdf");
  r.headers.set("Content-Disposition", report::content_disposition(name, id, ".pdf"));
  return r;
}

// The year building ages are counted to: the order's, else the profile's, else this year
// (as the portal values properties as of today).
std::optional<int> reference_year(std::optional<int> asked, const Profile& profile) {
  if (asked) return asked;
  if (profile.profile.reference_year) return profile.profile.reference_year;
  std::chrono::year_month_day today{std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now())};
  return static_cast<int>(today.year());
}

Response appraisal(const Context& c, const Scope& s, Request& req) {
  c.check(s, req);
  ValuationOrder order = parse_valuation(req.body);
  Property p = load_property(*s.db, order.imovel, order.inscricao, order.inscricao.empty() ? "idImovel" : "inscricao");
  Profile profile = load_profile(*s.db);
  auto year = reference_year(order.ano, profile);
  auto result = value(p, profile, year);
  return pdf(valuation_report(s.tenant.nome, p, profile, year, result), "avaliacao-" + p.inscricao_cartografica, p.id);
}

std::vector<PhotoFile> photo_files(const Context& c, const Scope& s, std::int64_t geometria) {
  std::vector<PhotoFile> out;
  if (!c.has_files) return out;
  for (const auto& p : photos(*s.db, geometria, kMaxPhotos)) {
    auto bytes = c.storage.read(s.tenant.slug, files::Folder{p.camada, p.projeto}, p.chave);
    if (!bytes) continue;  // a file missing from the store: the sheet goes without it
    PhotoFile f{p.nome, std::move(*bytes), p.tipo == "image/png"};
    report::Image probe{f.bytes, f.png ? report::Image::Format::png : report::Image::Format::jpeg, "", 1};
    // A photo libharu cannot embed stays as a line of text.
    if (!report::readable(probe)) f = PhotoFile{p.nome + " (formato de imagem que o PDF não incorpora)", {}, false};
    out.push_back(std::move(f));
  }
  return out;
}

Response preview(const Context& c, const Scope& s, Request& req) {
  c.check(s, req);
  std::int64_t imovel = parse_property_id(req);
  std::int64_t geometria = s.grant().id;
  Property p = load_property(*s.db, imovel, "", "idImovel");
  std::string map = map_png(map_shapes(*s.db, p.lote_id, geometria), kMapWidth, kMapHeight);
  auto doc = preview_sheet(s.tenant.nome, p, map, geometria, geometry_values(*s.db, geometria), photo_files(c, s, geometria));
  return pdf(doc, "previa-" + p.inscricao_cartografica, p.id);
}

}  // namespace
}  // namespace cadastre::platform::city_reports

namespace cadastre::platform {

void add_city_report_routes(App& app) {
  using namespace city_reports;
  auto& srv = app.server();
  const auto& o = app.options();
  auto c = std::make_shared<const Context>(Context{o.city_routes, files::Storage(o.files_dir), !o.files_dir.empty()});
  srv.add({.method = "POST", .pattern = "/reports/{cidade}/avaliacao", .auth = "sessao", .access = http::members("o cadastro do próprio município {cidade}, entre os municípios configurados"), .tag = kTag,
           .summary = "Laudo de avaliação (PDF) de um imóvel do cadastro do município: imóvel, edificações, VVT, VVE, "
                      "VVI e IPTU com a memória de cálculo, pelo perfil de avaliação ativo (municípios configurados)",
           .body = {.description = R"({"idImovel"} ou {"inscricao"} (inscrição cartográfica), "anoReferencia"?)",
                    .max_bytes = 4096,
                    .schema = schemas::ref("PedidoLaudo")},
           .answers = "application/pdf",
           .handler = service::scoped([c, heavy = &app.heavy_reads()](const Scope& s, Request& req) {
             auto slot = heavy->enter(s.db);  // a rendered PDF: the tenant's bulkhead of expensive reads
             return appraisal(*c, s, req);
           })});
  srv.add({.method = "POST", .pattern = "/reports/{cidade}/previa", .auth = "sessao",
           .access = http::on("geometria", "idGeom", "leitura"), .tag = kTag,
           .summary = "Ficha prévia (PDF) de um imóvel: dados do cadastro, mapa do lote e dos vizinhos, valores e "
                      "fotos da geometria do projeto (municípios configurados)",
           .params = {{.name = "idImovel", .type = "integer", .required = true, .description = "o imóvel (cadastro.imobiliario)"},
                      {.name = "idGeom", .type = "integer", .required = true, .description = "a geometria do projeto"}},
           .answers = "application/pdf",
           .handler = service::scoped([c, heavy = &app.heavy_reads()](const Scope& s, Request& req) {
             auto slot = heavy->enter(s.db);
             return preview(*c, s, req);
           })});
}

}  // namespace cadastre::platform
