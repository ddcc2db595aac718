#include "server/layer_access.hpp"

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"

namespace cadastre::server {

LayerRef layer_for(App& app, const http::Request& req, std::string_view camada, bool write) {
  const Context& ctx = context(req);
  query::check_identifier(camada, "camada");
  LayerRef ref;
  ref.catalog = app.catalogs().get(ctx.tenant, *ctx.db);
  if (!ref.catalog->find(camada)) ref.catalog = app.catalogs().reload(ctx.tenant, *ctx.db);  // a new table?
  ref.layer = &ref.catalog->require(camada);
  auto perms = app.identity().permissions(ctx.user.user_id);
  if (!store::layer_allowed(perms, camada, write, ctx.user.admin)) {
    throw Error(errc::forbidden, std::string("sem permissão de ") + (write ? "escrita" : "leitura") + " na camada " +
                                     std::string(camada));
  }
  return ref;
}

std::string record_id(const store::Layer& layer, const std::string& text) {
  if (layer.primary_key.empty())
    throw Error(errc::invalid_argument, "a camada " + layer.name + " não tem chave primária simples", "id");
  const store::Column& pk = *layer.column(layer.primary_key);
  if (text.empty() || text.size() > 200) throw Error(errc::invalid_argument, "id inválido", "id");
  if (pk.base_type == "int2" || pk.base_type == "int4" || pk.base_type == "int8") {
    // Parsed here so "1 or 1=1" or "abc" is a clear 400, not a database error.
    query::parse_integer(text, "id", 1, pk.base_type == "int8" ? INT64_MAX : pk.base_type == "int4" ? INT32_MAX : 32767);
  }
  return text;
}

}  // namespace cadastre::server
