// Requests of /mapoteca, read and checked before any SQL: the metadata update body, the
// search box and words, the paging and the item id.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cadastre/bbox.hpp"
#include "cadastre/query.hpp"
#include "http/http.hpp"
#include "store/sql.hpp"

namespace cadastre::server::mapoteca {

/// How a metadata value is stored (the update statement casts it accordingly).
enum class ValueKind {
  text,       ///< titulo, descricao, arquivo_url
  keywords,   ///< palavras_chave: a JSON array of texts, stored as text[]
  date,       ///< data "AAAA-MM-DD"
  integer,    ///< escala
  footprint,  ///< hex EWKB in EPSG:4674, stored as a MultiPolygon
};

/// One column set by a metadata update.
struct Assignment {
  std::string column;
  store::Value value;
  ValueKind kind = ValueKind::text;
};

/// Parses a PUT body: a JSON object with any of titulo (non-empty text), descricao (text or
/// null), palavras_chave (list of texts or null), data ("AAAA-MM-DD" or null), escala
/// (positive integer or null), arquivo_url (http(s):// or /path, or null) and footprint (a
/// GeoJSON Polygon or MultiPolygon in lon/lat, valid). Unknown members, an empty object or
/// a bad value → Error 400 naming the member.
std::vector<Assignment> parse_metadata(std::string_view body);

/// The search box (minLongitude, minLatitude, maxLongitude, maxLatitude; required).
geom::BBox parse_box(const http::Request& req);
/// {palavras_chave}: 1 to 200 characters, not only blanks.
std::string parse_words(const http::Request& req);
/// The paging parameters.
query::Paging parse_paging(const http::Request& req);
/// {id}: a positive integer.
std::int64_t parse_item_id(const http::Request& req);

}  // namespace cadastre::server::mapoteca
