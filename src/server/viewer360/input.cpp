#include "server/viewer360/input.hpp"

#include <simdjson.h>

#include <charconv>
#include <cmath>

#include "cadastre/query.hpp"
#include "core/json_in.hpp"
#include "service/scope.hpp"

namespace cadastre::server::viewer360 {
namespace {

constexpr std::int64_t kDefaultRadiusRows = 100;
constexpr std::int64_t kMaxRadiusRows = 1000;

simdjson::dom::object atts_body(simdjson::dom::parser& parser, std::string_view body) {
  auto o = jsonin::as_object(jsonin::parse(parser, body), "corpo");
  for (auto [key, value] : o) {
    if (key != "schema_table" && key != "inserir" && key != "atualizar")
      throw Error(errc::unknown_field, "campo desconhecido no corpo: '" + std::string(key) + "'", std::string(key));
  }
  return o;
}

}  // namespace

double path_number(const http::Request& req, std::string_view field, double min, double max, bool min_inclusive) {
  const std::string& text = req.param(field);
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  const bool above = min_inclusive ? v >= min : v > min;
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) || !above ||
      v > max) {
    throw Error(errc::invalid_argument,
                std::string(field) + " deve ser um número " + (min_inclusive ? "de " : "maior que ") +
                    std::to_string(static_cast<int>(min)) + (min_inclusive ? " a " : " e até ") +
                    std::to_string(static_cast<int>(max)) + " (metros)",
                std::string(field));
  }
  return v;
}

std::int64_t rows_limit(const http::Request& req) {
  auto text = req.query_value("limit");
  return text ? query::parse_integer(*text, "limit", 1, kMaxRadiusRows) : kDefaultRadiusRows;
}

std::string atts_table(std::string_view body) {
  simdjson::dom::parser parser;
  return jsonin::string(atts_body(parser, body), "schema_table");
}

std::vector<AttributeRow> parse_atts(std::string_view body, const store::Layer& table) {
  simdjson::dom::parser parser;
  auto o = atts_body(parser, body);
  std::vector<AttributeRow> rows;
  for (bool update : {false, true}) {
    auto list = jsonin::find(o, list_name(update));
    if (!list) continue;
    std::size_t i = 0;
    for (auto e : jsonin::as_array(*list, list_name(update))) {
      if (rows.size() == kMaxBatchRows)
        throw Error(errc::payload_too_large, "no máximo " + std::to_string(kMaxBatchRows) + " registros por lote",
                    list_name(update));
      const std::string where = std::string(list_name(update)) + "[" + std::to_string(i) + "]";
      try {
        AttributeRow row{update, i, store::parse_record_element(table, &e, where)};
        if (update) {
          if (!row.input.id)
            throw Error(errc::missing_field, "a atualização precisa do campo '" + table.primary_key + "'", where);
          service::record_id(table, *row.input.id);
        }
        rows.push_back(std::move(row));
      } catch (const Error& err) {
        throw ListItemError{err, update, i};
      }
      ++i;
    }
  }
  if (rows.empty()) throw Error(errc::missing_field, "informe registros em 'inserir' e/ou 'atualizar'", "inserir");
  return rows;
}

}  // namespace cadastre::server::viewer360
