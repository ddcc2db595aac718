// External provider routes /outros/<label>/*: each label forwards to the public service of
// its configured URL with the caller's own parameters. Special cases of the spec:
//   land-registry/{tema}   the theme is required (422 without it) and is sent as ?tema=
//   map-export-city-a      caller must authenticate; the gateway adds its provider token
//   city-d-vector-tiles    z/x/y of the path fill {z} {x} {y} of the destination
#include <cstdint>
#include <cstdlib>

#include "cadastre/json.hpp"
#include "gateway/app.hpp"
#include "gateway/outgoing.hpp"
#include "gateway/response_rules.hpp"
#include "gateway/route_docs.hpp"

namespace cadastre::gateway {
namespace {

using Vars = std::map<std::string, std::string, std::less<>>;

const char* kTag = "Provedores externos";

const ProviderConfig* configured(const App& app, std::string_view label) {
  auto it = app.config().providers.find(label);
  return it == app.config().providers.end() ? nullptr : &it->second;
}

http::Response not_configured(std::string_view label) {
  return gateway_error(errc::unavailable,
                       "provedor " + std::string(label) + " não configurado neste gateway",
                       kNoTarget);
}

// Sends the call, adding the provider token when the provider needs one; a 401 (or
// ArcGIS's 498) from the provider means the token was refused: fetch a new one, retry once.
http::Response call(App& app, http::Request& req, const ProviderConfig& p, const Url& url,
                    std::string_view breaker) {
  const std::string display = url.str();
  ProviderToken* token_source = app.provider_token(p.label);
  if (!token_source)
    return app.forwarder().forward(req.method, {std::string(breaker), url, display},
                                   provider_headers(req), req.request_id);

  const ProviderTokenConfig& tc = token_source->config();
  auto attempt = [&](const std::string& token) {
    Destination d{std::string(breaker), url, display};  // X-Target-URL never shows the token
    HeaderList headers = provider_headers(req);
    if (!tc.query_param.empty())
      d.url.query = join_query(d.url.query, encode_query_component(tc.query_param) + "=" +
                                                encode_query_component(token));
    if (!tc.header.empty()) set_header(headers, tc.header, "Bearer " + token);
    return app.forwarder().forward(req.method, d, std::move(headers), req.request_id);
  };
  auto fetch = [&](std::string& token) {
    try {
      token = token_source->get();
      return true;
    } catch (const std::exception& e) {
      app.log(
          std::string(R"({"level":"warn","msg":"falha ao obter token do provedor","provedor":")") +
          p.label + R"(","erro":)" + json_quote(e.what()) + "}");
      return false;
    }
  };
  std::string token;
  if (!fetch(token))
    return gateway_error(errc::upstream_failed, "não foi possível obter o token do provedor",
                         display);
  http::Response r = attempt(token);
  if (r.status == 401 || r.status == 498) {
    token_source->invalidate(token);
    if (!fetch(token))
      return gateway_error(errc::upstream_failed, "não foi possível renovar o token do provedor",
                           display);
    r = attempt(token);
  }
  return r;
}

http::Response finish(http::Response r, const http::Request& req) {
  apply_provider_rules(r, req);
  return r;
}

// /outros/<label> and /outros/<label>/{caminho*} for the plain OGC-style providers.
http::Response plain(App& app, http::Request& req, std::string_view label) {
  const ProviderConfig* p = configured(app, label);
  if (!p) return finish(not_configured(label), req);
  auto url = compose_url(p->url, {}, outgoing_path(req, 2), outgoing_query(req));
  if (has_dot_segment(path_after_segments(req.path, 2)))
    return finish(gateway_error(errc::invalid_argument,
                                "caminho com segmentos '.' ou '..' não é aceito", kNoTarget),
                  req);
  if (label == kMapExportCityA) {
    const AuthResult& auth = auth_of(req);
    if (!auth.ok) {
      auto r = gateway_error(auth.code, auth.message, url ? url->str() : kNoTarget);
      if (auth.code == errc::unavailable) r.headers.set("Retry-After", "5");
      return finish(std::move(r), req);
    }
  }
  if (!url)
    return finish(gateway_error(errc::internal, "destino do provedor mal configurado", kNoTarget),
                  req);
  return finish(call(app, req, *p, *url, kBreakerRest), req);
}

http::Response land_registry(App& app, http::Request& req) {
  const ProviderConfig* p = configured(app, kLandRegistry);
  const std::string& tema = req.param("tema");
  std::string query = outgoing_query(req, {"tema"});
  // The caller's mistake first: a request without its theme is a 422 whether or not this
  // gateway has the provider configured.
  if (tema.empty()) {
    auto known = p ? compose_url(p->url, {}, "", query) : std::nullopt;
    return finish(gateway_error(errc::unprocessable,
                                "informe o tema no caminho: /outros/land-registry/{tema}/ (ex.: "
                                "/outros/land-registry/imoveis/)",
                                known ? known->str() : kNoTarget),
                  req);
  }
  if (!p) return finish(not_configured(kLandRegistry), req);
  if (tema == "." || tema == ".." || has_dot_segment(path_after_segments(req.path, 3)))
    return finish(gateway_error(errc::invalid_argument,
                                "caminho com segmentos '.' ou '..' não é aceito", kNoTarget),
                  req);
  query = join_query(query, "tema=" + encode_query_component(tema));
  auto url = compose_url(p->url, {{"tema", tema}}, outgoing_path(req, 3), query);
  if (!url)
    return finish(gateway_error(errc::internal, "destino do provedor mal configurado", kNoTarget),
                  req);
  return finish(call(app, req, *p, *url, kBreakerRest), req);
}

// "14", "6070", "9300.pbf" → z, x, y checked against the tile grid of zoom z.
std::optional<Vars> tile_vars(const std::string& caminho) {
  auto parts = http::split_path(caminho);
  if (parts.size() != 3) return std::nullopt;
  std::string_view y = parts[2];
  if (auto dot = y.find('.'); dot != std::string_view::npos) y = y.substr(0, dot);
  auto number = [](std::string_view s, long long max) -> std::optional<long long> {
    if (s.empty() || s.size() > 10 || s.find_first_not_of("0123456789") != std::string_view::npos)
      return std::nullopt;
    long long v = std::stoll(std::string(s));
    if (v > max) return std::nullopt;
    return v;
  };
  auto z = number(parts[0], 30);
  if (!z) return std::nullopt;
  long long last = (1LL << *z) - 1;
  auto x = number(parts[1], last), yy = number(y, last);
  if (!x || !yy) return std::nullopt;
  return Vars{{"z", std::to_string(*z)}, {"x", std::to_string(*x)}, {"y", std::to_string(*yy)}};
}

http::Response vector_tiles(App& app, http::Request& req) {
  const ProviderConfig* p = configured(app, kCityDVectorTiles);
  if (!p) return finish(not_configured(kCityDVectorTiles), req);
  auto vars = tile_vars(req.param("caminho"));
  if (!vars)
    return finish(gateway_error(errc::invalid_argument,
                                "tile inválido: use /outros/city-d-vector-tiles/{z}/{x}/{y}.pbf "
                                "com x e y dentro do zoom z",
                                kNoTarget),
                  req);
  // The template defines the whole path: only z, x, y and the caller's query go on.
  auto url = compose_url(p->url, *vars, "", outgoing_query(req));
  if (!url)
    return finish(gateway_error(errc::internal, "destino do provedor mal configurado", kNoTarget),
                  req);
  http::Response r = call(app, req, *p, *url, kBreakerTiles);
  apply_tile_rules(r, true);
  return finish(std::move(r), req);
}

}  // namespace

