#include "store/catalog.hpp"

#include <soci/soci.h>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"

namespace cadastre::store {

bool Column::textual() const noexcept {
  return base_type == "text" || base_type == "varchar" || base_type == "bpchar" || base_type == "name";
}

bool Column::integer() const noexcept { return base_type == "int2" || base_type == "int4" || base_type == "int8"; }

bool Column::numeric() const noexcept {
  return integer() || base_type == "numeric" || base_type == "float4" || base_type == "float8";
}

const Column* Layer::column(std::string_view n) const noexcept {
  for (const auto& c : columns)
    if (c.name == n) return &c;
  return nullptr;
}

const Column& Layer::require_column(std::string_view n, std::string_view what) const {
  query::check_identifier(n, what);
  if (const Column* c = column(n)) return *c;
  throw Error(errc::unknown_field, "a camada " + name + " não tem o campo '" + std::string(n) + "'", std::string(what));
}

std::string Layer::qualified() const { return query::quote_qualified(schema, name); }

Catalog Catalog::load(soci::session& s, std::string_view schema) {
  Catalog cat;
  cat.schema_ = std::string(schema);
  std::string sch(schema);
  soci::rowset<soci::row> rs = (s.prepare <<
      "select c.relname::text, a.attname::text, format_type(a.atttypid, a.atttypmod), t.typname::text, "
      "  (not a.attnotnull)::int, a.atthasdef::int, "
      "  coalesce((select 1 from pg_index i where i.indrelid = c.oid and i.indisprimary "
      "            and a.attnum = any(i.indkey) and i.indnatts = 1), 0), "
      "  case when t.typname = 'geometry' then coalesce(postgis_typmod_type(a.atttypmod), 'Geometry') else '' end, "
      "  case when t.typname = 'geometry' then coalesce(postgis_typmod_srid(a.atttypmod), 0) else 0 end, "
      "  c.reltuples::float8, (c.relkind in ('v', 'm'))::int "
      "from pg_class c "
      "join pg_namespace n on n.oid = c.relnamespace "
      "join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped "
      "join pg_type t on t.oid = a.atttypid "
      "where n.nspname = :s and c.relkind in ('r', 'p', 'v', 'm') "
      "order by c.relname, a.attnum",
      soci::use(sch));
  for (const auto& r : rs) {
    std::string table = r.get<std::string>(0);
    // Only tables whose names follow the identifier rules are addressable at all.
    if (!query::is_valid_identifier(table)) continue;
    Layer& layer = cat.layers_[table];
    if (layer.name.empty()) {
      layer.schema = cat.schema_;
      layer.name = table;
      layer.row_estimate = r.get<double>(9);
      layer.is_view = r.get<int>(10) != 0;
    }
    Column c;
    c.name = r.get<std::string>(1);
    c.type = r.get<std::string>(2);
    c.base_type = r.get<std::string>(3);
    c.nullable = r.get<int>(4) != 0;
    c.has_default = r.get<int>(5) != 0;
    c.primary_key = r.get<int>(6) != 0;
    c.geometry = c.base_type == "geometry";
    c.geometry_type = r.get<std::string>(7);
    c.srid = r.get<int>(8);
    if (c.primary_key) layer.primary_key = c.name;
    if (c.geometry && layer.geometry_column.empty()) layer.geometry_column = c.name;
    layer.columns.push_back(std::move(c));
  }
  return cat;
}

const Layer* Catalog::find(std::string_view name) const noexcept {
  auto it = layers_.find(name);
  return it == layers_.end() ? nullptr : &it->second;
}

const Layer& Catalog::require(std::string_view name) const {
  query::check_identifier(name, "camada");
  if (const Layer* l = find(name)) return *l;
  throw Error(errc::layer_not_found, "camada não encontrada: " + std::string(name), "camada");
}

std::shared_ptr<const Catalog> CatalogCache::get(const Tenant& t, Pool& db, std::string_view schema) {
  std::pair<std::int64_t, std::string> key{t.id, std::string(schema)};
  {
    std::lock_guard lock(mutex_);
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second.catalog;
  }
  auto loaded = std::make_shared<const Catalog>(db.with([&](soci::session& s) { return Catalog::load(s, schema); }));
  std::lock_guard lock(mutex_);
  cache_[key] = {loaded, std::chrono::steady_clock::now()};
  return loaded;
}

std::shared_ptr<const Catalog> CatalogCache::reload(const Tenant& t, Pool& db, std::string_view schema) {
  std::pair<std::int64_t, std::string> key{t.id, std::string(schema)};
  {
    std::lock_guard lock(mutex_);
    auto it = cache_.find(key);
    if (it != cache_.end() && std::chrono::steady_clock::now() - it->second.loaded < min_reload_interval_)
      return it->second.catalog;
    cache_.erase(key);
  }
  return get(t, db, schema);
}

void CatalogCache::invalidate(std::int64_t tenant_id) {
  std::lock_guard lock(mutex_);
  for (auto it = cache_.begin(); it != cache_.end();) {
    if (it->first.first == tenant_id) it = cache_.erase(it);
    else ++it;
  }
}

void CatalogCache::clear() {
  std::lock_guard lock(mutex_);
  cache_.clear();
}

}  // namespace cadastre::store
