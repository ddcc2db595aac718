// Imports of vector files and of the municipality's cadastre layers, as jobs (importar/*),
// their list and the DXF job's layers, and GeoJSON conversions (converter/geojson). See
// docs/platform-imports.md.
//
// Every import is a job (src/platform/jobs): the route checks the parameters, the caller's
// admin role on the project (the route's permission), and that the file is readable with a
// known CRS — a corrupt zip or a file without .prj nor srid is a 400 and nothing is
// written — then answers 202 {"idImportacao","estado","novo"}. The worker creates the
// layer(s), form, fields, geometries and values in one transaction: a failed job leaves
// nothing. `codigo` is the client's idempotency key: the same codigo again (same user and
// type) returns the first job, whatever the file.
#include "cadastre/json.hpp"
#include "platform/app.hpp"
#include "platform/imports/convert.hpp"
#include "platform/imports/features.hpp"
#include "platform/imports/input.hpp"
#include "platform/imports/pvg.hpp"
#include "platform/imports/source.hpp"
#include "platform/imports/store.hpp"
#include "platform/jobs/jobs.hpp"
#include "platform/jobs/parameters.hpp"
#include "platform/common/files.hpp"
#include "store/crypto.hpp"
#include "platform/licenses/store.hpp"
#include "platform/schemas.hpp"

namespace cadastre::platform::imports {
namespace {

using http::Request;
using http::Response;
using service::Scope;

constexpr const char* kTag = "Importação e conversão";

Response accepted(jobs::Runner& runner, const Scope& s, const jobs::Submitted& sub) {
  return Response::json(jobs::accepted_json(runner, s, sub), 202);
}

std::string layer_properties(std::int64_t job, const std::string& tipo, const std::string& arquivo,
                             const Source* src, const std::string& pvg) {
  JsonWriter w;
  w.begin_object().key("importacao").begin_object().key("id").value(job).key("tipo").value(tipo);
  if (!arquivo.empty()) w.key("arquivo").value(arquivo);
  if (src) w.key("crs").value(src->crs_name()).key("encoding").value(src->encoding_source());
  w.end_object();
  if (!pvg.empty()) w.key("pvg").raw(pvg);
  return std::move(w.end_object()).str();
}

// The jobs' side: what a handler needs to run an import on whichever instance claimed it.
// Copied into the handlers (never a pointer to the routes, which own the runner).
struct Loader {
  ImportLimits limits;
  store::Pool* platform;  // the licenses: the storage quota
  common::FileStore files;

  // The job of a file import, on whichever instance claimed it: the file read again from
  // the store, with the parameters the route checked.
  void run_file(Format format, jobs::Context& ctx) const {
    const jobs::Parameters par(ctx.parametros());
    Params p = params_of(par);
    Upload up{par.text("arquivo").value_or("arquivo"), {}};
    auto bytes = ctx.entrada() ? files.store().read(*ctx.entrada()) : std::nullopt;
    if (!bytes) throw Error(errc::not_found, "o arquivo enviado não está mais no armazenamento; envie de novo");
    up.bytes = std::move(*bytes);
    const std::string tipo = format_name(format);
    const std::string pvg = format == Format::pvg ? pvg_header(up.bytes) : std::string();
    std::shared_ptr<Source> src = Source::open(format, std::move(up), p, limits);
    LoadInfo info{p.projeto, ctx.user_id(), ctx.id(),
                  layer_properties(ctx.id(), tipo, par.text("arquivo").value_or(""), src.get(), pvg)};
    // The storage quota, again with what was read, as PostgreSQL will store it, before the
    // values are written: reserved until the write has committed.
    std::optional<licenses::StorageReservation> reservation;
    auto reserve = [&](std::int64_t stored) {
      reservation.emplace(
          licenses::reserve_storage(*platform, {ctx.db(), files, ctx.tenant_slug()}, ctx.tenant_id(), stored));
    };
    if (format != Format::dxf) {  // one layer: its geometries copied while the file is read
      stream_file(ctx.db(), info, tipo, p.nome_camada,
                  [&](const GeometrySink& sink) { return read_features(*src, p, ctx, limits.table, sink); },
                  reserve, ctx);
      return;
    }
    std::vector<Target> targets = read_features(*src, p, ctx, limits.table);
    reserve(stored_bytes(targets));
    load_file(ctx.db(), info, tipo, targets, ctx);
  }

