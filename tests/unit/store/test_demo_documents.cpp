// Pure parts of the demo-city generator: documents, random streams, names, lot layout,
// buildings and units. No database.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "demo/demo.hpp"
#include "demo/block.hpp"
#include "demo/documents.hpp"
#include "demo/geo.hpp"
#include "demo/names.hpp"
#include "demo/parcel.hpp"
#include "demo/rng.hpp"
#include "demo/tables.hpp"

using namespace cadastre::store;
using namespace cadastre::store::demo;

TEST_CASE("valid_cpf accepts known CPFs and rejects bad ones") {
  CHECK(valid_cpf("52998224725"));  // 529.982.247-25
  CHECK(valid_cpf("11144477735"));  // 111.444.777-35
  CHECK_FALSE(valid_cpf("52998224724"));   // wrong second digit
  CHECK_FALSE(valid_cpf("52998224715"));   // wrong first digit
  CHECK_FALSE(valid_cpf("11111111111"));   // repeated digits pass the arithmetic but are invalid
  CHECK_FALSE(valid_cpf("00000000000"));
  CHECK_FALSE(valid_cpf("529.982.247-25"));  // digits only
  CHECK_FALSE(valid_cpf("5299822472"));
  CHECK_FALSE(valid_cpf(""));
}

TEST_CASE("valid_cnpj accepts known CNPJs and rejects bad ones") {
  CHECK(valid_cnpj("11222333000181"));  // 11.222.333/0001-81
  CHECK(valid_cnpj("11444777000161"));  // 11.444.777/0001-61
  CHECK_FALSE(valid_cnpj("11222333000182"));
  CHECK_FALSE(valid_cnpj("11222333000191"));
  CHECK_FALSE(valid_cnpj("00000000000000"));
  CHECK_FALSE(valid_cnpj("11.222.333/0001-81"));
  CHECK_FALSE(valid_cnpj("1122233300018"));
}

TEST_CASE("generated documents carry correct check digits") {
  CHECK(cpf_from_base(529982247) == "52998224725");
  CHECK(cnpj_from_root(11222333) == "11222333000181");
  CHECK(cpf_from_base(7).size() == 11);  // leading zeros kept
  for (std::uint32_t b = 0; b < 3000; b += 7) {
    CHECK(valid_cpf(cpf_from_base(b * 333331u + 12)));
    CHECK(valid_cnpj(cnpj_from_root(b * 33331u + 5)));
  }
}

TEST_CASE("DocumentSource gives distinct valid documents, the same for the same seed") {
  const DocumentSource docs(42), again(42), other(43);
  std::set<std::string> seen;
  for (std::uint64_t i = 0; i < 20000; ++i) {
    const std::string cpf = docs.cpf(i);
    REQUIRE(valid_cpf(cpf));
    CHECK(cpf[8] == '8');  // São Paulo fiscal region
    seen.insert(cpf);
  }
  CHECK(seen.size() == 20000);
  CHECK(docs.cpf(123) == again.cpf(123));
  CHECK(docs.cpf(123) != other.cpf(123));
  CHECK(valid_cnpj(docs.cnpj(0)));
  CHECK(docs.cnpj(5) != docs.cnpj(6));
}

TEST_CASE("mod11_digit") {
  CHECK(mod11_digit("1000001") == 1);  // 2·1 + 8·1 = 10 → 11 − 10 = 1
  CHECK(mod11_digit("0") == 0);         // 11 − 0 = 11 → 0
}

TEST_CASE("random streams are deterministic and portable") {
  std::uint64_t state = 0;
  CHECK(splitmix64(state) == 0xE220A8397B1DCDAFull);  // reference value of SplitMix64 from seed 0
  Rng a(1, Stream::lot, 7), b(1, Stream::lot, 7), c(1, Stream::lot, 8), d(2, Stream::lot, 7);
  const std::uint64_t first = a.next();
  CHECK(first == b.next());
  CHECK(first != c.next());
  CHECK(first != d.next());
  Rng r(99);
  for (int i = 0; i < 1000; ++i) {
    const double u = r.uniform();
    CHECK((u >= 0 && u < 1));
    const int k = r.between(-3, 4);
    CHECK((k >= -3 && k <= 4));
    CHECK(r.below(10) < 10u);
  }
}

