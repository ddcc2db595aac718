// The geometries' SQL. Reads (store.cpp) answer JSON built by PostgreSQL; writes
// (store_write.cpp, store_edit.cpp, store_offline.cpp) are each one transaction that
//   - reads and checks the geometry in the database (projeto.geometria_ler: readable, not
//     empty, valid for GEOS — else 400 with GEOS's reason — and transformed to 4674), and
//     checks its type against the layer's `geometria`;
//   - takes the rows it changes FOR UPDATE (ascending id) and refuses a stale version
//     (Stale → 409 with the current version): `update ... where id = $1 and versao = $2`,
//     so no update is ever lost;
//   - audits every geometry it writes (projeto.geometria_registrar: before and after in
//     projeto.geometrias_auditoria) and bumps the layer's tile generation (last lock).
// Each returns what it touched (layer, id, version, boxes before and after) so the route
// announces it after the commit.
#pragma once

#include <array>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "platform/geometries/input.hpp"
#include "platform/paging.hpp"
#include "platform/values/store_write.hpp"
#include "store/pool.hpp"

namespace cadastre::platform::geometries {

/// A geometry written: for the live event (tiles from the boxes, lon/lat).
struct Touched {
  std::int64_t layer = 0, id = 0;
  std::optional<std::int64_t> versao;  ///< none: deleted
  std::string operacao;
  std::vector<std::array<double, 4>> boxes;  ///< before and/or after: min lon, min lat, max lon, max lat
  bool valores = false;  ///< values were written with it (announced as "valor_alterado" too)
};

struct Written {
  std::string json;
  std::vector<Touched> touched;
};

/// A write based on a version that is no longer the geometry's (409 with versaoAtual).
struct Stale : std::exception {
  std::int64_t id = 0, current = 0;
  Stale(std::int64_t i, std::int64_t c) : id(i), current(c) {}
  const char* what() const noexcept override { return "versão desatualizada"; }
};

/// Values sent with a new geometry that the values area refused (its report per field):
/// nothing of that geometry is written (400 with campos; an offline item "recusado").
struct ValuesRefused : std::exception {
  std::vector<values::Problem> problems;
  explicit ValuesRefused(std::vector<values::Problem> p) : problems(std::move(p)) {}
  const char* what() const noexcept override { return "valores recusados"; }
  /// "nenhuma geometria gravada"-style text naming each refused field (chave, or the id).
  std::string fields_text() const;
};

// Reads (store.cpp). `layer` is a layer the caller may see.
store::PageRows list(store::Pool& pool, std::int64_t layer, const std::optional<Box>& bbox, const Page& page);
std::string one(store::Pool& pool, std::int64_t id);
/// GeoJSON FeatureCollection (RFC 7946) of one page: properties id, versao and the values by
/// chave; foreign members numberMatched and numberReturned.
std::string feature_collection(store::Pool& pool, std::int64_t layer, const std::optional<Box>& bbox, const Page& page);
/// Within r metres of the point (geography), nearest first, with distancia in metres.
std::string within_radius(store::Pool& pool, std::int64_t layer, const Around& a);
/// Covering the point.
std::string at_point(store::Pool& pool, std::int64_t layer, const Around& a);
/// Touching the square of half-side r metres centred on the point (its corners found on the
/// ellipsoid: r metres north, south, east and west).
std::string within_square(store::Pool& pool, std::int64_t layer, const Around& a);
/// For each id (all seen by the caller): whether it intersects the WKT and the area of the
/// intersection in m².
std::string intersecting(store::Pool& pool, const std::vector<std::int64_t>& ids, const std::string& wkt);
/// The layer's tile generation (camadas.geracao).
std::int64_t generation(store::Pool& pool, std::int64_t layer);

// Writes (store_write.cpp).
/// With g.valores, the values are written in the same transaction (ValuesRefused or the
/// values area's Error: nothing written) and the answer is the geometry plus "valores"
/// (as GET /valores/geometria/:id).
Written create(store::Pool& pool, std::int64_t user, std::int64_t layer, const NewGeometry& g);
Written change(store::Pool& pool, std::int64_t user, std::int64_t id, const Change& c);
Written remove(store::Pool& pool, std::int64_t user, std::int64_t id, std::int64_t versao);
/// All or nothing; ids must be checked by the caller (edicao on each).
Written remove_many(store::Pool& pool, std::int64_t user, const Union& order);

// Edits (store_edit.cpp).
/// Union into `manter` (same layer for all: else 400), the others deleted.
Written unite(store::Pool& pool, std::int64_t user, const Union& order);
/// Split a polygon by a line (parts keep a copy of the values; the largest keeps the id), or
/// with reshape keep only the largest part. Areas of the parts must sum to the original's
/// within 0.1% (geography, m²), else 409.
Written split(store::Pool& pool, std::int64_t user, std::int64_t id, const Split& s, bool reshape);
/// Copies of geometries into `layer`, with the values of fields whose chave and type match a
/// field of `form` (copiar-geometria) or of any form of the layer (form 0: copiar-amostras).
Written copy_into(store::Pool& pool, std::int64_t user, const std::vector<std::int64_t>& ids, std::int64_t layer,
                  std::int64_t form);
/// copiar-valores: counts {"geometrias","comOrigem","valores"}.
Written copy_values(store::Pool& pool, std::int64_t user, std::int64_t layer, const CopyValues& order);
/// The thematic class of the geometry for the layer's categorisation of `campo`.
Written thematic(store::Pool& pool, std::int64_t user, std::int64_t id, std::int64_t campo);

// Offline batches (store_offline.cpp): the report; `failed` when nothing was applied.
struct OfflineReport {
  std::string json;
  bool failed = false;
  std::vector<Touched> touched;
};
/// `authorize` is called, under the batch's locks, for each item not recorded before (the
/// guard's check of what it names: it throws to refuse the batch).
OfflineReport apply_offline(store::Pool& pool, std::int64_t user, const std::vector<OfflineItem>& items,
                            const std::function<void(const OfflineItem&)>& authorize);

}  // namespace cadastre::platform::geometries
