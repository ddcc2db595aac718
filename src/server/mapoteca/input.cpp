// Requests of /mapoteca: the PUT body of /mapoteca/{municipio}/item/{id}/ (every member is
// checked here, so the update statement only ever receives typed, bounded values), the
// search box, the search words, the paging and the item id.
#include "server/geo/input.hpp"

#include <chrono>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "core/json_in.hpp"
#include "server/mapoteca/input.hpp"
#include "service/geojson.hpp"  // query_params

namespace cadastre::server::mapoteca {
namespace {

constexpr std::size_t kMaxTitle = 300;
constexpr std::size_t kMaxDescription = 10000;
constexpr std::size_t kMaxKeywords = 50;
constexpr std::size_t kMaxKeyword = 100;
constexpr std::size_t kMaxUrl = 2000;
constexpr std::size_t kMaxWords = 200;

std::string trimmed(std::string_view s) {
  const auto* ws = " \t\r\n";
  auto b = s.find_first_not_of(ws);
  if (b == std::string_view::npos) return {};
  return std::string(s.substr(b, s.find_last_not_of(ws) - b + 1));
}

[[noreturn]] void bad(const std::string& field, const std::string& what) {
  throw Error(errc::invalid_argument, "'" + field + "' deve ser " + what, field);
}

std::string text(jsonin::element v, const std::string& field, std::size_t max, const char* what) {
  std::string_view s;
  if (v.get(s) != simdjson::SUCCESS) bad(field, what);
  std::string t = trimmed(s);
  if (t.empty() || t.size() > max)
    bad(field, std::string(what) + " (1 a " + std::to_string(max) + " caracteres)");
  return t;
}

store::Value title(jsonin::element v) { return text(v, "titulo", kMaxTitle, "um texto não vazio"); }

store::Value description(jsonin::element v) {
  if (v.is_null()) return std::nullopt;
  return text(v, "descricao", kMaxDescription, "um texto ou null");
}

// The keywords as a JSON array of trimmed texts (null clears them).
store::Value keywords(jsonin::element v) {
  JsonWriter w;
  w.begin_array();
  if (!v.is_null()) {
    simdjson::dom::array list;
    if (v.get(list) != simdjson::SUCCESS || list.size() > kMaxKeywords)
      bad("palavras_chave", "uma lista de até " + std::to_string(kMaxKeywords) + " textos ou null");
    for (auto e : list)
      w.value(text(e, "palavras_chave", kMaxKeyword, "uma lista de textos não vazios"));
  }
  w.end_array();
  return std::move(w).str();
}

store::Value date(jsonin::element v) {
  if (v.is_null()) return std::nullopt;
  std::string_view s;
  const char* what = "uma data AAAA-MM-DD ou null";
  if (v.get(s) != simdjson::SUCCESS || s.size() != 10 || s[4] != '-' || s[7] != '-')
    bad("data", what);
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (s[i] < '0' || s[i] > '9') bad("data", what);
  auto num = [&](std::size_t pos, std::size_t n) {
    return std::stoi(std::string(s.substr(pos, n)));
  };
  std::chrono::year_month_day ymd{std::chrono::year(num(0, 4)),
                                  std::chrono::month(static_cast<unsigned>(num(5, 2))),
                                  std::chrono::day(static_cast<unsigned>(num(8, 2)))};
  if (!ymd.ok()) bad("data", "uma data que exista (AAAA-MM-DD) ou null");
  return std::string(s);
}

store::Value scale(jsonin::element v) {
  if (v.is_null()) return std::nullopt;
  std::int64_t n = 0;
  if (v.get(n) != simdjson::SUCCESS || n < 1 || n > INT32_MAX)
    bad("escala", "o denominador inteiro positivo da escala (2000 para 1:2.000) ou null");
  return std::to_string(n);
}

store::Value file_url(jsonin::element v) {
  if (v.is_null()) return std::nullopt;
  std::string url = text(v, "arquivo_url", kMaxUrl, "um endereço http(s):// ou /caminho, ou null");
  bool absolute = url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0;
  bool path = url.size() > 1 && url[0] == '/' && url[1] != '/';
  bool clean = url.find_first_of(" \t\r\n\"<>\\") == std::string::npos;
  if (!(absolute || path) || !clean)
    bad("arquivo_url", "um endereço http(s):// ou /caminho, sem espaços, ou null");
  return url;
}

// The footprint as hex EWKB in EPSG:4674, stored as a MultiPolygon.
store::Value footprint(jsonin::element v) {
  if (!v.is_object())
    throw Error(errc::invalid_geometry,
                "'footprint' deve ser uma geometria GeoJSON Polygon ou MultiPolygon", "footprint");
  QueryGeometry g = geometry_from_geojson(simdjson::minify(v), "footprint");
  std::string type = g.geometry.type_name();
  if (type != "Polygon" && type != "MultiPolygon")
    throw Error(errc::invalid_geometry, "'footprint' deve ser Polygon ou MultiPolygon, não " + type,
                "footprint");
  return g.ewkb_hex;
}

}  // namespace

std::vector<Assignment> parse_metadata(std::string_view body) {
  simdjson::dom::parser parser;
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  std::vector<Assignment> out;
  for (auto [key, value] : o) {
    std::string k(key);
    if (k == "titulo")
      out.push_back({k, title(value), ValueKind::text});
    else if (k == "descricao")
      out.push_back({k, description(value), ValueKind::text});
    else if (k == "palavras_chave")
      out.push_back({k, keywords(value), ValueKind::keywords});
    else if (k == "data")
      out.push_back({k, date(value), ValueKind::date});
    else if (k == "escala")
      out.push_back({k, scale(value), ValueKind::integer});
    else if (k == "arquivo_url")
      out.push_back({k, file_url(value), ValueKind::text});
    else if (k == "footprint")
      out.push_back({k, footprint(value), ValueKind::footprint});
    else
      throw Error(errc::unknown_field,
                  "campo desconhecido no corpo: '" + k +
                      "' (aceitos: titulo, descricao, palavras_chave, data, escala, arquivo_url, "
                      "footprint)",
                  k);
  }
  if (out.empty())
    throw Error(errc::missing_field,
                "nada a alterar: envie ao menos um de titulo, descricao, palavras_chave, data, "
                "escala, arquivo_url, footprint",
                "corpo");
  return out;
}

geom::BBox parse_box(const http::Request& req) {
  auto box = geom::BBox::from_query([&](std::string_view n) { return req.query_value(n); });
  if (!box)
    throw Error(errc::missing_field,
                "informe a área de busca: minLongitude, minLatitude, maxLongitude e maxLatitude",
                "minLongitude");
  return *box;
}

std::string parse_words(const http::Request& req) {
  const std::string& words = req.param("palavras_chave");
  if (words.find_first_not_of(" \t") == std::string::npos || words.size() > kMaxWords)
    throw Error(errc::invalid_argument,
                "informe de 1 a " + std::to_string(kMaxWords) + " caracteres de palavras-chave",
                "palavras_chave");
  return words;
}

query::Paging parse_paging(const http::Request& req) {
  return query::normalize_paging(query_params(req));
}

std::int64_t parse_item_id(const http::Request& req) {
  return query::parse_integer(req.param("id"), "id", 1, INT32_MAX);
}

}  // namespace cadastre::server::mapoteca