TEST_CASE("Shuffle is a bijection of [0, n)") {
  for (std::uint64_t n : {1ull, 2ull, 7ull, 1000ull, 4097ull}) {
    const Shuffle s(n, 12345);
    std::vector<char> hit(n, 0);
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t v = s(i);
      REQUIRE(v < n);
      hit[v] = 1;
    }
    CHECK(std::all_of(hit.begin(), hit.end(), [](char h) { return h == 1; }));
  }
}

TEST_CASE("names") {
  CHECK(ascii_slug("João Conceição") == "joaoconceicao");
  CHECK(ascii_slug("MÜLLER-Ávila") == "mulleravila");
  CHECK(roman(2) == "II");
  CHECK(roman(14) == "XIV");
  StreetNamer namer(1);
  std::set<std::string> names;
  for (int i = 0; i < 500; ++i) {
    Rng r(1, Stream::names, static_cast<std::uint64_t>(i));
    names.insert(namer.next(r).name);
  }
  CHECK(names.size() == 500);  // distinct
  BairroNamer bairros(1);
  std::set<std::string> bn;
  for (int i = 0; i < 2000; ++i) bn.insert(bairros.next());
  CHECK(bn.size() == 2000);
  Rng pr(5);
  const PersonName p = person_name(pr, 0);
  CHECK(p.full.ends_with("da Silva"));  // surname 0, shared by spouses
  CHECK(p.email_local.find('.') != std::string::npos);
}

TEST_CASE("timestamps of 2025") {
  CHECK(timestamp_2025(0, 0) == "2025-01-01 00:00:00-03");
  CHECK(timestamp_2025(31, 8 * 3600 + 61) == "2025-02-01 08:01:01-03");
  CHECK(timestamp_2025(364, 86400 - 1) == "2025-12-31 23:59:59-03");
  CHECK(timestamp_2025(58, 86400) == "2025-03-01 00:00:00-03");  // rolls over February
}

namespace {
double overlap(const LotPlan& a, const LotPlan& b) {
  const double w = std::min(a.s1, b.s1) - std::max(a.s0, b.s0), h = std::min(a.t1, b.t1) - std::max(a.t0, b.t0);
  return w > 0 && h > 0 ? w * h : 0;
}
}  // namespace

TEST_CASE("block layout tiles the block without overlaps") {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    Rng rng(seed);
    const double S = rng.uniform(80, 140), T = rng.uniform(55, 90);
    Zone z;
    z.centrality = rng.uniform(0, 1.2);
    z.industrial = seed % 17 == 0;
    LayoutParams p = layout_params(z);
    p.p_vila = p.p_encravado = p.p_through = 0.5;  // exercise the special lots
    std::vector<LotPlan> lots;
    layout_block(S, T, p, rng, lots);
    REQUIRE_FALSE(lots.empty());
    double area = 0;
    for (std::size_t i = 0; i < lots.size(); ++i) {
      const LotPlan& a = lots[i];
      CHECK(a.s0 >= 0);
      CHECK(a.s1 <= S);
      CHECK(a.t0 >= 0);
      CHECK(a.t1 <= T);
      CHECK(a.s1 - a.s0 > 3);
      CHECK(a.t1 - a.t0 > 3);
      area += (a.s1 - a.s0) * (a.t1 - a.t0);
      for (std::size_t j = i + 1; j < lots.size(); ++j) CHECK(overlap(a, lots[j]) == 0);
      const bool touches_side = a.s0 == 0 || a.s1 == S, touches_row = a.t0 == 0 || a.t1 == T;
      if (a.situacao == Situacao::esquina) CHECK((touches_side && touches_row));
      if (a.situacao == Situacao::duas_frentes) CHECK((a.t0 == 0 && a.t1 == T));
      if (a.situacao == Situacao::encravado) CHECK((a.t0 > 0 && a.s0 > 0 && a.s1 < S && a.t1 < T));
    }
    // Only vila alleys (4 m wide) are left out.
    CHECK(area <= S * T + 1e-6);
    CHECK(area >= S * T * 0.9);
  }
}

