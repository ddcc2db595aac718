#include <charconv>
#include <cmath>
#include <string>

#include "cadastre/error.hpp"
#include "cadastre/query.hpp"
#include "query/params.hpp"

namespace cadastre::query {
namespace {

double parse_coordinate(std::string_view text, std::string_view field, double limit) {
  double v = 0;
  // from_chars accepts "-46.63" or "1e2" and rejects "+1" and " 1"; requiring the whole
  // string to be consumed rejects "0x1" and "1,5"; "nan"/"inf" fail the finiteness check.
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(v)) {
    throw Error(errc::invalid_argument,
                "parâmetro '" + std::string(field) + "' deve ser um número decimal (recebido: '" +
                    detail::printable(text) + "')",
                std::string(field));
  }
  if (std::fabs(v) > limit) {
    throw Error(errc::invalid_argument,
                "parâmetro '" + std::string(field) + "' fora do intervalo [-" +
                    std::to_string(static_cast<int>(limit)) + ", " +
                    std::to_string(static_cast<int>(limit)) + "]",
                std::string(field));
  }
  return v;
}

}  // namespace

std::optional<BBox> parse_bbox(const QueryParams& params) {
  constexpr std::string_view names[4] = {"minLongitude", "minLatitude", "maxLongitude",
                                         "maxLatitude"};
  std::optional<detail::Found> found[4];
  int count = 0;
  for (int i = 0; i < 4; ++i) {
    found[i] = detail::single(params, {names[i]});
    if (found[i]) ++count;
  }
  if (count == 0) return std::nullopt;
  if (count != 4) {
    for (int i = 0; i < 4; ++i) {
      if (!found[i]) {
        throw Error(errc::invalid_argument,
                    "a caixa envolvente exige minLongitude, minLatitude, maxLongitude e "
                    "maxLatitude; falta '" +
                        std::string(names[i]) + "'",
                    std::string(names[i]));
      }
    }
  }
  BBox b;
  b.min_lon = parse_coordinate(found[0]->value, names[0], 180);
  b.min_lat = parse_coordinate(found[1]->value, names[1], 90);
  b.max_lon = parse_coordinate(found[2]->value, names[2], 180);
  b.max_lat = parse_coordinate(found[3]->value, names[3], 90);
  if (b.min_lon > b.max_lon) {
    throw Error(errc::invalid_argument, "minLongitude maior que maxLongitude", "minLongitude");
  }
  if (b.min_lat > b.max_lat) {
    throw Error(errc::invalid_argument, "minLatitude maior que maxLatitude", "minLatitude");
  }
  return b;
}

}  // namespace cadastre::query
