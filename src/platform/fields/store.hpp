// The fields of platform forms (projeto.campos) and what reads or rewrites their values as
// a whole: the summary, the Formly definition, the valuation variables and the type
// converter. Lists show only the fields of layers the caller may see (the guard's SQL).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cadastre/field_definitions.hpp"
#include "platform/fields/input.hpp"
#include "platform/paging.hpp"
#include "service/caller.hpp"

namespace cadastre::platform::fields {

/// The SQL expression of the JSON of the field aliased `k` (projeto.campos): the shared
/// Field shape, for the forms' nested lists too.
std::string field_json_sql(const std::string& k);

/// The columns v2 lists may be ordered by.
inline const std::vector<std::string> kOrderColumns = {"id", "nome", "chave", "ordem"};

/// The fields the caller may see, of one form or all.
std::string list(const service::Caller& s, std::optional<std::int64_t> formulario);
/// A page of them in the v2 shape (with idCamada, idProjeto, quantidadeValores).
store::PageRows page(const service::Caller& s, std::optional<std::int64_t> formulario,
                     std::optional<std::int64_t> camada, const Page& page);
/// One field (404 when gone); `v2` adds idCamada, idProjeto and quantidadeValores.
std::string one(store::Pool& pool, std::int64_t id, bool v2 = false);

/// Creates a field after the checks that need the database: the key free in the layer
/// (409), the formula's keys numeric fields of the layer (400), the domain table in the
/// tenant's `dominio` schema (400), the valuation variable free in the project (409).
std::int64_t create(const service::Caller& s, const NewField& f);
/// Changes a field under the same checks; its type changes only through the converter
/// (400), and a key a formula reads keeps its name (409).
void update(const service::Caller& s, std::int64_t id, const field_values::Changes& c);

/// GET /campos/resumo: per field of the layer (or of one of its forms), in one statement
/// over the layer's table (its fields read first): quantidade, preenchidos, distintos and,
/// for numbers and dates, minimo, maximo (and media for numbers).
std::string summary(store::Pool& pool, std::int64_t camada, std::optional<std::int64_t> formulario);

/// The active fields of the layer's active forms, in order, as Formly JSON.
std::string formly(const service::Caller& s, std::int64_t camada);

/// The project's fields marked as valuation variables, of the layers the caller may see.
std::string valuation(const service::Caller& s, std::int64_t projeto);

struct Converted {
  field_values::Plan plan;
  bool applied = false;
  std::vector<std::int64_t> fields;  ///< the changed or created fields, when applied
};
/// Plans the conversion of every value of the field (or its split) and, when `confirmar`
/// and nothing fails, applies it in one transaction: values rewritten, the field retyped
/// (or the new fields created), one audit row per value written, the layer's tile
/// generation bumped. The field's row is locked meanwhile.
Converted convert_values(const service::Caller& s, std::int64_t id, const Conversion& c);

}  // namespace cadastre::platform::fields
