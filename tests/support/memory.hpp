// The peak resident memory of this process, which holds the test and the servers it
// started in-process: reset it, do the work, read how high it went. Linux only
// (/proc/self/clear_refs "5" resets VmHWM, since Linux 4.0).
#pragma once

#include <cstdint>
#include <fstream>
#include <string>

namespace cadastre::test {

/// Sets the peak (VmHWM) back to the current resident size.
inline void reset_peak_memory() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
}

/// The highest resident size since the last reset, in MB.
inline std::int64_t peak_memory_mb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stoll(line.substr(6)) / 1024;  // kB
  return -1;
}

/// The resident size now, in MB.
inline std::int64_t resident_memory_mb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6)) / 1024;
  return -1;
}

}  // namespace cadastre::test
