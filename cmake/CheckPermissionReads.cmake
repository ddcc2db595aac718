# Fails when a handler or store of cadastre-platform decides a permission itself by reading
# the caller's administrator flags (user.admin, user.platform_admin). Permissions are data in
# the route table (http::Access) resolved by the guard (src/platform/guard/), which is the one
# place that reads them; handlers ask it (guard::require, guard::reach). The auth scheme
# (src/platform/auth.cpp) reads them to choose the tenant a session may act in.
# Usage: cmake -DDIR=<repo>/src -P CheckPermissionReads.cmake
set(bad "")
file(GLOB_RECURSE files "${DIR}/platform/*.hpp" "${DIR}/platform/*.cpp")
foreach(f ${files})
  if(f MATCHES "/platform/guard/" OR f MATCHES "/platform/auth\\.cpp$")
    continue()
  endif()
  file(STRINGS "${f}" lines REGEX "user(\\.|->)(admin|platform_admin)([^a-z_]|$)")
  foreach(l ${lines})
    list(APPEND bad "${f}: ${l}")
  endforeach()
endforeach()
if(bad)
  string(REPLACE ";" "\n" bad "${bad}")
  message(FATAL_ERROR "permission decided outside the guard (ask platform/guard instead):\n${bad}")
endif()
message(STATUS "only the guard reads the caller's administrator flags")
