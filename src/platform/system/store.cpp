#include "platform/system/store.hpp"

#include <soci/soci.h>

namespace cadastre::platform::system {

std::string migration_level(store::Pool& pool, const std::string& set) {
  return pool.with([&](soci::session& s) {
    std::string version;
    soci::indicator ind;
    s << "select max(version) from public.cadastre_migrations where set_name = :s", soci::use(set),
        soci::into(version, ind);
    return ind == soci::i_ok ? version : std::string();
  });
}

PostgisRoundTrip postgis_round_trip(store::Pool& pool, const std::string& wkt) {
  return pool.with([&](soci::session& s) {
    PostgisRoundTrip out;
    int valid = 0;
    s << "select st_astext(g), st_isvalid(g)::int, st_area(g::geography), postgis_lib_version() "
         "from (select st_geomfromtext(:w, 4674) as g) x",
        soci::use(wkt), soci::into(out.wkt), soci::into(valid), soci::into(out.area_m2), soci::into(out.postgis_version);
    out.valid = valid != 0;
    return out;
  });
}

}  // namespace cadastre::platform::system
