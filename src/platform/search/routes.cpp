// The search box over a project (/consulta-geral and its inscrição and street variants),
// thematic classes of a numeric field (/mapa-tematico), the attribute query of a layer
// (/pesquisa-caracteristicas) and the base maps (/basemap). Project and layer records go
// through the guard: the search needs leitura on the project and answers only from the
// layers the caller may read; the other two need leitura on the layer their body names.
#include "cadastre/json.hpp"
#include "platform/app.hpp"
#include "cadastre/palette.hpp"
#include "platform/schemas.hpp"
#include "cadastre/classify.hpp"
#include "platform/search/input.hpp"
#include "platform/search/store.hpp"
#include "service/bulkhead.hpp"

namespace cadastre::platform::search {
namespace {

using http::Request;
using http::Response;
using service::Scope;

constexpr const char* kTag = "Busca e mapas temáticos";

Response searcher(const Scope& s, Request& req, Fields fields) {
  std::string termo = parse_term(req);
  auto campos = parse_id_list(req, "idCampos");
  auto camadas = parse_id_list(req, "projetosCamadas");
  return Response::json(text_search(s, s.grant().id, termo, fields, campos, camadas));
}

Response everything(const Scope& s, Request& req) { return searcher(s, req, Fields::all); }
Response inscricoes(const Scope& s, Request& req) { return searcher(s, req, Fields::inscricao); }
Response logradouros(const Scope& s, Request& req) { return searcher(s, req, Fields::logradouro); }

std::string number(double d) {
  JsonWriter w;
  w.value(d);
  return std::move(w).str();
}

Response thematic(const Scope& s, Request& req) {
  ThematicOrder t = parse_thematic(req.body);
  Numbers n = numbers(*s.db, t.camada, t.campo);
  JsonWriter w;
  w.begin_object().key("idCamada").value(t.camada).key("idCampo").value(t.campo).key("chave").value(n.chave);
  w.key("metodo").value(t.metodo).key("paleta").value(t.paleta);
  w.key("total").value(static_cast<std::int64_t>(n.sorted.size()));
  w.key("semValor").begin_object().key("quantidade").value(n.sem_valor).key("cor").value(palette::kNoValue).end_object();
  w.key("quebras").begin_array();
  std::vector<double> b;
  if (!n.sorted.empty()) b = classify::breaks(t.metodo, n.sorted, t.classes);
  for (double x : b) w.value(x);
  w.end_array().key("classes").begin_array();
  if (!b.empty()) {
    auto counts = classify::counts(n.sorted, b);
    for (std::size_t i = 0; i < counts.size(); ++i) {
      w.begin_object().key("classe").value(static_cast<std::int64_t>(i + 1));
      w.key("minimo").value(b[i]).key("maximo").value(b[i + 1]);
      w.key("quantidade").value(static_cast<std::int64_t>(counts[i]));
      w.key("cor").value(palette::hex(palette::ordered(t.paleta, i, counts.size())));
      w.key("rotulo").value((i == 0 ? "" : "> ") + number(b[i]) + " a " + number(b[i + 1]));
      w.end_object();
    }
  }
  w.end_array().end_object();
  return Response::json(std::move(w).str());
}

Response feature_query(const Scope& s, Request& req) {
  FeatureQuery q = parse_feature_query(req.body);
  Page page = parse_page(req, "id");
  return Response::json(page_json(features(*s.db, q, page), page));
}

Response basemaps(const Scope& s, Request&) { return Response::json(base_maps(*s.db)); }

}  // namespace
}  // namespace cadastre::platform::search

