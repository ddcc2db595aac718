// Geography and overlay analyses: the tenant's geographic references, the national IBGE
// tables (municipalities, census sectors: a session is enough, they are public data), CEPs,
// the overlay of a project geometry with a layer or with the zoning, and the routes of a
// municipality named in the path (/zonas/<cidade>, /observacoes/<cidade>,
// /consulta/<cidade>). Those answer only for the cities AppOptions::city_routes names, and
// only to a caller of that city's own tenant: anything else is 404, as an unknown path.
#include <algorithm>

#include "cadastre/query.hpp"
#include "platform/app.hpp"
#include "platform/geography/store.hpp"
#include "platform/guard/guard.hpp"
#include "platform/schemas.hpp"
#include "platform/search/input.hpp"

namespace cadastre::platform::geography {
namespace {

using http::Request;
using http::Response;
using service::Scope;

constexpr const char* kTag = "Geografia e análises";

std::optional<std::string> optional_text(const Request& req, std::string_view name, std::size_t max) {
  auto v = req.query_value(name);
  if (!v || v->empty()) return std::nullopt;
  if (v->size() > max)
    throw Error(errc::invalid_argument, std::string(name) + " longo demais (máx. " + std::to_string(max) + ")",
                std::string(name));
  return v;
}

Response reference_list(const Scope& s, Request& req) {
  Page page = parse_page(req, "nome");
  auto tipo = optional_text(req, "tipo", 20);
  return Response::json(page_json(references(*s.db, tipo, page), page));
}

Response reference_search(const Scope& s, Request& req) {
  return Response::json(find_references(*s.db, search::parse_term(req)));
}

Response ceps(const Scope& s, Request& req) {
  std::string q = search::parse_term(req);
  return Response::json(find_ceps(*s.db, s.tenant.nome, s.tenant.uf, q, optional_text(req, "cidade", 200)));
}

Response overlay_layer(const Scope& s, Request& req) {
  std::int64_t camada = query::parse_integer(req.query_value("idCamada").value_or(""), "idCamada", 1, INT64_MAX);
  guard::require(s, "camada", camada, "leitura", "idCamada");
  return Response::json(intersect(*s.db, s.grant().id, camada));
}

Response overlay_zones(const Scope& s, Request&) { return Response::json(intersect_zones(*s.db, s.grant().id)); }

// The city routes: the path's city must be configured and be the caller's own tenant.
struct Cities {
  std::vector<std::string> names;

  void check(const Scope& s, const Request& req) const {
    const std::string& cidade = req.param("cidade");
    bool slug = !cidade.empty() && cidade.size() <= 63 &&
                std::all_of(cidade.begin(), cidade.end(), [](char c) {
                  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
                });
    if (!slug) throw Error(errc::invalid_argument, "cidade deve ser o identificador de um município", "cidade");
    if (std::find(names.begin(), names.end(), cidade) == names.end() || cidade != s.tenant.slug)
      throw Error(errc::not_found, "o município " + cidade + " não tem estas rotas para este usuário", "cidade");
  }
};

std::string inscricao(const Request& req, bool required) {
  auto v = optional_text(req, "inscricao", 50);
  if (!v && required) throw Error(errc::missing_field, "informe inscricao", "inscricao");
  return v.value_or("");
}

}  // namespace
}  // namespace cadastre::platform::geography

