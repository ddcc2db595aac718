// The forms of platform layers (projeto.formularios). Lists show only the forms of layers
// the caller may see (the guard's SQL); a form is deleted only when nothing depends on it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "platform/forms/input.hpp"
#include "platform/paging.hpp"
#include "service/caller.hpp"

namespace cadastre::platform::forms {

/// The columns v2 lists may be ordered by.
inline const std::vector<std::string> kOrderColumns = {"id", "nome", "ordem"};

/// The forms the caller may see, of one layer or all; `ativo` filters when set.
std::string list(const service::Caller& s, std::optional<std::int64_t> camada, std::optional<bool> ativo);
/// A page of them, each with its fields nested ("campos").
store::PageRows page(const service::Caller& s, std::optional<std::int64_t> camada, std::optional<bool> ativo,
                     const Page& page);
/// One form; `nested` adds its fields.
std::string one(store::Pool& pool, std::int64_t id, bool nested = false);

/// Creates a form at the end of the layer's forms unless `ordem` says where. Returns its id.
std::int64_t create(store::Pool& pool, std::int64_t camada, const Fields& f);
void update(store::Pool& pool, std::int64_t id, const Fields& f);
/// Activates or deactivates (409 naming the state when it already is so).
void set_active(store::Pool& pool, std::int64_t id, bool ativo);

/// Why a form may not be deleted.
struct Reason {
  std::string codigo, mensagem;
  std::int64_t quantidade = 0;
};
/// valores (values stored in its fields), avaliacao (fields that are valuation variables),
/// rotulo and categorias (fields the layer's labels or categories name), formula (calculated
/// fields of the layer's other forms that read its fields).
std::vector<Reason> reasons(store::Pool& pool, std::int64_t id);
/// Deletes the form with its fields when no reason holds, in one transaction with the
/// reasons' check (the form's row locked). Returns the reasons: empty when deleted.
std::vector<Reason> remove(store::Pool& pool, std::int64_t id);

}  // namespace cadastre::platform::forms
