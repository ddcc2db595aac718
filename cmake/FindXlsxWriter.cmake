# Finds libxlsxwriter (Debian: libxlsxwriter-dev), through pkg-config when it has a .pc
# file, else by header and library. Defines XlsxWriter::XlsxWriter.
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(PC_XLSXWRITER QUIET xlsxwriter)
endif()
find_path(XlsxWriter_INCLUDE_DIR xlsxwriter.h HINTS ${PC_XLSXWRITER_INCLUDE_DIRS})
find_library(XlsxWriter_LIBRARY NAMES xlsxwriter HINTS ${PC_XLSXWRITER_LIBRARY_DIRS})
find_package(ZLIB QUIET)  # libxlsxwriter compresses its parts with zlib

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(XlsxWriter REQUIRED_VARS XlsxWriter_LIBRARY XlsxWriter_INCLUDE_DIR)
if(XlsxWriter_FOUND AND NOT TARGET XlsxWriter::XlsxWriter)
  add_library(XlsxWriter::XlsxWriter UNKNOWN IMPORTED)
  set_target_properties(XlsxWriter::XlsxWriter PROPERTIES
    IMPORTED_LOCATION "${XlsxWriter_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${XlsxWriter_INCLUDE_DIR}")
  if(ZLIB_FOUND)
    set_property(TARGET XlsxWriter::XlsxWriter APPEND PROPERTY INTERFACE_LINK_LIBRARIES ZLIB::ZLIB)
  endif()
endif()
mark_as_advanced(XlsxWriter_INCLUDE_DIR XlsxWriter_LIBRARY)
