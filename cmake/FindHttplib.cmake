# Finds Debian's compiled cpp-httplib (0.11) through pkg-config. Defines httplib::httplib.
find_package(PkgConfig REQUIRED)
pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)
find_package(OpenSSL REQUIRED)
if(NOT TARGET httplib::httplib)
  add_library(httplib::httplib INTERFACE IMPORTED)
  target_link_libraries(httplib::httplib INTERFACE PkgConfig::HTTPLIB OpenSSL::SSL OpenSSL::Crypto Threads::Threads)
endif()
set(Httplib_FOUND TRUE)
