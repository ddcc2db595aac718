// A tenant's layer catalog: the tables of a schema (`cadastro` for layers, `dominio` for
// domain tables) with their columns, primary key and geometry column, read from
// pg_catalog. Every name that arrives in a URL ({camada}, {field}, filter names) is
// checked against it before any SQL is built: an unknown layer is 404, an unknown field
// 400. Names reach SQL only through query::quote_identifier.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "store/identity.hpp"
#include "store/pool.hpp"

namespace cadastre::store {

struct Column {
  std::string name;
  std::string type;           ///< format_type(), e.g. "numeric(12,2)", "geometry(MultiPolygon,4674)"
  std::string base_type;      ///< pg_type.typname, e.g. "numeric", "geometry", "text"
  bool nullable = true;
  bool has_default = false;
  bool primary_key = false;
  bool geometry = false;
  std::string geometry_type;  ///< e.g. "MultiPolygon" (geometry columns only)
  int srid = 0;
  /// True for text-like columns (text, varchar, char): LIKE filters need no cast.
  bool textual() const noexcept;
  bool numeric() const noexcept;
  /// int2, int4 or int8.
  bool integer() const noexcept;
};

struct Layer {
  std::string schema, name;
  std::vector<Column> columns;
  std::string primary_key;      ///< single-column key, empty when none or composite
  std::string geometry_column;  ///< first geometry column, empty when none
  double row_estimate = 0;      ///< pg_class.reltuples (−1 if never analysed)
  bool is_view = false;

  const Column* column(std::string_view name) const noexcept;
  /// The column, or Error(unknown_field, naming `what`) when it does not exist.
  const Column& require_column(std::string_view name, std::string_view what = "campo") const;
  /// "schema"."name", quoted.
  std::string qualified() const;
};

class Catalog {
 public:
  /// Reads the tables and views of `schema`.
  static Catalog load(soci::session& s, std::string_view schema);

  const Layer* find(std::string_view name) const noexcept;
  /// Identifier rules first (400), then lookup (404 camada_nao_encontrada).
  const Layer& require(std::string_view name) const;
  const std::map<std::string, Layer, std::less<>>& layers() const noexcept { return layers_; }
  const std::string& schema() const noexcept { return schema_; }

 private:
  std::string schema_;
  std::map<std::string, Layer, std::less<>> layers_;
};

/// Catalogs per tenant and schema, loaded on first use and kept until invalidated
/// (schema changes are rare and explicit: /portal/cache-reloader or a migration).
class CatalogCache {
 public:
  /// `min_reload_interval` throttles reloads triggered by unknown names (see reload()).
  explicit CatalogCache(std::chrono::milliseconds min_reload_interval = std::chrono::seconds(2))
      : min_reload_interval_(min_reload_interval) {}

  std::shared_ptr<const Catalog> get(const Tenant& t, Pool& db, std::string_view schema = "cadastro");
  /// Reloads the catalog unless it was loaded less than min_reload_interval ago, and
  /// returns the current one. Called when a name is not found, so a table created after
  /// start-up becomes addressable without a restart, while a flood of unknown names costs
  /// at most one catalog query per interval.
  std::shared_ptr<const Catalog> reload(const Tenant& t, Pool& db, std::string_view schema = "cadastro");
  void invalidate(std::int64_t tenant_id);
  void clear();

 private:
  struct Entry {
    std::shared_ptr<const Catalog> catalog;
    std::chrono::steady_clock::time_point loaded;
  };
  std::chrono::milliseconds min_reload_interval_;
  std::mutex mutex_;
  std::map<std::pair<std::int64_t, std::string>, Entry> cache_;
};

}  // namespace cadastre::store
