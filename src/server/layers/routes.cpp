// Data and search (main router) and the read routes of /geo: lists with filters, bbox and
// paging, page counts, detail with relations, field search, most recent, address search,
// property units of a lot. Every answer is GeoJSON built by PostgreSQL in one statement
// (store.cpp).
#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "server/app.hpp"
#include "server/layers/input.hpp"
#include "server/layers/store.hpp"
#include "service/geojson.hpp"
#include "service/scope.hpp"

namespace cadastre::server::layers {
namespace {

using http::Param;
using http::Request;
using http::Response;
using service::Scope;

// search/{type}/{field}/{value}: the path holds its one filter and how it compares.
std::vector<Param> search_params() {
  auto params = with_paging_and_bbox();
  std::erase_if(params, [](const Param& p) { return p.name == "type" || p.type == "object"; });
  return params;
}

Response page_of(const Scope& s, const Request& req, const query::ListQuery& q) {
  auto fq = store::resolve(*s.layer(), q);
  auto page = list(*s.db, fq);
  return feature_collection(req, page.features, page.returned, fq.paging);
}

Response list_route(const Scope& s, Request& req) { return page_of(s, req, query::parse_list_query(query_params(req))); }

Response search(const Scope& s, Request& req) { return page_of(s, req, parse_search(req)); }

Response pages(const Scope& s, Request& req) {
  auto fq = store::resolve(*s.layer(), query::parse_list_query(query_params(req)));
  const long long total = count(*s.db, fq);
  JsonWriter w;
  w.begin_object().key("total").value(static_cast<std::int64_t>(total));
  w.key("paginas").value(static_cast<std::int64_t>((total + fq.paging.size - 1) / fq.paging.size));
  w.key("limite").value(static_cast<std::int64_t>(fq.paging.size)).end_object();
  return Response::json(std::move(w).str());
}

Response newest(const Scope& s, Request& req) {
  auto q = query::parse_list_query(query_params(req));
  const store::Layer& layer = *s.layer();
  if (q.sort.empty()) {
    if (layer.column("criado_em")) q.sort.push_back({"criado_em", true});
    if (!layer.primary_key.empty()) q.sort.push_back({layer.primary_key, true});
  }
  return page_of(s, req, q);
}

Response detail_route(const Scope& s, Request& req) {
  const store::Layer& layer = *s.layer();
  std::string id = service::record_id(layer, req.param("id"));
  // Related layers are read too: the caller needs read permission on them.
  for (const auto& related : detail_related_layers(layer)) s.layer(related, false);
  auto feature = layers::detail(*s.db, layer, id);
  if (!feature) throw Error(errc::not_found, "registro " + id + " não encontrado em " + layer.name);
  return Response::text(std::move(*feature), kGeoJson);
}

Response address_route(const Scope& s, Request& req) {
  for (const char* l : {"logradouro", "quadra", "bairro"}) s.layer(l, false);
  auto q = parse_address_query(req);
  auto page = layers::address_search(*s.db, q);
  return feature_collection(req, page.features, page.returned, q.paging);
}

Response units_route(const Scope& s, Request& req) {
  if (s.layer()->name != "lote" && s.layer()->name != "imobiliario")
    throw Error(errc::invalid_argument, "busca_imoveis está disponível para as camadas lote e imobiliario", "camada");
  auto units = s.layer("imobiliario", false);
  const std::string lot = parse_lot_id(req);
  auto q = query::parse_list_query(query_params(req));
  auto page = layers::units_of_lot(*s.db, *units, lot, q);
  return feature_collection(req, page.features, page.returned, q.paging);
}

}  // namespace
}  // namespace cadastre::server::layers

namespace cadastre::server {

void add_layer_routes(App& app) {
  using namespace layers;
  using service::scoped;
  auto& srv = app.server();
  const auto list_params = with_paging_and_bbox();
  const auto read = http::reads("{camada}");
  for (std::string prefix : {"", "/geo"}) {
    std::string tag = prefix.empty() ? "Dados e busca" : "Geoespacial avançado";
    srv.add({.method = "GET",
             .pattern = prefix + "/{municipio}/{camada}/",
             .auth = "bearer",
             .access = read,
             .tag = tag,
             .summary = "Lista registros da camada (GeoJSON), com filtros campo=valor, bbox e paginação",
             .params = list_params,
             .answers = kGeoJson,
             .handler = scoped(&list_route)});
    srv.add({.method = "GET",
             .pattern = prefix + "/{municipio}/{camada}/pages/",
             .auth = "bearer",
             .access = read,
             .tag = tag,
             .summary = "Total de registros e de páginas para os mesmos filtros e bbox",
             .params = list_params,
             .handler = scoped(&pages)});
    srv.add({.method = "GET",
             .pattern = prefix + "/{municipio}/{camada}/{id}/",
             .auth = "bearer",
             .access = read,
             .tag = tag,
             .summary = "Um registro; lote e imobiliario incluem unidades, edificações e proprietários",
             .answers = kGeoJson,
             .handler = scoped(&detail_route)});
    srv.add({.method = "GET",
             .pattern = prefix + "/{municipio}/{camada}/search/{type}/{field}/{value}/",
             .auth = "bearer",
             .access = read,
             .tag = tag,
             .summary = "Busca por um campo: type é exact, contains ou icontains",
             .params = search_params(),
             .answers = kGeoJson,
             .handler = scoped(&search)});
  }
  srv.add({.method = "GET",
           .pattern = "/{municipio}/{camada}/search2/params/",
           .auth = "bearer",
           .access = read,
           .tag = "Dados e busca",
           .summary = "Busca por vários campos da query string (type vale para todos)",
           .params = list_params,
           .answers = kGeoJson,
           .handler = scoped(&list_route)});
  srv.add({.method = "GET",
           .pattern = "/{municipio}/{camada}/novos/",
           .auth = "bearer",
           .access = read,
           .tag = "Dados e busca",
           .summary = "Registros mais recentes primeiro (criado_em, depois id)",
           .params = list_params,
           .answers = kGeoJson,
           .handler = scoped(&newest)});
  srv.add({.method = "GET",
           .pattern = "/{municipio}/logradouro/buscar_endereco/",
           .auth = "bearer",
           .access = http::reads("lote"),
           .tag = "Dados e busca",
           .summary = "Lotes por endereço: nome do logradouro, número e bairro (sem acento e sem caixa); "
                      "lê também logradouro, quadra e bairro",
           .params = paging_params({{"logradouro", "query", "string", true, "parte do nome da rua"},
                                    {"numero", "query", "integer", false, "número predial"},
                                    {"bairro", "query", "string", false, "parte do nome do bairro"}}),
           .answers = kGeoJson,
           .handler = scoped(&address_route)});
  srv.add({.method = "GET",
           .pattern = "/{municipio}/{camada}/busca_imoveis/{id_lote}/",
           .auth = "bearer",
           .access = read,
           .tag = "Dados e busca",
           .summary = "Unidades imobiliárias de um lote, com a geometria do lote (que também serve à bbox); "
                      "filtros campo=valor e sort sobre as colunas de imobiliario, como nas listas",
           .params = list_params,
           .answers = kGeoJson,
           .handler = scoped(&units_route)});
}

}  // namespace cadastre::server
