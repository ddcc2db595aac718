#include "platform/geostatistics/prepared.hpp"

#include <cmath>

#include "cadastre/error.hpp"

namespace cadastre::platform::geostatistics {

Prepared prepare_samples(const service::Scope& s, std::int64_t layer, const FieldParam& field,
                         const std::optional<FieldParam>& check, bool log) {
  check_fields(s, layer, {field}, check);
  std::vector<geostat::Sample> lonlat;
  Prepared out;
  std::string bad;
  std::size_t n_bad = 0;
  for (const SampleRow& r : load_rows(s, layer, {field}, check)) {
    if (!r.values[0]) continue;  // a geometry without the value is not a sample
    double v = *r.values[0];
    if (log && v <= 0) {
      if (n_bad++ < 10) bad += (bad.empty() ? "" : ", ") + std::to_string(r.geometry);
      continue;
    }
    lonlat.push_back({r.lon, r.lat, log ? std::log(v) : v});
    out.geometries.push_back(r.geometry);
  }
  if (n_bad)
    throw Error(errc::invalid_argument,
                field.param + ": ln(valor) exige valores positivos; " + std::to_string(n_bad) +
                    " amostra(s) com valor ≤ 0 (geometrias " + bad + (n_bad > 10 ? ", ..." : "") + ")",
                field.param);
  if (lonlat.size() < 3)
    throw Error(errc::unprocessable,
                "amostras: a camada tem " + std::to_string(lonlat.size()) + " amostra(s) com valor; são precisas ao menos 3",
                "amostras");
  out.projected = geostat::project_to_utm(lonlat);
  return out;
}

}  // namespace cadastre::platform::geostatistics
