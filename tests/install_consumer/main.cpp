#include <cadastre/tiles.hpp>
#include <cadastre/valuation.hpp>

#include <iostream>

int main() {
  auto t = cadastre::tiles::tile_for_lonlat(-46.6333, -23.5505, 12);
  auto v = cadastre::valuation::land_value_json(
      R"({"area":300,"frente":10,"valor_m2":500,"topografia":"plano","pedologia":"seco","situacao":"meio_quadra"})");
  std::cout << t.x << "/" << t.y << " " << (v.find("\"valor\":150000") != std::string::npos ? "ok" : v) << "\n";
  return t.x == 1517 && t.y == 2323 ? 0 : 1;
}
