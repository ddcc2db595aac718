// Figures about this process for /health/detailed.
#pragma once

#include <cstdint>
#include <optional>

namespace cadastre::gateway {

/// Resident set size in bytes (from /proc/self/statm), when readable.
std::optional<std::uint64_t> resident_bytes();

}  // namespace cadastre::gateway