namespace cadastre::platform {

void add_search_routes(App& app) {
  using namespace search;
  auto& srv = app.server();
  // The searches, thematic maps and attribute queries of a tenant take at most a quarter
  // of its pool (service/bulkhead.hpp): its cheap reads keep answering.
  service::Bulkhead* heavy = &app.heavy_reads();
  auto bounded = [heavy](Response (*fn)(const Scope&, Request&)) {
    return service::scoped([heavy, fn](const Scope& s, Request& r) {
      auto slot = heavy->enter(s.db);
      return fn(s, r);
    });
  };
  const std::vector<http::Param> search_params = {
      {.name = "idProjeto", .type = "integer", .required = true, .description = "o projeto"},
      {.name = "q", .required = true, .description = "o texto buscado (2 a 200 caracteres; sem distinção de acentos)"},
      {.name = "idCampos", .description = "só estes campos (ids separados por vírgula)"},
      {.name = "projetosCamadas", .description = "só estas camadas do projeto (ids separados por vírgula)"}};
  const std::vector<http::Param> narrow_params = {search_params[0], search_params[1]};
  const std::string hits = schemas::list_of("AchadoDeBusca");
  srv.add({.method = "GET", .pattern = "/consulta-geral", .auth = "sessao",
           .access = http::on("projeto", "idProjeto", "leitura"), .tag = kTag,
           .summary = "Busca nos textos das camadas do projeto que o usuário vê: exatos, depois prefixos, depois "
                      "trechos (no máximo 50)",
           .params = search_params, .answer_schema = hits, .handler = bounded(everything)});
  srv.add({.method = "GET", .pattern = "/consulta-geral/icad", .auth = "sessao",
           .access = http::on("projeto", "idProjeto", "leitura"), .tag = kTag,
           .summary = "A busca restrita aos campos de inscrição (chave com 'inscricao' ou 'icad')",
           .params = narrow_params, .answer_schema = hits, .handler = bounded(inscricoes)});
  srv.add({.method = "GET", .pattern = "/consulta-geral/logradouros", .auth = "sessao",
           .access = http::on("projeto", "idProjeto", "leitura"), .tag = kTag,
           .summary = "A busca restrita aos campos de logradouro (chave com 'logradouro', ou 'rua', 'endereco')",
           .params = narrow_params, .answer_schema = hits, .handler = bounded(logradouros)});
  srv.add({.method = "POST", .pattern = "/mapa-tematico", .auth = "sessao", .access = http::on("camada", "corpo.idCamada", "leitura"), .tag = kTag,
           .summary = "Classes de um campo numérico de uma camada (intervalos iguais, quantis ou quebras naturais de "
                      "Jenks), com contagens e cores",
           .body = {.description = R"({"idCamada", "idCampo", "metodo": "intervalos_iguais|quantis|jenks", )"
                                   R"("classes"?: 2..12 (5), "paleta"?: "viridis"})",
                    .max_bytes = 4096, .schema = schemas::ref("PedidoMapaTematico")},
           .answer_schema = schemas::ref("MapaTematico"), .handler = bounded(thematic)});
  std::vector<http::Param> page = page_params({"id"});
  srv.add({.method = "POST", .pattern = "/pesquisa-caracteristicas", .auth = "sessao", .access = http::on("camada", "corpo.idCamada", "leitura"), .tag = kTag,
           .summary = "As geometrias de uma camada cujos valores atendem às condições (todas ou alguma), paginadas",
           .params = page,
           .body = {.description = R"({"idCamada", "condicoes": [{"idCampo", "operador": )"
                                   R"("=|<>|<|<=|>|>=|contem|entre|vazio", "valor"}...] (1 a 20), "todas"?: true})",
                    .max_bytes = 65536, .schema = schemas::ref("PesquisaCaracteristicas")},
           .answer_schema = schemas::page_of("FeicaoComValores"), .handler = bounded(feature_query)});
  srv.add({.method = "GET", .pattern = "/basemap", .auth = "sessao", .access = http::members("os mapas de fundo do próprio município"), .tag = kTag,
           .summary = "Os mapas de fundo configurados do município (OpenStreetMap, satélite...)",
           .answer_schema = schemas::list_of("MapaBase"), .handler = service::scoped(basemaps)});
}

}  // namespace cadastre::platform
