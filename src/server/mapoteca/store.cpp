// Reads and writes of mapoteca.item, each search one statement whose GeoJSON is built by
// PostgreSQL.
#include "server/mapoteca/store.hpp"

#include <soci/soci.h>

#include <charconv>

#include "cadastre/error.hpp"
#include "store/audit.hpp"
#include "store/pool.hpp"

namespace cadastre::server::mapoteca {
namespace {

// The Feature of the row alias `i`: every column but the key, the footprint and the search
// document is a property (plus "relevancia" in keyword searches, a column of their rows).
std::string feature_expr() {
  return "json_build_object('type', 'Feature', 'id', i.id, 'geometry', "
         "ST_AsGeoJSON(ST_Transform(i.footprint, 4326), 7)::json, 'properties', "
         "to_jsonb(i) - 'id' - 'footprint' - 'busca')";
}

std::string number_text(double d) {
  char buf[40];
  auto end = std::to_chars(buf, buf + sizeof buf, d).ptr;  // shortest round-trip text
  return std::string(buf, end);
}

// Appends "<total>, <returned>, <features>" over the CTE `m` (matching rows), ordered by
// `order`, for one page.
void select_page(store::Sql& sql, const std::string& order, const query::Paging& paging) {
  sql << "select (select count(*) from m)::text as total, count(*)::text as devolvidos, "
         "coalesce(json_agg("
      << feature_expr() << " order by " << order
      << "), '[]')::text as features from (select * from m order by " << order;
  store::append_page(sql, paging);
  sql << ") i";
}

// The expression that stores a value of `kind` (one '?' for the bound value).
std::string_view expr_of(ValueKind kind) {
  switch (kind) {
    case ValueKind::text:
      return "?::text";
    case ValueKind::keywords:
      return "array(select jsonb_array_elements_text(?::jsonb))";
    case ValueKind::date:
      return "?::date";
    case ValueKind::integer:
      return "?::integer";
    case ValueKind::footprint:
      return "ST_Multi(?::geometry)";
  }
  return "?";
}

Page page_of(const store::Row& row) {
  return Page{row.at(2).value_or("[]"), std::stoll(row.at(1).value_or("0")),
              std::stoll(row.at(0).value_or("0"))};
}

std::string item_id_text(std::int64_t id) { return std::to_string(id); }

[[noreturn]] void missing_item(std::int64_t id) {
  throw Error(errc::not_found, "item " + std::to_string(id) + " não encontrado na mapoteca", "id");
}

}  // namespace

Page search_box(store::Pool& db, const geom::BBox& box, const query::Paging& paging) {
  // ST_Envelope turns a zero-width box into the point or line it really is, which
  // ST_Intersects then handles exactly (a zero-area polygon is invalid).
  store::Sql sql("with b as (select ST_Envelope(ST_MakeEnvelope(");
  sql.bind(number_text(box.min_lon), "float8") << ", ";
  sql.bind(number_text(box.min_lat), "float8") << ", ";
  sql.bind(number_text(box.max_lon), "float8") << ", ";
  sql.bind(number_text(box.max_lat), "float8")
      << ", 4674)) as g), "
         "m as (select i.* from mapoteca.item i, b where ST_Intersects(i.footprint, b.g)) ";
  select_page(sql, "id", paging);
  return page_of(db.with([&](soci::session& s) { return store::fetch(s, sql); }).at(0));
}

Page search_words(store::Pool& db, const std::string& words, const query::Paging& paging) {
  store::Sql sql("with q as (select websearch_to_tsquery('mapoteca.pt_unaccent', ");
  sql.bind(words) << ") as tsq), "
                     "m as (select i.*, ts_rank(i.busca, q.tsq) as relevancia from mapoteca.item "
                     "i, q where i.busca @@ q.tsq), "
                     "p as (";
  select_page(sql, "relevancia desc, id", paging);
  sql << ") select (select numnode(tsq) from q)::text, p.* from p";
  auto row = db.with([&](soci::session& s) { return store::fetch(s, sql); }).at(0);
  if (row.at(0).value_or("0") == "0")
    throw Error(errc::invalid_argument,
                "a busca não tem termos pesquisáveis (só palavras vazias como 'de', 'a')",
                "palavras_chave");
  return page_of(store::Row(row.begin() + 1, row.end()));
}

std::string update_item(store::Pool& db, std::int64_t id, const std::vector<Assignment>& changes,
                        const store::Principal& user) {
  store::Sql read("select " + feature_expr() + "::text from mapoteca.item i where i.id = ");
  read.bind(item_id_text(id), "integer") << " for update";
  store::Sql sql("update mapoteca.item as i set ");
  for (const auto& c : changes) {
    std::string_view expr = expr_of(c.kind);
    auto q = expr.find('?');
    sql << c.column << " = " << expr.substr(0, q);
    sql.bind(c.value) << expr.substr(q + 1) << ", ";
  }
  sql << "atualizado_em = now() where i.id = ";
  sql.bind(item_id_text(id), "integer") << " returning " << feature_expr() << "::text";
  std::optional<std::string> after;
  db.run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      auto before = store::fetch_value(s, read);
      if (!before) missing_item(id);
      after = store::fetch_value(s, sql);
      store::record_audit(s, kAuditTable, item_id_text(id), store::Operation::update, user, before,
                          after);
    });
  });
  return after.value_or("null");
}

std::string delete_item(store::Pool& db, std::int64_t id, const store::Principal& user) {
  store::Sql sql("delete from mapoteca.item as i where i.id = ");
  sql.bind(item_id_text(id), "integer") << " returning " << feature_expr() << "::text";
  std::optional<std::string> before;
  db.run([&](soci::session& s) {
    store::in_transaction(s, [&] {
      before = store::fetch_value(s, sql);
      if (!before) missing_item(id);
      store::record_audit(s, kAuditTable, item_id_text(id), store::Operation::remove, user, before,
                          std::nullopt);
    });
  });
  return *before;
}

}  // namespace cadastre::server::mapoteca
