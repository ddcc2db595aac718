# The repository's shape rules (docs/architecture.md, "The shape of an area"), each run as
# a test of its own:
#   cmake -DDIR=<repo>/src -DRULE=<rule> -P CheckShape.cmake
#
# services_do_not_include_each_other
#   cadastre-server (src/server), cadastre-platform (src/platform) and cadastre-gateway
#   (src/gateway) share code only through components they all link (src/service,
#   src/store, src/http, src/file_store, ...), declared in CMake; those include no service.
# permissions_are_decided_by_the_guard
#   Only the platform's guard (src/platform/guard/) reads the caller's administrator flags
#   (user.admin, user.platform_admin); handlers and stores ask it. The auth scheme
#   (src/platform/auth.cpp) reads them to choose the tenant a session may act in.
# handlers_see_no_app
#   An area's routes.cpp names App only in add_<area>_routes(App& app), which builds the
#   area's narrow context; no handler takes App and no lambda captures it whole.
# stores_take_no_scope
#   A store (store*.hpp / store*.cpp of an area) takes the tenant's pool and the caller
#   (service::Caller), never the Scope with its guard and grant. The guard's own store is
#   the permission check itself and is exempt.

# `out` = "file: line" for each line of the files in ARGN that matches `regex`.
function(matching_lines out regex)
  set(found "")
  foreach(f ${ARGN})
    file(STRINGS "${f}" lines REGEX "${regex}")
    foreach(l ${lines})
      list(APPEND found "${f}: ${l}")
    endforeach()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

set(include_service "^[ \t]*#[ \t]*include[ \t]*\"(server|platform|gateway)/")
set(bad "")
if(RULE STREQUAL "services_do_not_include_each_other")
  foreach(service server platform gateway)
    file(GLOB_RECURSE files "${DIR}/${service}/*.hpp" "${DIR}/${service}/*.cpp")
    matching_lines(found "${include_service}" ${files})
    list(FILTER found EXCLUDE REGEX "include[ \t]*\"${service}/")
    list(APPEND bad ${found})
  endforeach()
  file(GLOB_RECURSE shared "${DIR}/*.hpp" "${DIR}/*.cpp")
  list(FILTER shared EXCLUDE REGEX "/src/(server|platform|gateway)/")
  matching_lines(found "${include_service}" ${shared})
  list(APPEND bad ${found})
  set(why "includes across services")
elseif(RULE STREQUAL "permissions_are_decided_by_the_guard")
  file(GLOB_RECURSE files "${DIR}/platform/*.hpp" "${DIR}/platform/*.cpp")
  list(FILTER files EXCLUDE REGEX "/platform/guard/|/platform/auth\\.cpp$")
  matching_lines(bad "user(\\.|->)(admin|platform_admin)([^a-z_]|$)" ${files})
  set(why "permission decided outside the guard (ask platform/guard instead)")
elseif(RULE STREQUAL "handlers_see_no_app")
  file(GLOB_RECURSE files "${DIR}/server/*/routes.cpp" "${DIR}/platform/*/routes.cpp")
  matching_lines(bad "(^|[^A-Za-z_])App([^A-Za-z_]|$)" ${files})
  list(FILTER bad EXCLUDE REGEX ": void add_[a-z0-9_]+_routes\\(App& app\\) {$")
  matching_lines(captures "[[,][ ]*&?app[ ]*[],]" ${files})
  list(APPEND bad ${captures})
  set(why "a handler reaches the App (give it its area's narrow context instead)")
elseif(RULE STREQUAL "stores_take_no_scope")
  file(GLOB_RECURSE files "${DIR}/server/*/store*.hpp" "${DIR}/server/*/store*.cpp"
       "${DIR}/platform/*/store*.hpp" "${DIR}/platform/*/store*.cpp")
  list(FILTER files EXCLUDE REGEX "/platform/guard/")
  matching_lines(bad "(^|[^A-Za-z_])Scope([^A-Za-z_]|$)" ${files})
  set(why "a store takes a Scope (take the pool and a service::Caller instead)")
else()
  message(FATAL_ERROR "unknown rule '${RULE}'")
endif()
if(bad)
  string(REPLACE ";" "\n" bad "${bad}")
  message(FATAL_ERROR "${why}:\n${bad}")
endif()
message(STATUS "${RULE}: holds")
