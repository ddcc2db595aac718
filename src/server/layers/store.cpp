#include "server/layers/store.hpp"

#include <soci/soci.h>

#include "cadastre/error.hpp"
#include "store/prepared.hpp"
#include "store/sql.hpp"

namespace cadastre::server::layers {
namespace {

// Units have no geometry of their own: each is listed with its lot's, which also serves
// the bbox, so the lot's units are a list like any layer's (filters, sort, bbox, paging).
store::Layer units_with_lot_geometry(const store::Layer& units) {
  store::Layer out = units;
  store::Column geom;
  geom.name = "geom";
  geom.type = geom.base_type = "geometry";
  geom.geometry = true;
  out.columns.push_back(std::move(geom));
  out.geometry_column = "geom";
  return out;
}

}  // namespace

store::FeaturePage list(store::Pool& db, const store::FeatureQuery& q) {
  return db.with([&](soci::session& s) { return store::fetch_features(s, q); });
}

long long count(store::Pool& db, const store::FeatureQuery& q) {
  store::Sql sql;
  store::append_count(sql, q);
  return std::stoll(
      db.with([&](soci::session& s) { return store::fetch_value(s, sql); }).value_or("0"));
}

std::vector<std::string> detail_related_layers(const store::Layer& layer) {
  if (layer.name != "lote" && layer.name != "imobiliario") return {};
  std::vector<std::string> out;
  for (const char* related : {"imobiliario", "edificacao", "pessoa", "lote"})
    if (related != layer.name) out.emplace_back(related);
  return out;
}

std::string detail_relations(const store::Layer& layer, std::string_view alias) {
  const std::string t(alias);
  if (layer.name == "lote") {
    return "jsonb_build_object('imobiliarios', (select coalesce(jsonb_agg(to_jsonb(i) || "
           "jsonb_build_object('proprietarios', " +
           store::unit_people("i.id") +
           ") order by i.id), '[]'::jsonb) from cadastro.imobiliario i where i.lote_id = " + t +
           ".id), 'edificacoes', " + store::lot_buildings(t + ".id") + ")";
  }
  if (layer.name == "imobiliario") {
    return "jsonb_build_object('lote', (select (to_jsonb(l) - 'geom') || "
           "jsonb_build_object('geometry', " +
           store::geometry_json("l") + ") from cadastro.lote l where l.id = " + t +
           ".lote_id), 'edificacoes', " + store::lot_buildings(t + ".lote_id") +
           ", 'proprietarios', " + store::unit_people(t + ".id") + ")";
  }
  return {};
}

std::optional<std::string> detail(store::Pool& db, const store::Layer& layer,
                                  const std::string& id) {
  const store::Column& pk = *layer.column(layer.primary_key);
  const std::string relations = detail_relations(layer, "t");
  const std::string feature = store::feature_expression(layer, "t");
  store::Sql sql("select ");
  if (relations.empty()) {
    sql << feature << "::text";
  } else {
    // properties || relations: json → jsonb to merge, then back to text.
    sql << "(" << feature << "::jsonb || jsonb_build_object('properties', (" << feature
        << "::jsonb -> 'properties') || " << relations << "))::text";
  }
  // The statement of a layer is the same text on every call (the id is its one parameter,
  // $1 for libpq), so it is prepared once per connection: parsing and planning it cost
  // twice its execution for a lot with its relations.
  sql << " from " << layer.qualified() << " t where t." << query::quote_identifier(pk.name)
      << " = $1::" << pk.type;
  auto rows =
      db.with([&](soci::session& s) { return store::run_prepared_binary(s, sql.text(), {id}); });
  if (rows.empty() || !rows.front().front()) return std::nullopt;
  return std::move(*rows.front().front());
}

store::FeaturePage address_search(store::Pool& db, const AddressQuery& q) {
  store::Sql sql;
  sql << "select coalesce(json_agg(json_build_object('type', 'Feature', 'id', t.id, 'geometry', "
         "ST_AsGeoJSON(ST_Transform(t.geom, 4326), 7)::json, 'properties', (to_jsonb(t) - 'geom' - "
         "'logradouro_nome' - 'bairro_nome') || jsonb_build_object('endereco', t.logradouro_nome "
         "|| "
         "coalesce(', ' || t.numero, ''), 'bairro', t.bairro_nome))), '[]')::text, count(*)::text "
         "from "
         "(select lo.*, dt.descricao || ' ' || l.nome as logradouro_nome, b.nome as bairro_nome "
         "from cadastro.lote lo join cadastro.logradouro l on l.id = lo.logradouro_id "
         "left join dominio.tipo_logradouro dt on dt.codigo = l.tipo "
         "left join cadastro.quadra q on q.id = lo.quadra_id left join cadastro.bairro b on b.id = "
         "q.bairro_id "
         "where unaccent(lower(l.nome)) like '%' || unaccent(lower(";
  sql.bind(query::escape_like(q.street)) << ")) || '%' escape '\\'";
  if (q.number) {
    sql << " and lo.numero = ";
    sql.bind(*q.number, "integer");
  }
  if (q.district) {
    sql << " and unaccent(lower(b.nome)) like '%' || unaccent(lower(";
    sql.bind(query::escape_like(*q.district)) << ")) || '%' escape '\\'";
  }
  sql << " order by l.nome, lo.numero, lo.id";
  store::append_page(sql, q.paging);
  sql << ") t";
  return db.with([&](soci::session& s) { return store::fetch_features(s, sql); });
}

store::FeaturePage units_of_lot(store::Pool& db, const store::Layer& units, const std::string& lot,
                                const query::ListQuery& q) {
  const store::Layer with_geometry = units_with_lot_geometry(units);
  auto fq = store::resolve(with_geometry, q);
  store::Sql sql;
  fq.from =
      "(select i.*, l.geom from cadastro.imobiliario i join cadastro.lote l on l.id = i.lote_id "
      "where i.lote_id = " +
      sql.placeholder(lot, "integer") + ")";
  store::append_feature_page(sql, fq);
  return db.with([&](soci::session& s) { return store::fetch_features(s, sql); });
}

}  // namespace cadastre::server::layers