  // The job an import leaves behind it: its layer's column indexes (store.hpp).
  static void run_indexes(jobs::Context& ctx) {
    const std::int64_t camada = jobs::Parameters(ctx.parametros()).required_integer("camada");
    index_columns(ctx.db(), camada, ctx);
  }

  void run_cadastre(const std::string& which, jobs::Context& ctx) const {
    Params p = params_of(jobs::Parameters(ctx.parametros()));
    const CadastreLayer& layer = cadastre_layer(which);
    LoadInfo info{p.projeto, ctx.user_id(), ctx.id(), layer_properties(ctx.id(), layer.tipo, "", nullptr, "")};
    import_cadastre(ctx.db(), info, layer, ctx, [&](std::int64_t bytes) {
      licenses::require_storage(*platform, {ctx.db(), files, ctx.tenant_slug()}, ctx.tenant_id(), bytes);
    });
  }
};

struct Imports {
  std::shared_ptr<jobs::Runner> runner;
  ImportLimits limits;
  store::Pool* platform;  // the licenses: the storage quota
  common::FileStore files;

  // Checks the file at once (400 naming why), stages it in the file store for the job
  // (jobs.hpp: any instance may run it) and submits the job.
  Response file(Format format, const Scope& s, Request& req) const {
    Params p = parse_params(req, true);
    Upload up = take_upload(req);
    const std::string arquivo = up.nome;
    const std::string bytes = up.bytes;  // Source::open takes the upload; the job gets a copy
    std::shared_ptr<Source> src = Source::open(format, std::move(up), p, limits);
    // The license's storage, before the job exists: at least what the file decodes to.
    licenses::require_storage(*platform, {*s.db, files, s.tenant.slug}, s.tenant.id,
                              static_cast<std::int64_t>(src->decoded_bytes()));
    const std::string entrada = s.tenant.slug + "/importacoes/entradas/" + cadastre::store::random_token() + ".bin";
    files.store().write(entrada, bytes);
    // The parameters as the job reports them, with what was learnt from the file.
    jobs::Job job{.tipo = format_name(format),
                  .handler = {},
                  .parametros = p.json(Params::Learnt{arquivo, src->crs_name(), src->encoding_source()}),
                  .codigo = p.codigo,
                  .projeto = p.projeto,
                  .entrada = entrada};
    return accepted(*runner, s, runner->submit(s, std::move(job)));
  }

  Response cadastre(const std::string& which, const Scope& s, Request& req) const {
    Params p = parse_params(req, false);
    // The cadastre's geometries are 2D (tenant migration 0001): there is no Z to keep.
    if (p.xdzs)
      throw Error(errc::invalid_argument, "xdzs: as camadas do cadastro são 2D (sem cota Z); envie xdzs=false ou omita",
                  "xdzs");
    const CadastreLayer& layer = cadastre_layer(which);
    // The license's storage, before the job exists, and again in the job before it writes.
    licenses::require_storage(*platform, {*s.db, files, s.tenant.slug}, s.tenant.id,
                              s.db->with([&](soci::session& ss) { return cadastre_bytes(ss, layer); }));
    jobs::Job job{.tipo = layer.tipo, .handler = {}, .parametros = p.json(), .codigo = p.codigo,
                  .projeto = p.projeto, .entrada = std::nullopt};
    return accepted(*runner, s, runner->submit(s, std::move(job)));
  }

  Response pending(const Scope& s, Request& req) const {
    Page page = parse_page(req, "id", true);
    // Every import; not the previews of images (files/thumbnail.hpp), also jobs.
    static const std::vector<std::string> kImports = {"shp", "kml", "dxf", "pvg", "icad_lotes", "icad_lotes_rurais",
                                                      "icad_edificacoes", "icad_logradouros", "ouv", "tiff"};
    return Response::json(page_json(runner->list(s, kImports, page), page));
  }

  Response hide(const Scope& s, Request& req) const {
    auto id = req.query_value("idImportacao");
    if (!id) throw Error(errc::missing_field, "informe idImportacao", "idImportacao");
    runner->hide(s, parse_id(*id, "idImportacao"));
    return Response::no_content();
  }

  // Cancels one of the listed jobs (the caller's; any of the tenant's for its administrator):
  // a pendente job ends cancelada at once, an executando one stops at its next step and
  // writes nothing. Answers the job as it is afterwards.
  Response cancel(const Scope& s, Request& req) const {
    auto id = req.query_value("idImportacao");
    if (!id) throw Error(errc::missing_field, "informe idImportacao", "idImportacao");
    const std::int64_t job = parse_id(*id, "idImportacao");
    runner->cancel(s, job);
    auto json = runner->find(s, job);
    if (!json) throw Error(errc::not_found, "importação " + std::to_string(job) + " não encontrada", "idImportacao");
    return Response::json(*json);
  }