TEST_CASE("lot rings include the corners of neighbours lying on their edges") {
  std::vector<LotPlan> lots(3);
  lots[0] = {0, 10, 0, 20};
  lots[1] = {10, 20, 0, 20};
  lots[2] = {0, 20, 20, 40};  // spans both: its bottom edge passes the corner (10, 20)
  CornerIndex index;
  index.build(lots);
  std::vector<std::pair<double, double>> ring;
  index.ring(lots[2], ring);
  REQUIRE(ring.size() == 5);
  CHECK(ring[1] == std::make_pair(10.0, 20.0));
  index.ring(lots[0], ring);
  CHECK(ring.size() == 4);
}

TEST_CASE("buildings stay inside their lot and unit fractions sum to one") {
  Quad q;
  q.p[0] = {0, 0};
  q.p[1] = {120, 3};
  q.p[2] = {118, 80};
  q.p[3] = {-2, 78};
  const BlockMap map(q);
  std::vector<LotPlan> lots;
  ParcelPlan parcel;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    Rng rng(seed);
    Zone z;
    z.centrality = rng.uniform(0, 0.4);  // towers included
    z.value_ratio = rng.uniform(0.3, 1.5);
    z.industrial = seed % 11 == 0;
    layout_block(map.S(), map.T(), layout_params(z), rng, lots);
    for (const LotPlan& l : lots) {
      plan_parcel(l, map, z, seed % 3 == 0, rng, parcel);
      REQUIRE_FALSE(parcel.units.empty());
      std::int64_t total = 0;
      for (const UnitPlan& u : parcel.units) {
        CHECK(u.fracao_micro > 0);
        total += u.fracao_micro;
      }
      CHECK(total == 1000000);
      CHECK(parcel.buildings.size() <= 2);
      for (const BuildingPlan& b : parcel.buildings) {
        CHECK(b.s0 >= l.s0 + 0.49);
        CHECK(b.s1 <= l.s1 - 0.49);
        CHECK(b.t0 >= l.t0 + 0.49);
        CHECK(b.t1 <= l.t1 - 0.49);
        CHECK(b.footprint > 0);
        CHECK((b.ano >= 1950 && b.ano <= 2024));
        CHECK((b.conservacao >= 'a' && b.conservacao <= 'h'));
      }
      if (parcel.buildings.empty()) CHECK(std::string(parcel.units.front().uso) == "territorial");
    }
  }
}

TEST_CASE("split_fraction is exact") {
  std::vector<UnitPlan> units(7);
  split_fraction(units, {1, 1, 1, 1, 1, 1, 1});
  std::int64_t total = 0;
  for (const auto& u : units) total += u.fracao_micro;
  CHECK(total == 1000000);
  CHECK(units[0].fracao_micro == 142858);  // the remainder goes to the first units
  CHECK(units[6].fracao_micro == 142857);
}

TEST_CASE("bilinear block map and local frame") {
  Quad q;
  q.p[0] = {0, 0};
  q.p[1] = {100, 0};
  q.p[2] = {100, 50};
  q.p[3] = {0, 50};
  const BlockMap map(q);
  CHECK(map.S() == doctest::Approx(100));
  CHECK(map.T() == doctest::Approx(50));
  CHECK(map.rect_area(10, 30, 0, 25) == doctest::Approx(500));
  const Vec2 p = map.at(25, 10);
  CHECK(p.x == doctest::Approx(25));
  CHECK(p.y == doctest::Approx(10));
  // One degree of latitude near Campinas is about 110.7 km; of longitude about 102.6 km.
  const LocalFrame f(-47.0608, -22.9056);
  CHECK((f.lat(110700) - -22.9056) == doctest::Approx(1).epsilon(0.002));
  CHECK((f.lon(102600) - -47.0608) == doctest::Approx(1).epsilon(0.002));
}
