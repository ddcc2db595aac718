#include "server/geo/lot_relations.hpp"

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"

namespace cadastre::server {
namespace {

using query::quote_identifier;

// "(select r.<column> from lote_ref r)": one value of the lot's row.
std::string lot_value(std::string_view column) {
  return "(select r." + quote_identifier(column) + " from lote_ref r)";
}

std::optional<std::string> key_condition(const store::Layer& lote, const store::Layer& layer) {
  if (lote.primary_key.empty()) return std::nullopt;
  if (layer.name != lote.name && layer.column("lote_id"))
    return "t." + quote_identifier("lote_id") + " = " + lot_value(lote.primary_key);
  if (!layer.primary_key.empty() && lote.column(layer.name + "_id"))
    return "t." + quote_identifier(layer.primary_key) + " = " + lot_value(layer.name + "_id");
  return std::nullopt;
}

std::optional<std::string> spatial_condition(const store::Layer& lote, const store::Layer& layer) {
  if (layer.geometry_column.empty() || lote.geometry_column.empty()) return std::nullopt;
  std::string g = "t." + quote_identifier(layer.geometry_column);
  std::string lg = lot_value(lote.geometry_column);
  // && first: the init-plan value makes it an index condition on the layer's GiST index.
  std::string c = g + " && " + lg + " and ST_Intersects(" + g + ", " + lg + ") and not ST_Touches(" + g + ", " + lg + ")";
  if (layer.name == lote.name && !lote.primary_key.empty())
    c += " and t." + quote_identifier(lote.primary_key) + " <> " + lot_value(lote.primary_key);
  return c;
}

}  // namespace

RelationMode parse_relation_mode(std::string_view text) {
  if (text == "chave") return RelationMode::key;
  if (text == "espacial") return RelationMode::spatial;
  throw Error(errc::invalid_argument, "modo deve ser 'chave' ou 'espacial'", "modo");
}

std::string_view to_string(RelationMode mode) noexcept { return mode == RelationMode::key ? "chave" : "espacial"; }

std::optional<LotRelation> lot_relation(const store::Layer& lote, const store::Layer& layer,
                                        std::optional<RelationMode> forced) {
  if (!forced || *forced == RelationMode::key) {
    if (auto c = key_condition(lote, layer)) return LotRelation{RelationMode::key, std::move(*c)};
    if (forced) return std::nullopt;
  }
  if (auto c = spatial_condition(lote, layer)) return LotRelation{RelationMode::spatial, std::move(*c)};
  return std::nullopt;
}

void append_lot_cte(store::Sql& sql, const store::Layer& lote, const std::string& id) {
  const store::Column& pk = *lote.column(lote.primary_key);
  sql << "with lote_ref as (select * from " << lote.qualified() << " l where l." << quote_identifier(pk.name) << " = ";
  sql.bind(id, pk.type) << ") ";
}

}  // namespace cadastre::server
