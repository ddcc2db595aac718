# Fails when a public header includes a third-party header: include/cadastre/ is the API
# that plugins and other programs compile against, and must stay free of GEOS, PROJ, SOCI,
# cpp-httplib, simdjson, fmt, Abseil and Boost.
# Usage: cmake -DDIR=<repo>/include -P CheckPublicHeaders.cmake
file(GLOB_RECURSE headers "${DIR}/*.hpp" "${DIR}/*.h")
set(bad "")
foreach(h ${headers})
  file(STRINGS "${h}" lines REGEX "^[ \t]*#[ \t]*include")
  foreach(l ${lines})
    if(l MATCHES "(geos|proj\\.h|proj/|soci|httplib|simdjson|fmt/|absl/|boost/|pybind11|libpq|sodium)")
      list(APPEND bad "${h}: ${l}")
    endif()
  endforeach()
endforeach()
if(bad)
  string(REPLACE ";" "\n" bad "${bad}")
  message(FATAL_ERROR "public headers include third-party headers:\n${bad}")
endif()
list(LENGTH headers n)
message(STATUS "${n} public headers, none includes a third-party header")
