# Finds SOCI 4 (core + PostgreSQL backend) as packaged by Debian (no CMake config shipped).
# Defines SOCI::core and SOCI::postgresql.
find_path(SOCI_INCLUDE_DIR soci/soci.h)
find_library(SOCI_CORE_LIBRARY soci_core)
find_library(SOCI_POSTGRESQL_LIBRARY soci_postgresql)
find_package(PostgreSQL REQUIRED)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(SOCI REQUIRED_VARS SOCI_INCLUDE_DIR SOCI_CORE_LIBRARY SOCI_POSTGRESQL_LIBRARY)
if(SOCI_FOUND AND NOT TARGET SOCI::core)
  add_library(SOCI::core UNKNOWN IMPORTED)
  set_target_properties(SOCI::core PROPERTIES IMPORTED_LOCATION "${SOCI_CORE_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${SOCI_INCLUDE_DIR}")
  add_library(SOCI::postgresql UNKNOWN IMPORTED)
  set_target_properties(SOCI::postgresql PROPERTIES IMPORTED_LOCATION "${SOCI_POSTGRESQL_LIBRARY}"
    INTERFACE_LINK_LIBRARIES "SOCI::core;PostgreSQL::PostgreSQL")
endif()
