#include "gateway/process_stats.hpp"

#include <unistd.h>

#include <fstream>

namespace cadastre::gateway {

std::optional<std::uint64_t> resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t size_pages = 0, resident_pages = 0;
  if (!(statm >> size_pages >> resident_pages)) return std::nullopt;
  long page = sysconf(_SC_PAGESIZE);
  return resident_pages * static_cast<std::uint64_t>(page > 0 ? page : 4096);
}

}  // namespace cadastre::gateway
