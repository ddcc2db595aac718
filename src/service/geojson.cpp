#include "service/geojson.hpp"

#include "cadastre/json.hpp"

namespace cadastre::server {
namespace {

std::string url_encode(std::string_view s) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 0xF]);
    }
  }
  return out;
}

// The request's URL with `page` replaced (page+limit form, which every list accepts).
std::string page_link(const http::Request& req, long long page, long long size) {
  std::string url = req.path + "?";
  for (const auto& [k, v] : req.query) {
    if (k == "page" || k == "offset" || k == "limit" || k == "page_size" || k == "pageNumber" ||
        k == "pageSize")
      continue;
    url += url_encode(k) + "=" + url_encode(v) + "&";
  }
  return url + "page=" + std::to_string(page) + "&limit=" + std::to_string(size);
}

}  // namespace

query::QueryParams query_params(const http::Request& req) { return req.query; }

std::vector<http::Param> paging_params(std::vector<http::Param> params) {
  static const std::vector<http::Param> paging = {
      {"page", "query", "integer", false, "página (1 em diante)"},
      {"limit", "query", "integer", false, "itens por página (padrão 10, máximo 1000)"},
      {"page_size", "query", "integer", false, "sinônimo de limit"},
      {"offset", "query", "integer", false, "registros a pular (alternativa a page)"},
      {"pageNumber", "query", "integer", false, "sinônimo de page"},
      {"pageSize", "query", "integer", false, "sinônimo de page_size"},
  };
  params.insert(params.end(), paging.begin(), paging.end());
  return params;
}

std::vector<http::Param> with_paging(std::vector<http::Param> params) {
  static const std::vector<http::Param> list = {
      {"type",
       "query",
       "string",
       false,
       "como os filtros campo=valor comparam (padrão exact)",
       {"exact", "contains", "icontains"}},
      {"sort", "query", "string", false,
       "campo, -campo (decrescente) ou vários separados por vírgula"},
      {"orderBy", "query", "string", false, "sinônimo de sort"},
      {"order", "query", "string", false, "asc ou desc, com sort de um só campo"},
      {"direction", "query", "string", false, "sinônimo de order"},
      {"campos", "query", "object", false, "filtros campo=valor: qualquer coluna da camada"},
  };
  params = paging_params(std::move(params));
  params.insert(params.end(), list.begin(), list.end());
  return params;
}

std::vector<http::Param> with_paging_and_bbox(std::vector<http::Param> params) {
  params.insert(params.end(), {{"minLongitude", "query", "number", false, "bbox (SIRGAS 2000)"},
                               {"minLatitude", "query", "number", false, "bbox"},
                               {"maxLongitude", "query", "number", false, "bbox"},
                               {"maxLatitude", "query", "number", false, "bbox"}});
  return with_paging(std::move(params));
}

http::Response feature_collection(const http::Request& req, const std::string& features_json,
                                  long long returned, const query::Paging& paging,
                                  const std::function<void(JsonWriter&)>& more) {
  JsonWriter w;
  w.begin_object().key("type").value("FeatureCollection").key("features").raw(features_json);
  w.key("numberReturned").value(static_cast<std::int64_t>(returned));
  w.key("pagina")
      .value(static_cast<std::int64_t>(paging.page))
      .key("limite")
      .value(static_cast<std::int64_t>(paging.size));
  w.key("links").begin_array();
  auto link = [&](const char* rel, long long page) {
    w.begin_object().key("rel").value(rel).key("type").value(kGeoJson).key("href").value(
        page_link(req, page, paging.size));
    w.end_object();
  };
  link("self", paging.page);
  if (returned == paging.size) link("next", paging.page + 1);
  if (paging.page > 1) link("prev", paging.page - 1);
  w.end_array();
  if (more) more(w);
  w.end_object();
  return http::Response::text(std::move(w).str(), kGeoJson);
}

}  // namespace cadastre::server
