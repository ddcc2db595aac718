// The platform's layers in the tenant's database (projeto.camadas, migration 0015). Every
// answer is built by PostgreSQL as JSON in the shared Layer shape; lists show only what the
// caller may see (guard::layer_role_sql), so a layer the caller has no role on is as absent
// from a list as from GET /camadas/:id.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "platform/layers/input.hpp"
#include "platform/paging.hpp"
#include "service/caller.hpp"

namespace cadastre::platform::layers {

/// The columns GET /camadas/v2 may be ordered by.
inline const std::vector<std::string> kOrderColumns = {"id", "nome", "ordem", "criadoEm"};

/// The SQL of one layer `c` as the Layer JSON, with `papel_sql` as its "papel" (SQL we
/// wrote: guard::layer_role_sql). Shared with the style and v2 answers.
std::string layer_json_sql(const std::string& papel_sql);

/// The layers the caller sees, filtered (active ones unless filter.inactive), ordered by
/// project, ordem, id; `with_project` adds "nomeProjeto".
std::string list(const service::Caller& s, const ListFilter& filter, bool with_project);
/// A page of the layers the caller sees (idProjeto, ativo filters).
store::PageRows page(const service::Caller& s, const ListFilter& filter, const Page& page);
/// The light list of a layer picker: {"id","idProjeto","nome","geometria","tipo",
/// "geometrias" (count), "bbox"} of active layers of active projects, at most `limit`.
std::string preview(const service::Caller& s, const ListFilter& filter, int limit);

/// One layer (the guard has shown it to the caller).
std::string one(const service::Caller& s, std::int64_t id);
/// One layer with its forms, each with its fields (GET /camadas/v2/:id).
std::string one_nested(const service::Caller& s, std::int64_t id);

/// Creates a vector layer in the project (admin checked by the caller); returns its id.
std::int64_t create(const service::Caller& s, const LayerFields& f);
/// Changes a layer; 409 when the new geometria excludes geometries the layer holds.
void update(const service::Caller& s, std::int64_t id, const LayerFields& f);
/// ativo := `active`; 409 naming the current state when it already is.
void set_active(const service::Caller& s, std::int64_t id, bool active);
void set_private(const service::Caller& s, std::int64_t id, bool privada);

/// What deleting a layer needs to know about it.
struct Kind {
  std::string tipo;
  std::optional<std::string> arquivo;
};
Kind kind_of(const service::Caller& s, std::int64_t id);
/// Deletes the row (its forms, fields, geometries and values go with it).
void remove(const service::Caller& s, std::int64_t id);

/// The stored extent: the geometries' (vetor) or the one recorded at creation (extensao).
struct Extent {
  std::string tipo;
  std::optional<std::string> arquivo;
  std::optional<std::array<double, 4>> bbox;
};
Extent extent(const service::Caller& s, std::int64_t id);
/// {"idCamada","tipo","bbox":[minx,miny,maxx,maxy]|null,"srid":4674}.
std::string extent_json(std::int64_t id, const std::string& tipo, const std::optional<std::array<double, 4>>& bbox);

/// SQL array of the geometrytype() names a layer of `geometria` holds (ponto: POINT and
/// MULTIPOINT...); empty for "qualquer".
std::string geometry_types_sql(const std::string& geometria);

/// Adds 1 to the layer's generation (the tiles' ETag) inside the caller's transaction.
void bump_generation(soci::session& db, std::int64_t id);

}  // namespace cadastre::platform::layers
