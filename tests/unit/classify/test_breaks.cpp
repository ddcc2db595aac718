// Class breaks of POST /mapa-tematico (the library's classify module): Jenks natural breaks
// checked against breaks worked out by hand (the within-class sums of squared deviations
// of every split), equal intervals, quantiles and the class counts.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "cadastre/classify.hpp"

using namespace cadastre::classify;
using V = std::vector<double>;

TEST_CASE("jenks puts the breaks in the gaps of three clear groups") {
  CHECK(jenks({1, 2, 3, 10, 11, 12, 20, 21, 22}, 3) == V{1, 3, 12, 22});
}

TEST_CASE("jenks separates the outlier: the split of least squared deviations, by hand") {
  // {1,1,2,2,8,9,10} | {50}: 99.43 + 0; {1,1,2,2} | {8,9,10,50}: 1 + 1262.75;
  // {1..9} | {10,50}: 75.33 + 800. The first is the least.
  CHECK(jenks({1, 1, 2, 2, 8, 9, 10, 50}, 2) == V{1, 10, 50});
}

TEST_CASE("jenks of four values in two classes: {1,2} | {9,10}") {
  CHECK(jenks({1, 2, 9, 10}, 2) == V{1, 2, 10});
}

TEST_CASE("jenks with fewer distinct values than classes gives one class per value") {
  V b = jenks({5, 5, 7, 7, 7}, 4);
  CHECK(b == V{5, 5, 7});
  CHECK(counts({5, 5, 7, 7, 7}, b) == std::vector<std::size_t>{2, 3});
  CHECK(jenks({4, 4, 4}, 3) == V{4, 4});
}

TEST_CASE("jenks on more values than its sample still finds the gap") {
  V v;
  for (int i = 0; i < 3000; ++i) v.push_back(i % 2 ? 100 + i % 7 : i % 5);
  std::sort(v.begin(), v.end());
  V b = jenks(v, 2);
  CHECK(b.front() == 0);
  CHECK(b[1] == 4);
  CHECK(b.back() == 106);
}

TEST_CASE("equal intervals divide the range evenly") {
  CHECK(equal_intervals({0, 3, 10}, 5) == V{0, 2, 4, 6, 8, 10});
}

TEST_CASE("quantiles interpolate between order statistics like percentile_cont") {
  // positions 0, 1.5, 3 of {10, 20, 30, 40}: 10, 25, 40
  CHECK(quantiles({10, 20, 30, 40}, 2) == V{10, 25, 40});
}

TEST_CASE("counts: upper bounds inclusive, the first class holds the minimum") {
  V values{1, 2, 3, 10, 11, 12, 20, 21, 22};
  CHECK(counts(values, {1, 3, 12, 22}) == std::vector<std::size_t>{3, 3, 3});
  CHECK(counts(values, breaks("intervalos_iguais", values, 3)) == std::vector<std::size_t>{3, 3, 3});
}

TEST_CASE("the method names") {
  CHECK(known_method("jenks"));
  CHECK(known_method("quantis"));
  CHECK(known_method("intervalos_iguais"));
  CHECK_FALSE(known_method("natural"));
}
