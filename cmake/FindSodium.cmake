# Finds libsodium through pkg-config. Defines sodium::sodium.
find_package(PkgConfig REQUIRED)
pkg_check_modules(SODIUM REQUIRED IMPORTED_TARGET libsodium)
if(NOT TARGET sodium::sodium)
  add_library(sodium::sodium INTERFACE IMPORTED)
  target_link_libraries(sodium::sodium INTERFACE PkgConfig::SODIUM)
endif()
set(Sodium_FOUND TRUE)
