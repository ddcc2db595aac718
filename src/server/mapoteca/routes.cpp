// Map library (/mapoteca): the municipality's maps, plans and orthophotos (title,
// description, keywords, date, scale, footprint, file link) in mapoteca.item
// (db/migrations/tenant/0009_mapoteca.sql). Searches by bounding box and by keywords answer
// GeoJSON FeatureCollections with the paging members of the /geo lists and numberMatched;
// PUT changes the metadata and DELETE removes an item, each with its audit row (tabela
// "mapoteca.item") in the same transaction.
//
// Access: the library is governed as one layer named "mapoteca" in the user's permission
// rules (a rule for "mapoteca", else the user's "*" default): searches need its read
// permission, PUT and DELETE its write permission (the route table says so).
#include "cadastre/json.hpp"
#include "server/app.hpp"
#include "server/mapoteca/input.hpp"
#include "server/mapoteca/store.hpp"
#include "service/geojson.hpp"

namespace cadastre::server {
namespace {

using http::Request;
using http::Response;
using service::Scope;

Response collection(const Request& req, const mapoteca::Page& page, const query::Paging& paging) {
  return feature_collection(req, page.features, page.returned, paging,
                            [&](JsonWriter& w) { w.key("numberMatched").value(static_cast<std::int64_t>(page.total)); });
}

Response search_box(const Scope& s, Request& req) {
  auto box = mapoteca::parse_box(req);
  auto paging = mapoteca::parse_paging(req);
  return collection(req, mapoteca::search_box(*s.db, box, paging), paging);
}

Response search_words(const Scope& s, Request& req) {
  auto words = mapoteca::parse_words(req);
  auto paging = mapoteca::parse_paging(req);
  return collection(req, mapoteca::search_words(*s.db, words, paging), paging);
}

Response update(const Scope& s, Request& req) {
  const std::int64_t id = mapoteca::parse_item_id(req);
  auto changes = mapoteca::parse_metadata(req.body);
  return Response::text(mapoteca::update_item(*s.db, id, changes, s.user), kGeoJson);
}

Response remove(const Scope& s, Request& req) {
  const std::int64_t id = mapoteca::parse_item_id(req);
  std::string feature = mapoteca::delete_item(*s.db, id, s.user);
  JsonWriter w;
  w.begin_object().key("id").value(id).key("registros_removidos").value(1);
  w.key("item").raw(feature).end_object();
  return Response::json(std::move(w).str());
}

}  // namespace

void add_mapoteca_routes(App& app) {
  auto& srv = app.server();
  const std::string tag = "Mapoteca";
  const std::string item =
      " Cada item é uma Feature: id, geometry (o footprint em lon/lat) e properties titulo, "
      "descricao, palavras_chave, data, escala (denominador), arquivo_url, criado_em, "
      "atualizado_em, criado_por.";
  const std::string audited = " Grava um registro de auditoria (tabela mapoteca.item).";
  srv.add({.method = "GET",
           .pattern = "/mapoteca/{municipio}/busca/espacial/",
           .auth = "bearer",
           .access = http::reads("mapoteca"),
           .tag = tag,
           .summary = "Itens cujo footprint intersecta a caixa (obrigatória; uma caixa de largura "
                      "zero é um ponto ou uma linha), "
                      "em ordem de id: FeatureCollection com numberReturned, numberMatched "
                      "(total), pagina, limite e links. "
                      "Outros parâmetros → 400." +
                      item,
           .params = paging_params(
               {{"minLongitude", "query", "number", true, "oeste (graus, SIRGAS 2000 / WGS 84)"},
                {"minLatitude", "query", "number", true, "sul"},
                {"maxLongitude", "query", "number", true, "leste"},
                {"maxLatitude", "query", "number", true, "norte"}}),
           .answers = kGeoJson,
           .handler = service::scoped(&search_box)});
  srv.add(
      {.method = "GET",
       .pattern = "/mapoteca/{municipio}/busca/{palavras_chave}",
       .auth = "bearer",
       .access = http::reads("mapoteca"),
       .tag = tag,
       .summary =
           "Busca textual em português, sem distinção de acentos e com radicais (\"mapas\" "
           "encontra \"Mapa\"): as "
           "palavras são combinadas com E; aceita \"frase entre aspas\", OR e -excluída. Ordem por "
           "relevância "
           "(properties.relevancia; título pesa mais que palavras-chave, que pesam mais que a "
           "descrição), depois id. "
           "FeatureCollection paginada com numberMatched. Só palavras vazias (de, a, ...) → 400." +
           item,
       .params = paging_params(),
       .answers = kGeoJson,
       .handler = service::scoped(&search_words)});
  srv.add({.method = "PUT",
           .pattern = "/mapoteca/{municipio}/item/{id}/",
           .auth = "bearer",
           .access = http::writes("mapoteca"),
           .tag = tag,
           .summary = "Altera os metadados enviados do item {id} (os demais ficam): titulo (texto "
                      "não vazio), descricao, "
                      "palavras_chave (lista de textos), data (AAAA-MM-DD), escala (inteiro > 0, o "
                      "denominador), arquivo_url "
                      "(http(s):// ou /caminho) — null apaga os opcionais — e footprint (GeoJSON "
                      "Polygon ou MultiPolygon válido, "
                      "lon/lat). Campo desconhecido ou valor inválido → 400; item inexistente → "
                      "404. Responde a Feature "
                      "alterada." +
                      audited,
           .body = {.description = "{\"titulo\": \"...\", \"descricao\": \"...\", "
                                   "\"palavras_chave\": [\"...\"], \"data\": \"AAAA-MM-DD\", "
                                   "\"escala\": 2000, \"arquivo_url\": \"https://...\", "
                                   "\"footprint\": {GeoJSON Polygon}} (todos opcionais)"},
           .answers = kGeoJson,
           .handler = service::scoped(&update)});
  srv.add({.method = "DELETE",
           .pattern = "/mapoteca/{municipio}/item/{id}/",
           .auth = "bearer",
           .access = http::writes("mapoteca"),
           .tag = tag,
           .summary = "Remove o item {id}: responde {id, registros_removidos: 1, item: a Feature "
                      "removida}; inexistente → 404." +
                      audited,
           .handler = service::scoped(&remove)});
}

}  // namespace cadastre::server
