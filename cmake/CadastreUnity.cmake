# Unity builds (docs/decisions/0014-cold-build-time.md).
#
# Most of a cold build went into parsing the same heavy headers (Boost, SOCI, simdjson,
# doctest, cpp-httplib) again in hundreds of translation units. A unity build compiles
# several .cpp files as one translation unit, so each header is parsed and each template
# instantiated once per batch. Diagnostics and doctest's failures still name the
# original file and line (the batch file only #includes them).
#
# Two modes:
# - batches of 8 (CMake's BATCH mode), the default for every target: library modules and
#   test suites, whose files are written to live in one program;
# - one batch per folder (cadastre_unity_by_folder), for the services' app libraries:
#   the handlers of two areas share names in anonymous namespaces (create, update...), the
#   files of one area do not, and an edit to one area recompiles that area alone.
#
# CADASTRE_UNITY_BUILD=OFF compiles every file on its own (to check that each still
# includes what it uses, or to bisect a name clash).
option(CADASTRE_UNITY_BUILD "Compile several .cpp files per translation unit (faster cold builds)" ON)
set(CMAKE_UNITY_BUILD ${CADASTRE_UNITY_BUILD})
set(CMAKE_UNITY_BUILD_BATCH_SIZE 8)

# cadastre_unity_by_folder(<target>): one unity batch per source folder of <target>.
function(cadastre_unity_by_folder target)
  if(NOT CADASTRE_UNITY_BUILD)
    return()
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD_MODE GROUP)
  get_target_property(srcs ${target} SOURCES)
  foreach(src IN LISTS srcs)
    get_filename_component(dir "${src}" DIRECTORY)
    file(RELATIVE_PATH rel "${PROJECT_SOURCE_DIR}" "${dir}")
    string(MAKE_C_IDENTIFIER "${rel}" group)
    set_source_files_properties("${src}" TARGET_DIRECTORY ${target} PROPERTIES UNITY_GROUP "${group}")
  endforeach()
endfunction()