  Response dxf_job(const Scope& s, Request& req) const {
    std::int64_t id = parse_id(req.param("id"), "id");
    auto json = runner->find(s, id, "dxf");  // one query: the caller's DXF job, or nothing
    if (!json) throw Error(errc::not_found, "importação de DXF " + std::to_string(id) + " não encontrada", "id");
    return Response::json(*json);
  }

  static Response convert(const Scope& s, Request& req) {
    std::string target = parse_target_type(req);
    Converted c = convert_geojson(req.body, target, s.tenant.nome.empty() ? s.tenant.slug : s.tenant.nome);
    Response r = Response::text(std::move(c.bytes), c.content_type);
    r.headers.set("Content-Disposition", "attachment; filename=\"" + c.file_name + "\"");
    return r;
  }
};

}  // namespace
}  // namespace cadastre::platform::imports

namespace cadastre::platform {

void add_import_routes(App& app) {
  using namespace imports;
  const DecodeLimits& d = app.options().decode;
  auto im = std::make_shared<const Imports>(
      Imports{jobs::runner(app), ImportLimits{.archive = d.archive, .max_kml = d.max_kml, .table = d.table},
              &app.platform(), common::FileStore(app.options().files_dir)});
  const Loader load{im->limits, im->platform, im->files};
  auto& srv = app.server();

  const http::Param codigo{.name = "codigo", .required = true,
                           .description = "chave de idempotência do cliente (1 a 200 caracteres): o mesmo codigo do "
                                          "mesmo usuário e tipo devolve a importação já criada"};
  const http::Param projeto{.name = "idProjeto", .type = "integer", .required = true,
                            .description = "o projeto que recebe a nova camada (papel admin)"};
  const http::Param nome{.name = "nomeCamada", .required = true, .description = "nome da nova camada (1 a 200 caracteres)"};
  const http::Param srid{.name = "srid", .type = "integer",
                         .description = "EPSG do arquivo quando ele não o diz (.prj ausente; DXF: obrigatório)"};
  const http::Param xdzs{.name = "xdzs", .type = "boolean",
                         .description = "true: guarda o Z de cada feição no campo 'cota' (as geometrias são 2D)",
                         .values = {"true", "false"}};
  const http::Param cadastre_xdzs{.name = "xdzs", .type = "boolean",
                                  .description = "só false: as camadas do cadastro são 2D, sem cota Z (true → 400)",
                                  .values = {"false"}};
  const http::Param encoding{.name = "encoding",
                             .description = "codificação dos atributos quando não há .cpg (padrão CP1252)"};
  const http::Param invalidas{.name = "invalidas",
                              .description = "geometrias inválidas: reparar (MakeValid, padrão) ou recusar",
                              .values = {"reparar", "recusar"}};
  const http::Body upload{.description = "multipart/form-data: file (o arquivo). Limite de " +
                                         std::to_string(kMaxUploadBytes) + " bytes e " +
                                         std::to_string(app.options().decode.table.max_features) +
                                         " feições; um zip se expande até " +
                                         limits::human_bytes(app.options().decode.archive.max_total) +
                                         " (veja docs/operations.md, Limites)",
                          .content_type = "multipart/form-data", .max_bytes = kMaxUploadBytes};
  const std::string accepted_schema = schemas::ref("ImportacaoAceita");

  struct FileRoute {
    const char* path;
    Format format;
    const char* summary;
    std::vector<http::Param> params;
  };
  const std::vector<FileRoute> files = {
      {"/importar/shp", Format::shp,
       "Importa um shapefile (zip com .shp, .shx, .dbf; .prj e .cpg opcionais) como nova camada (tarefa)",
       {codigo, nome, projeto, srid, xdzs, encoding, invalidas}},
      {"/importar/kml", Format::kml, "Importa um KML ou KMZ como nova camada (tarefa)",
       {codigo, nome, projeto, xdzs, invalidas}},
      {"/importar/dxf", Format::dxf,
       "Importa um DXF: uma camada por tipo de geometria (pontos com os textos, linhas, polígonos) (tarefa)",
       {codigo, nome, projeto, srid, xdzs, invalidas}},
      {"/importar/pvg", Format::pvg,
       "Importa uma planta de valores genéricos (perfil GeoJSON PVG) como nova camada (tarefa)",
       {codigo, nome, projeto, srid, xdzs, invalidas}},
  };
  im->runner->handle("indices", &Loader::run_indexes, false);
  for (const auto& f : files) {
    Format format = f.format;
    im->runner->handle(format_name(format), [load, format](jobs::Context& ctx) { load.run_file(format, ctx); });
    srv.add({.method = "POST", .pattern = f.path, .auth = "sessao", .access = http::on("projeto", "idProjeto", "admin"),
             .tag = kTag, .summary = f.summary, .params = f.params, .body = upload, .answer_status = 202,
             .answer_schema = accepted_schema,
             .handler = service::scoped([im, format](const Scope& s, Request& r) { return im->file(format, s, r); })});
  }
  for (const char* which : {"lotes", "lotes-rurais", "edificacoes", "logradouros"}) {
    std::string name = which;
    im->runner->handle(cadastre_layer(name).tipo, [load, name](jobs::Context& ctx) { load.run_cadastre(name, ctx); });
    srv.add({.method = "POST", .pattern = "/importar/icad/" + name, .auth = "sessao",
             .access = http::on("projeto", "idProjeto", "admin"), .tag = kTag,
             .summary = "Traz a camada '" + cadastre_layer(name).nome + "' do cadastro do município para o projeto (tarefa)",
             .params = {codigo, projeto, cadastre_xdzs}, .answer_status = 202, .answer_schema = accepted_schema,
             .handler = service::scoped([im, name](const Scope& s, Request& r) { return im->cadastre(name, s, r); })});
  }
  srv.add({.method = "GET", .pattern = "/importar/pendentes", .auth = "sessao", .access = http::members("as importações do próprio usuário (do administrador do município: todas)"), .tag = kTag,
           .summary = "As importações do usuário (não ocultas): estado, progresso, contagens, erros, camadas criadas",
           .params = page_params({"id", "criadoEm", "estado", "tipo"}), .answer_schema = schemas::page_of("Importacao"),
           .handler = service::scoped(im, &Imports::pending)});
  srv.add({.method = "PUT", .pattern = "/importar/pendentes/hide", .auth = "sessao", .access = http::members("uma importação do próprio usuário (do administrador do município: qualquer uma)"), .tag = kTag,
           .summary = "Oculta da lista uma importação terminada (concluída, que falhou ou cancelada)",
           .params = {{.name = "idImportacao", .type = "integer", .required = true, .description = "a importação"}},
           .answers = "", .answer_status = 204, .handler = service::scoped(im, &Imports::hide)});
  srv.add({.method = "PUT", .pattern = "/importar/pendentes/cancelar", .auth = "sessao", .access = http::members("uma importação do próprio usuário (do administrador do município: qualquer uma)"), .tag = kTag,
           .summary = "Cancela uma importação do usuário (o administrador do município: qualquer uma): pendente → "
                      "cancelada na hora; em execução → para no próximo passo sem gravar nada; terminada → 409",
           .params = {{.name = "idImportacao", .type = "integer", .required = true, .description = "a importação"}},
           .answer_schema = schemas::ref("Importacao"), .handler = service::scoped(im, &Imports::cancel)});
  srv.add({.method = "GET", .pattern = "/importacoes/dxf/{id}", .auth = "sessao", .access = http::members("uma importação do próprio usuário (do administrador do município: qualquer uma)"), .tag = kTag,
           .summary = "Uma importação de DXF do usuário, com as camadas criadas por tipo de geometria",
           .answer_schema = schemas::ref("Importacao"), .handler = service::scoped(im, &Imports::dxf_job)});
  srv.add({.method = "POST", .pattern = "/converter/geojson", .auth = "sessao", .access = http::members("uma conversão do corpo enviado; nada é lido nem gravado no município"), .tag = kTag,
           .summary = "Converte um GeoJSON (FeatureCollection) em shapefile (zip), KML, GeoPackage, DXF, CSV ou PVG",
           .params = {{.name = "targetType", .required = true, .description = "o formato de saída",
                       .values = {"shp", "kml", "gpkg", "dxf", "csv", "pvg"}}},
           .body = {.description = "um GeoJSON FeatureCollection (PVG: com codigo e valor_m2 em cada feição)",
                    .content_type = "application/json", .max_bytes = kMaxUploadBytes},
           .answers = "application/octet-stream", .handler = service::scoped(&Imports::convert)});
}

}  // namespace cadastre::platform
