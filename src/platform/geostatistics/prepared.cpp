#include "platform/geostatistics/prepared.hpp"

#include <fmt/format.h>

#include <cmath>

#include "cadastre/error.hpp"
#include "cadastre/geom.hpp"

namespace cadastre::platform::geostatistics {

double central_meridian(int epsg) {
  int zone = epsg == 5396 ? 26 : 18 + (epsg - 31978);
  return -183.0 + 6.0 * zone;
}

void check_in_zone(double lon, int epsg, const std::string& what, const std::string& field) {
  double meridian = central_meridian(epsg), off = std::abs(lon - meridian);
  if (off > kMaxDegreesFromMeridian)
    throw Error(errc::unprocessable,
                fmt::format("{}: {} está a {:.1f}° do meridiano central ({:.0f}°) do fuso do variograma (EPSG:{}); a "
                            "projeção UTM só é usada até {:.0f}° dele. Ajuste um variograma no fuso das amostras "
                            "(GET /variogramas/automatico diz o EPSG) ou altere o epsg do modelo (PUT /variogramas)",
                            field, what, off, meridian, epsg, kMaxDegreesFromMeridian),
                field);
}

Prepared prepare_samples(const service::Caller& s, std::int64_t layer, const FieldParam& field,
                         const std::optional<FieldParam>& check, bool log, std::optional<int> epsg) {
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
  if (!epsg) {
    out.projected = geostat::project_to_utm(lonlat);
    return out;
  }
  // The model's zone: its range is in that zone's metres. The farthest sample decides.
  std::size_t far = 0;
  for (std::size_t i = 1; i < lonlat.size(); ++i)
    if (std::abs(lonlat[i].x - central_meridian(*epsg)) > std::abs(lonlat[far].x - central_meridian(*epsg))) far = i;
  check_in_zone(lonlat[far].x, *epsg, "a amostra (geometria " + std::to_string(out.geometries[far]) + ")", "amostras");
  out.projected.epsg = *epsg;
  out.projected.samples.reserve(lonlat.size());
  for (const auto& p : lonlat) {  // as project_to_utm does, into the given zone
    geom::Point q = geom::transform(geom::Point{p.x, p.y}, 4674, *epsg);
    out.projected.samples.push_back({q.x, q.y, p.value});
  }
  return out;
}

}  // namespace cadastre::platform::geostatistics
