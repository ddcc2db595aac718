// Shared by the /portal tests: one stack per test binary, tenant "alfa" with a 40-lot demo
// city (default valuation profile unless a test stores one and restores it), "beta" empty,
// an administrator of alfa, and the hand computation of the default profile's equations
// (docs/valuation.md) to check the portal's values against; the request and
// database helpers are ServerFixture's.
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <sstream>

#include "support/server_fixture.hpp"
#include "support/url.hpp"

namespace cadastre::test {

inline Stack& city() { return demo_city(40); }

inline const TestUser& admin() {
  static TestUser u = city().add_user("alfa", "admin-portal@alfa.gov.br", {"*:rw"}, true);
  return u;
}

struct Fixture : ServerFixture {
  Fixture() : ServerFixture(city()) {}
};
/// The binary's fixture, for the helpers outside a test.
inline Fixture& fixture() {
  static Fixture f;
  return f;
}

/// Rows of a query as tab-separated columns, one vector per row.
inline std::vector<std::vector<std::string>> db_rows(const std::string& sql) {
  std::string text =
      fixture().db("select coalesce(string_agg(r, E'\\n'), '') from (" + sql + ") q(r)");
  std::vector<std::vector<std::string>> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> cols;
    std::istringstream parts(line);
    for (std::string col; std::getline(parts, col, '\t');) cols.push_back(col);
    out.push_back(cols);
  }
  return out;
}

/// VVT of stored lot `lote_id` by hand, with the factor tables of dominio (whose fator
/// values are the default profile's).
inline double hand_land_value(const std::string& lote_id) {
  auto r = db_rows("select concat_ws(E'\\t', l.area_terreno, l.testada, coalesce(l.profundidade, l.area_terreno / "
                   "l.testada), t.fator, p.fator, s.fator, f.valor_m2) from cadastro.lote l join dominio.topografia t "
                   "on t.codigo = l.topografia join dominio.pedologia p on p.codigo = l.pedologia join "
                   "dominio.situacao s on s.codigo = l.situacao join cadastro.face_quadra f on f.id = l.face_quadra_id "
                   "where l.id = " + lote_id)
               .at(0);
  double area = std::stod(r[0]), frente = std::stod(r[1]), pe = std::stod(r[2]);
  double factors = std::stod(r[3]) * std::stod(r[4]) * std::stod(r[5]), unit = std::stod(r[6]);
  if (area > 5000) return area * unit * 5 * std::pow(frente, 0.2) * std::pow(area, -0.4) * factors;
  double ft = std::pow(std::clamp(frente, 5.0, 20.0) / 10, 0.25);
  double fp = pe < 25 ? std::sqrt(pe / 25) : pe <= 40 ? 1 : pe < 105 ? std::sqrt(40 / pe) : 0.6;
  return area * unit * ft * fp * factors;
}

/// VVE of a building by hand with the default profile (CUB, Heidecke c, useful life).
inline double hand_construction_value(double area, const std::string& padrao, int idade, const std::string& estado,
                                      double vida_util) {
  static const std::map<std::string, double> cub = {{"R1-B", 1800},    {"R1-N", 2074.23},  {"R1-A", 2550},
                                                    {"R8-N", 1766.32}, {"CSL8-N", 1755.6}, {"GI", 921.28}};
  static const std::map<std::string, double> heidecke = {{"a", 0},      {"b", 0.0032}, {"c", 0.0252}, {"d", 0.0809},
                                                         {"e", 0.1810}, {"f", 0.3320}, {"g", 0.5260}, {"h", 0.7520}};
  double x = std::min(idade / vida_util, 1.0);
  double alpha = (x + x * x) / 2;
  double d = alpha + (1 - alpha) * heidecke.at(estado);
  return area * cub.at(padrao) * (0.2 + 0.8 * (1 - d));
}

}  // namespace cadastre::test
