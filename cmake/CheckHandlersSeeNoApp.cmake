# Fails when a handler can reach the whole App. An area's routes.cpp names App only in the
# signature of its registration function, add_<area>_routes(App& app), which builds the
# area's narrow context (pools, options, job runner...) from it; no handler, context or
# helper takes App, and no lambda captures it whole (capturing one of its parts, such as
# `heavy = &app.heavy_reads()`, is the narrow way). docs/architecture.md, "The shape of an
# area".
# Usage: cmake -DDIR=<repo>/src -P CheckHandlersSeeNoApp.cmake
set(bad "")
file(GLOB_RECURSE files "${DIR}/server/*/routes.cpp" "${DIR}/platform/*/routes.cpp")
foreach(f ${files})
  file(STRINGS "${f}" lines REGEX "(^|[^A-Za-z_])App([^A-Za-z_]|$)")
  foreach(l ${lines})
    if(NOT l MATCHES "^void add_[a-z0-9_]+_routes\\(App& app\\) {$")
      list(APPEND bad "${f}: ${l}")
    endif()
  endforeach()
  file(STRINGS "${f}" captures REGEX "[[,][ ]*&?app[ ]*[],]")
  foreach(l ${captures})
    list(APPEND bad "${f}: ${l}")
  endforeach()
endforeach()
if(bad)
  string(REPLACE ";" "\n" bad "${bad}")
  message(FATAL_ERROR "a handler reaches the App (give it its area's narrow context instead):\n${bad}")
endif()
message(STATUS "handlers see a Scope and their area's context, never the App")
