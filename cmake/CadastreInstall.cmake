# Installs the library modules, public headers and an exported CMake package, so other
# C++ programs can `find_package(cadastre)` and link `cadastre::cadastre`.
include(CMakePackageConfigHelpers)
get_property(modules GLOBAL PROPERTY CADASTRE_MODULES)
install(TARGETS ${modules} cadastre EXPORT cadastreTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/cadastre DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT cadastreTargets NAMESPACE cadastre:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cadastre)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/cadastreConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cadastreConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cadastre)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cadastreConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cadastreConfig.cmake ${PROJECT_BINARY_DIR}/cadastreConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cadastre)
