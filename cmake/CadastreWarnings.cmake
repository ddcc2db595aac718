# Warning and sanitizer flags shared by every target of the project.
add_library(cadastre_warnings INTERFACE)
target_compile_options(cadastre_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align
  -Woverloaded-virtual -Wimplicit-fallthrough)
if(CADASTRE_SANITIZE)
  target_compile_options(cadastre_warnings INTERFACE -fsanitize=${CADASTRE_SANITIZE} -fno-omit-frame-pointer)
  target_link_options(cadastre_warnings INTERFACE -fsanitize=${CADASTRE_SANITIZE})
endif()
install(TARGETS cadastre_warnings EXPORT cadastreTargets)
