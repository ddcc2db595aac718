# Fails when one service includes another's internals: cadastre-server (src/server),
# cadastre-platform (src/platform) and cadastre-gateway (src/gateway) share code only
# through components every one of them links (src/service, src/store, src/http,
# src/media_layout, ...), declared in CMake.
# Usage: cmake -DDIR=<repo>/src -P CheckServiceIncludes.cmake
set(bad "")
foreach(service server platform gateway)
  file(GLOB_RECURSE files "${DIR}/${service}/*.hpp" "${DIR}/${service}/*.cpp")
  foreach(f ${files})
    file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"(server|platform|gateway)/")
    foreach(l ${lines})
      if(NOT l MATCHES "\"${service}/")
        list(APPEND bad "${f}: ${l}")
      endif()
    endforeach()
  endforeach()
endforeach()
# Shared components include no service at all.
file(GLOB_RECURSE shared "${DIR}/*.hpp" "${DIR}/*.cpp")
foreach(f ${shared})
  if(f MATCHES "/src/(server|platform|gateway)/")
    continue()
  endif()
  file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"(server|platform|gateway)/")
  foreach(l ${lines})
    list(APPEND bad "${f}: ${l}")
  endforeach()
endforeach()
if(bad)
  string(REPLACE ";" "\n" bad "${bad}")
  message(FATAL_ERROR "includes across services:\n${bad}")
endif()
message(STATUS "no service includes another's files")
