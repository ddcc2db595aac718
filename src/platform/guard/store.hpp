// The guard's reads of the tenant database (platform/guard/guard.hpp has the rules' use).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "platform/guard/guard.hpp"

namespace cadastre::platform::guard {

/// Where a record sits and how the caller stands there.
struct Located {
  std::string noun;  ///< "camada", "formulário"... for messages
  std::int64_t project_id = 0, layer_id = 0;  ///< layer 0: a project-level record
  Standing standing;
};

/// The record `id` of kind `record` in the caller's tenant, with the caller's standing on
/// it (nullopt: no such record). std::logic_error for an unknown kind.
std::optional<Located> locate(const service::Scope& scope, std::string_view record, std::int64_t id);

}  // namespace cadastre::platform::guard
