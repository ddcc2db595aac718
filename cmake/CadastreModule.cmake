# cadastre_module(<name> [DEPS targets...] [PRIVATE_DEPS targets...])
#
# Declares one module of libcadastre: a static library built from src/<name>/*.cpp,
# exported as cadastre::<name>. Modules are separate libraries so a module and its unit
# tests build without the others; the umbrella target cadastre::cadastre links them all.
function(cadastre_module name)
  cmake_parse_arguments(M "" "" "DEPS;PRIVATE_DEPS" ${ARGN})
  file(GLOB srcs CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/src/${name}/*.cpp")
  if(NOT srcs)
    return()  # module not written yet
  endif()
  add_library(cadastre_${name} STATIC ${srcs})
  add_library(cadastre::${name} ALIAS cadastre_${name})
  target_include_directories(cadastre_${name}
    PUBLIC  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
            $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
    PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(cadastre_${name} PUBLIC ${M_DEPS} PRIVATE ${M_PRIVATE_DEPS} cadastre_warnings)
  set_target_properties(cadastre_${name} PROPERTIES EXPORT_NAME ${name} OUTPUT_NAME cadastre_${name})
  set_property(GLOBAL APPEND PROPERTY CADASTRE_MODULES cadastre_${name})
endfunction()

# cadastre_unit_test(<module> [LIBS targets...])
# Builds tests/unit/<module>/*.cpp into unit_<module> and registers it with CTest.
function(cadastre_unit_test module)
  cmake_parse_arguments(T "" "" "LIBS" ${ARGN})
  file(GLOB srcs CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/tests/unit/${module}/*.cpp")
  if(NOT srcs OR NOT TARGET cadastre_${module})
    return()
  endif()
  add_executable(unit_${module} ${srcs})
  target_link_libraries(unit_${module} PRIVATE cadastre_${module} ${T_LIBS} cadastre_doctest_main cadastre_warnings)
  target_include_directories(unit_${module} PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests)
  add_test(NAME unit_${module} COMMAND unit_${module})
  set_tests_properties(unit_${module} PROPERTIES LABELS unit)
endfunction()
