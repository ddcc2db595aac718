# Warning and sanitizer flags shared by every target of the project.
add_library(cadastre_warnings INTERFACE)
target_compile_options(cadastre_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align
  -Woverloaded-virtual -Wimplicit-fallthrough
  # GCC 12 reports false positives for std::string concatenation (GCC bug 105329).
  $<$<CXX_COMPILER_ID:GNU>:-Wno-restrict>)
if(CADASTRE_SANITIZE)
  target_compile_options(cadastre_warnings INTERFACE -fsanitize=${CADASTRE_SANITIZE} -fno-omit-frame-pointer)
  target_link_options(cadastre_warnings INTERFACE -fsanitize=${CADASTRE_SANITIZE})
endif()
install(TARGETS cadastre_warnings EXPORT cadastreTargets)
