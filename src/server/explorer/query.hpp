// The explorer's query descriptions: a JSON object naming one layer of the tenant catalog,
// the columns to show, filters, order and a row limit, e.g.
//   {"tabela": "lote", "colunas": ["id", "inscricao", "area_terreno"],
//    "filtros": [{"coluna": "area_terreno", "operador": ">", "valor": 500}],
//    "ordem": [{"coluna": "area_terreno", "direcao": "desc"}], "limite": 20}
// Operators: = <> < <= > >= contains icontains in, "is null", "is not null", bbox
// ([minLon, minLat, maxLon, maxLat] in degrees, on a geometry column).
//
// A description becomes SQL in two renderings of one statement: `preview`, the text shown
// to the user with every value written as a literal (strings quoted with '' doubled, numbers
// checked to be numbers), and `sql`, the text that runs, where every value is a bound
// parameter. Names reach either only after the catalog check, through quote_identifier.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/catalog.hpp"
#include "store/sql.hpp"

namespace cadastre::server::explorer {

/// Largest `limite` a description may carry (the row cap of report exports).
inline constexpr std::int64_t kMaxLimit = 10000;

enum class Operator { eq, ne, lt, le, gt, ge, contains, icontains, in, is_null, is_not_null, bbox };

/// One value as it came in the JSON: its text and its JSON kind.
struct Scalar {
  enum Kind { string, number, boolean } kind = string;
  std::string text;  ///< the string itself, the number as written back by us, "true"/"false"
};

struct Filter {
  std::string column;
  Operator op = Operator::eq;
  std::vector<Scalar> values;  ///< none (is null), one, the list (in) or four numbers (bbox)
};

struct OrderKey {
  std::string column;
  bool descending = false;
};

struct Query {
  std::string table;
  std::vector<std::string> columns;  ///< empty: every column of the table
  std::vector<Filter> filters;
  std::vector<OrderKey> order;
  std::optional<std::int64_t> limit;  ///< 1..kMaxLimit when given
};

/// Parses a description (structure, operators, value shapes, identifier rules). Errors are
/// 400s naming the member, prefixed with `where` (e.g. "consulta.filtros[0].valor").
Query parse_query(simdjson::dom::element e, std::string_view where = {});
/// Same, from JSON text (invalid JSON → 400 json_invalido).
Query parse_query(std::string_view json);

/// The canonical JSON of a description (what reports store).
std::string to_json(const Query& q);

/// How selected values are returned: as JSON values (geometry as a GeoJSON object) or as
/// text (geometry as GeoJSON text), for the spreadsheet and the PDF.
enum class Output { json, text };

struct Built {
  std::string preview;                         ///< the statement with values as SQL literals
  store::Sql sql;                              ///< the same statement with values bound
  std::vector<const store::Column*> columns;   ///< selected, in order
};

/// Checks `q` against `layer` (the catalog entry of q.table): unknown columns → 400
/// campo_desconhecido, operators that do not fit the column type or values that do not fit
/// it → 400 parametro_invalido. Builds `select ... from layer t where ... order by ...
/// limit <limit>`; the primary key ends the order so pages are stable. `where` prefixes the
/// members named in errors, as in parse_query().
Built build(const Query& q, const store::Layer& layer, std::int64_t limit, Output output, std::string_view where = {});

/// `before` + the statement of `b` + `after`, with b's values bound again in the same order
/// (e.g. to aggregate its rows into one JSON array).
store::Sql wrap(const Built& b, std::string_view before, std::string_view after);

/// The select list of every column of `layer` (alias t), as build() writes it.
std::string select_list(const store::Layer& layer, Output output);

/// A string as a PostgreSQL literal: 'it''s'; with E'...' and doubled backslashes when it
/// holds a backslash, so the text means the same whatever standard_conforming_strings is.
std::string quote_literal(std::string_view text);

}  // namespace cadastre::server::explorer