void add_provider_routes(App& app) {
  auto& srv = app.server();
  for (const std::string& label : provider_labels()) {
    if (label == kLandRegistry || label == kCityDVectorTiles) continue;
    bool protected_route = label == kMapExportCityA;
    std::string summary =
        "Provedor externo " + label +
        (protected_route ? " (exige autenticação; o gateway obtém o token do provedor)"
                         : " (público)");
    for (std::string pattern : {"/outros/" + label, "/outros/" + label + "/{caminho*}"}) {
      srv.add(
          {.method = "GET",
           .pattern = pattern,
           .auth = protected_route ? kGatewayScheme : "none",
           .access = protected_route ? http::members("um usuário autenticado; o gateway obtém o token do provedor")
                                     : http::Access{},
           .tag = kTag,
           .summary = summary,
           .params = forwarding(protected_route ? credential_params() : std::vector<http::Param>{}),
           .answers = "application/xml",
           .handler = [&app, label](http::Request& req) { return plain(app, req, label); }});
    }
  }

  std::string lr = "/outros/" + std::string(kLandRegistry);
  srv.add({.method = "GET",
           .pattern = lr,
           .auth = "none",
           .tag = kTag,
           .summary = "Cadastro fundiário nacional sem tema: 422",
           .params = forwarding(),
           .handler = [&app](http::Request& req) { return land_registry(app, req); }});
  for (std::string pattern : {lr + "/{tema}", lr + "/{tema}/{caminho*}"}) {
    srv.add(
        {.method = "GET",
         .pattern = pattern,
         .auth = "none",
         .tag = kTag,
         .summary =
             "Cadastro fundiário nacional (serviço de mapas OGC); o tema vai como parâmetro tema",
         .params = forwarding(),
         .answers = "application/xml",
         .handler = [&app](http::Request& req) { return land_registry(app, req); }});
  }

  std::string vt = "/outros/" + std::string(kCityDVectorTiles);
  srv.add({.method = "GET",
           .pattern = vt + "/{caminho*}",
           .auth = "none",
           .tag = kTag,
           .summary = "Tiles vetoriais municipais: {z}/{x}/{y}.pbf (MVT, sem cache)",
           .params = forwarding(),
           .answers = kMvtContentType,
           .handler = [&app](http::Request& req) { return vector_tiles(app, req); }});
  srv.add({.method = "GET",
           .pattern = vt,
           .auth = "none",
           .tag = kTag,
           .summary = "Tiles vetoriais municipais sem z/x/y: 400",
           .params = forwarding(),
           .handler = [&app](http::Request& req) { return vector_tiles(app, req); }});

  // Unknown labels and any other path: 404 in the error shape, still with X-Target-URL.
  auto unknown = [](http::Request& req) {
    return finish(gateway_error(errc::route_not_found,
                                "provedor desconhecido: " + req.param("provedor"), kNoTarget),
                  req);
  };
  const std::vector<http::Param> ignored = {other_query_fields("ignorados: a rota responde 404")};
  for (const char* pattern : {"/outros/{provedor}", "/outros/{provedor}/{caminho*}"})
    srv.add({.method = "GET",
             .pattern = pattern,
             .auth = "none",
             .tag = kTag,
             .summary = "Provedor desconhecido: 404",
             .params = ignored,
             .handler = unknown});
  srv.add({.method = "GET",
           .pattern = "/{caminho*}",
           .auth = "none",
           .tag = "Operação",
           .summary = "Qualquer outro caminho: 404 com X-Target-URL: none",
           .params = ignored,
           .handler = [](http::Request& req) {
             return gateway_error(errc::route_not_found,
                                  "rota não encontrada: " + req.method + " " + req.path, kNoTarget);
           }});
}

}  // namespace cadastre::gateway
