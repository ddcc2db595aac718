// Request bodies of the explorer (/explorer/{municipio}).
//
// Query descriptions: a JSON object naming one layer of the tenant catalog, the columns to
// show, filters, order and a row limit, e.g.
//   {"tabela": "lote", "colunas": ["id", "inscricao", "area_terreno"],
//    "filtros": [{"coluna": "area_terreno", "operador": ">", "valor": 500}],
//    "ordem": [{"coluna": "area_terreno", "direcao": "desc"}], "limite": 20}
// Operators: = <> < <= > >= contains icontains in, "is null", "is not null", bbox
// ([minLon, minLat, maxLon, maxLat] in degrees, on a geometry column). parse_query checks
// the structure, operators, value shapes and identifier rules; the checks against the
// table's columns happen where the SQL is built (store.hpp, build()).
//
// Saved reports: {nome, titulo?, consulta}; `consulta` is a query description, checked
// against the catalog (and the caller's read permission on its table) on every write and
// stored in canonical form.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http/http.hpp"
#include "service/scope.hpp"
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
Query parse_query(std::string_view json, std::string_view where = {});

/// The canonical JSON of a description (what reports store).
std::string to_json(const Query& q);

/// The layer a description names, if the caller may read it (the guard's s.layer). The name
/// is a member of the body, so a table outside the catalog is a 400 naming
/// `<where>.tabela`, not a 404.
service::LayerRef query_layer(const service::Scope& s, const Query& q, std::string_view where = {});

/// "=", "<>", ..., "is null", "bbox".
std::string_view operator_name(Operator op);
/// The member `member` of `where` in error fields: "consulta.filtros"; `member` alone at the top.
std::string member_path(std::string_view where, std::string_view member);
/// "base[i]".
std::string indexed(std::string_view base, std::size_t i);
/// Throws Error(invalid_argument, message, field).
[[noreturn]] void invalid(const std::string& message, const std::string& field);

// ---------------------------------------------------------------- saved reports

struct ReportInput {
  std::optional<std::string> nome;
  bool has_titulo = false;  ///< the body names titulo (null clears it)
  store::Value titulo;
  std::optional<std::string> consulta;  ///< canonical JSON of the checked description
};

/// A report body: for a create (`path_id` nullopt) nome and consulta are required; for a
/// change of report `path_id` every member is optional and a body "id" must match it.
/// The description is checked against the catalog with the caller's read permission.
ReportInput parse_report(const service::Scope& s, const std::string& body, std::optional<std::int64_t> path_id);

/// The {id} of a report route (an integer ≥ 1, else 400).
std::int64_t report_id(const http::Request& req);

}  // namespace cadastre::server::explorer
