// Map library (/mapoteca): the municipality's maps, plans and orthophotos (title,
// description, keywords, date, scale, footprint, file link) in mapoteca.item
// (db/migrations/tenant/0009_mapoteca.sql). Searches by bounding box and by keywords answer
// GeoJSON FeatureCollections with the paging members of the /geo lists and numberMatched;
// PUT changes the metadata and DELETE removes an item, each with its audit row (tabela
// "mapoteca.item") in the same transaction.
//
// Access: the library is governed as one layer named "mapoteca" in the user's permission
// rules (a rule for "mapoteca", else the user's "*" default): searches need its read
// permission, PUT and DELETE its write permission. Input is checked first (400), then the
// permission (403), then the item (404).
#include <soci/soci.h>

#include "cadastre/json.hpp"
#include "cadastre/query.hpp"
#include "server/app.hpp"
#include "server/mapoteca/store.hpp"
#include "service/geojson.hpp"
#include "store/pool.hpp"

namespace cadastre::server {
namespace {

using http::Request;
using http::Response;

constexpr const char* kPermissionLayer = "mapoteca";
constexpr std::size_t kMaxWords = 200;

void require_permission(App& app, const Request& req, bool write) {
  const Context& ctx = context(req);
  if (!store::layer_allowed(app.identity().permissions(ctx.user.user_id), kPermissionLayer, write,
                            ctx.user.admin)) {
    throw Error(errc::forbidden, std::string("sem permissão de ") +
                                     (write ? "escrita" : "leitura") +
                                     " na mapoteca (camada 'mapoteca')");
  }
}

Response collection(const Request& req, const mapoteca::Page& page, const query::Paging& paging) {
  Response res = feature_collection(req, page.features, page.returned, paging);
  res.body.pop_back();  // the closing brace of the collection object
  res.body += ",\"numberMatched\":" + std::to_string(page.total) + "}";
  return res;
}

Response search_box(App& app, Request& req) {
  auto box = geom::BBox::from_query([&](std::string_view n) { return req.query_value(n); });
  if (!box)
    throw Error(errc::missing_field,
                "informe a área de busca: minLongitude, minLatitude, maxLongitude e maxLatitude",
                "minLongitude");
  auto paging = query::normalize_paging(query_params(req));
  require_permission(app, req, false);
  auto page = context(req).db->with(
      [&](soci::session& s) { return mapoteca::search_box(s, *box, paging); });
  return collection(req, page, paging);
}

Response search_words(App& app, Request& req) {
  const std::string& words = req.param("palavras_chave");
  if (words.find_first_not_of(" \t") == std::string::npos || words.size() > kMaxWords)
    throw Error(errc::invalid_argument,
                "informe de 1 a " + std::to_string(kMaxWords) + " caracteres de palavras-chave",
                "palavras_chave");
  auto paging = query::normalize_paging(query_params(req));
  require_permission(app, req, false);
  auto page = context(req).db->with(
      [&](soci::session& s) { return mapoteca::search_words(s, words, paging); });
  return collection(req, page, paging);
}

std::int64_t item_id(const Request& req) {
  return query::parse_integer(req.param("id"), "id", 1, INT32_MAX);
}

Response update(App& app, Request& req) {
  const std::int64_t id = item_id(req);
  auto changes = mapoteca::parse_metadata(req.body);
  require_permission(app, req, true);
  const Context& ctx = context(req);
  std::string feature;
  ctx.db->run([&](soci::session& s) {
    store::in_transaction(s, [&] { feature = mapoteca::update_item(s, id, changes, ctx.user); });
  });
  return Response::text(std::move(feature), kGeoJson);
}

Response remove(App& app, Request& req) {
  const std::int64_t id = item_id(req);
  require_permission(app, req, true);
  const Context& ctx = context(req);
  std::string feature;
  ctx.db->run([&](soci::session& s) {
    store::in_transaction(s, [&] { feature = mapoteca::delete_item(s, id, ctx.user); });
  });
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
  const std::string read =
      " Requer permissão de leitura na camada 'mapoteca' (regra 'mapoteca' ou a padrão '*').";
  const std::string write =
      " Requer permissão de escrita na camada 'mapoteca' (regra 'mapoteca' ou a padrão '*'); "
      "grava um registro de auditoria (tabela mapoteca.item).";
  srv.add({.method = "GET",
           .pattern = "/mapoteca/{municipio}/busca/espacial/",
           .auth = "bearer",
           .tag = tag,
           .summary = "Itens cujo footprint intersecta a caixa (obrigatória; uma caixa de largura "
                      "zero é um ponto ou uma linha), "
                      "em ordem de id: FeatureCollection com numberReturned, numberMatched "
                      "(total), pagina, limite e links. "
                      "Outros parâmetros → 400." +
                      item + read,
           .params = paging_params(
               {{"minLongitude", "query", "number", true, "oeste (graus, SIRGAS 2000 / WGS 84)"},
                {"minLatitude", "query", "number", true, "sul"},
                {"maxLongitude", "query", "number", true, "leste"},
                {"maxLatitude", "query", "number", true, "norte"}}),
           .answers = kGeoJson,
           .handler = [&app](Request& r) { return search_box(app, r); }});
  srv.add(
      {.method = "GET",
       .pattern = "/mapoteca/{municipio}/busca/{palavras_chave}",
       .auth = "bearer",
       .tag = tag,
       .summary =
           "Busca textual em português, sem distinção de acentos e com radicais (\"mapas\" "
           "encontra \"Mapa\"): as "
           "palavras são combinadas com E; aceita \"frase entre aspas\", OR e -excluída. Ordem por "
           "relevância "
           "(properties.relevancia; título pesa mais que palavras-chave, que pesam mais que a "
           "descrição), depois id. "
           "FeatureCollection paginada com numberMatched. Só palavras vazias (de, a, ...) → 400." +
           item + read,
       .params = paging_params(),
       .answers = kGeoJson,
       .handler = [&app](Request& r) { return search_words(app, r); }});
  srv.add({.method = "PUT",
           .pattern = "/mapoteca/{municipio}/item/{id}/",
           .auth = "bearer",
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
                      write,
           .body = {.description = "{\"titulo\": \"...\", \"descricao\": \"...\", "
                                   "\"palavras_chave\": [\"...\"], \"data\": \"AAAA-MM-DD\", "
                                   "\"escala\": 2000, \"arquivo_url\": \"https://...\", "
                                   "\"footprint\": {GeoJSON Polygon}} (todos opcionais)"},
           .answers = kGeoJson,
           .handler = [&app](Request& r) { return update(app, r); }});
  srv.add({.method = "DELETE",
           .pattern = "/mapoteca/{municipio}/item/{id}/",
           .auth = "bearer",
           .tag = tag,
           .summary = "Remove o item {id}: responde {id, registros_removidos: 1, item: a Feature "
                      "removida}; inexistente → 404." +
                      write,
           .handler = [&app](Request& r) { return remove(app, r); }});
}

}  // namespace cadastre::server
