# Finds OpenLDAP's client library (libldap) and its BER/ASN.1 library (liblber).
# Defines Ldap::Ldap. Debian: libldap-dev.
find_path(LDAP_INCLUDE_DIR ldap.h)
find_library(LDAP_LIBRARY NAMES ldap)
find_library(LBER_LIBRARY NAMES lber)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Ldap REQUIRED_VARS LDAP_LIBRARY LBER_LIBRARY LDAP_INCLUDE_DIR)
if(Ldap_FOUND AND NOT TARGET Ldap::Ldap)
  add_library(Ldap::Ldap INTERFACE IMPORTED)
  target_include_directories(Ldap::Ldap INTERFACE ${LDAP_INCLUDE_DIR})
  target_link_libraries(Ldap::Ldap INTERFACE ${LDAP_LIBRARY} ${LBER_LIBRARY})
endif()
mark_as_advanced(LDAP_INCLUDE_DIR LDAP_LIBRARY LBER_LIBRARY)