namespace cadastre::platform {

void add_geography_routes(App& app) {
  using namespace geography;
  auto& srv = app.server();
  store::Pool* platform = &app.platform();
  auto cities = std::make_shared<const Cities>(Cities{app.options().city_routes});
  const http::Param q = {.name = "q", .required = true, .description = "o texto buscado (2 a 200 caracteres)"};

  std::vector<http::Param> list = page_params({"id", "nome"});
  list.push_back({.name = "tipo", .description = "só deste tipo", .values = {"bairro", "distrito", "zona", "ponto"}});
  srv.add({.method = "GET", .pattern = "/referencias-geograficas", .auth = "sessao", .access = http::members("as referências do próprio município"), .tag = kTag,
           .summary = "As referências geográficas do município (bairros, distritos, zonas, pontos), paginadas",
           .params = list, .answer_schema = schemas::page_of("ReferenciaGeografica"),
           .handler = service::scoped(reference_list)});
  srv.add({.method = "GET", .pattern = "/referencias-geograficas/consulta", .auth = "sessao", .access = http::members("as referências do próprio município"), .tag = kTag,
           .summary = "Busca referências geográficas pelo nome, sem distinção de acentos (no máximo 20)",
           .params = {q}, .answer_schema = schemas::list_of("ReferenciaGeografica"),
           .handler = service::scoped(reference_search)});
  srv.add({.method = "GET", .pattern = "/municipios/consulta", .auth = "sessao", .access = http::members("a tabela pública de municípios do IBGE"), .tag = kTag,
           .summary = "Municípios do IBGE pelo nome ou pelo código (no máximo 20)",
           .params = {{.name = "q", .required = true, .description = "nome (2 a 200 caracteres) ou início do código IBGE"}},
           .answer_schema = schemas::list_of("Municipio"),
           .handler = service::scoped([platform](const Scope&, Request& req) {
             return Response::json(find_municipalities(*platform, search::parse_term(req)));
           })});
  srv.add({.method = "GET", .pattern = "/municipios/setores/consulta", .auth = "sessao", .access = http::members("a tabela pública de setores censitários do IBGE"), .tag = kTag,
           .summary = "Setores censitários do IBGE pelo código, ou os de um município (código ou nome; no máximo 100)",
           .params = {{.name = "q", .required = true,
                       .description = "início do código do setor, código do município (7 dígitos) ou nome do município"}},
           .answer_schema = schemas::list_of("SetorCensitario"),
           .handler = service::scoped([platform](const Scope&, Request& req) {
             return Response::json(find_sectors(*platform, search::parse_term(req)));
           })});
  srv.add({.method = "GET", .pattern = "/cep", .auth = "sessao", .access = http::members("os CEPs do próprio município"), .tag = kTag,
           .summary = "CEPs dos logradouros do município e da tabela de CEPs carregada, por CEP ou nome (no máximo 50)",
           .params = {{.name = "q", .required = true, .description = "início do CEP (5 a 8 dígitos) ou nome do logradouro"},
                      {.name = "cidade", .description = "só desta cidade"}},
           .answer_schema = schemas::list_of("Cep"), .handler = service::scoped(ceps)});
  srv.add({.method = "GET", .pattern = "/analises/intersect", .auth = "sessao",
           .access = http::on("geometria", "idGeom", "leitura"), .tag = kTag,
           .summary = "As feições de uma camada que a geometria cruza, com as áreas de interseção (m²) e as proporções",
           .params = {{.name = "idGeom", .type = "integer", .required = true, .description = "a geometria"},
                      {.name = "idCamada", .type = "integer", .required = true, .description = "a camada cruzada"}},
           .answer_schema = schemas::ref("Intersecao"), .handler = service::scoped(overlay_layer)});
  srv.add({.method = "GET", .pattern = "/analises/intersect/zonas", .auth = "sessao",
           .access = http::on("geometria", "idGeom", "leitura"), .tag = kTag,
           .summary = "As zonas do zoneamento em que a geometria está, com as áreas (m²) e as proporções",
           .params = {{.name = "idGeom", .type = "integer", .required = true, .description = "a geometria"}},
           .answer_schema = schemas::ref("Intersecao"), .handler = service::scoped(overlay_zones)});

  srv.add({.method = "GET", .pattern = "/zonas/{cidade}", .auth = "sessao", .access = http::members("o cadastro do próprio município {cidade}, entre os municípios configurados"), .tag = kTag,
           .summary = "As zonas do zoneamento do município (rota própria dos municípios configurados)",
           .answer_schema = schemas::list_of("Zona"),
           .handler = service::scoped([cities](const Scope& s, Request& req) {
             cities->check(s, req);
             return Response::json(zones(*s.db));
           })});
  std::vector<http::Param> notes = page_params({"id"});
  notes.push_back({.name = "inscricao", .description = "só as deste imóvel"});
  srv.add({.method = "GET", .pattern = "/observacoes/{cidade}", .auth = "sessao", .access = http::members("o cadastro do próprio município {cidade}, entre os municípios configurados"), .tag = kTag,
           .summary = "As observações do município sobre imóveis, das mais novas, paginadas (municípios configurados)",
           .params = notes, .answer_schema = schemas::page_of("Observacao"),
           .handler = service::scoped([cities](const Scope& s, Request& req) {
             cities->check(s, req);
             std::string i = inscricao(req, false);
             Page page = parse_page(req, "id", true);
             return Response::json(
                 page_json(observations(*s.db, i.empty() ? std::nullopt : std::optional(i), page), page));
           })});
  srv.add({.method = "GET", .pattern = "/consulta/{cidade}", .auth = "sessao", .access = http::members("o cadastro do próprio município {cidade}, entre os municípios configurados"), .tag = kTag,
           .summary = "Consulta de um imóvel pela inscrição: lote, logradouro, zonas e observações (municípios "
                      "configurados)",
           .params = {{.name = "inscricao", .required = true, .description = "a inscrição imobiliária do lote"}},
           .answer_schema = schemas::ref("ConsultaImovel"),
           .handler = service::scoped([cities](const Scope& s, Request& req) {
             cities->check(s, req);
             return Response::json(property(*s.db, inscricao(req, true)));
           })});
}

}  // namespace cadastre::platform
