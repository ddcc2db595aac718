#include "schedule_test_util.hpp"

using namespace schedule_test;
using cadastre::errc;
using std::chrono::sys_seconds;

TEST_CASE("RFC 3339 instants: offsets, Z, errors") {
  // 08:00 at -03:00 is 11:00 UTC = 1772449200 s since the epoch.
  CHECK(at("2026-03-02T08:00:00-03:00").time_since_epoch().count() == 1772449200);
  CHECK(at("2026-03-02T11:00:00Z") == at("2026-03-02T08:00:00-03:00"));
  CHECK(at("2026-03-02T11:00:00.750+00:00") == at("2026-03-02T11:00:00Z"));  // truncated
  for (std::string_view bad : {"", "2026-03-02T08:00:00", "2026-03-02 08:00", "2026-02-30T08:00:00Z",
                               " 2026-03-02T08:00:00Z", "2026-03-02T08:00:00Z ", "amanhã"}) {
    CAPTURE(bad);
    auto e = error_of([&] { parse_instant(bad, "inicio"); });
    CHECK(e.code() == errc::invalid_argument);
    CHECK(e.field() == "inicio");
  }
}

TEST_CASE("format_instant uses the zone's offset at that instant") {
  CHECK(format_instant(at("2026-03-02T11:00:00Z"), "America/Sao_Paulo") == "2026-03-02T08:00:00-03:00");
  CHECK(format_instant(at("2026-03-02T11:00:00Z"), "UTC") == "2026-03-02T11:00:00+00:00");
  // New York: EST (-05:00) before 2026-03-08 02:00 local, EDT (-04:00) after.
  CHECK(format_instant(at("2026-03-08T06:59:59Z"), "America/New_York") == "2026-03-08T01:59:59-05:00");
  CHECK(format_instant(at("2026-03-08T07:00:00Z"), "America/New_York") == "2026-03-08T03:00:00-04:00");
  // São Paulo had summer time (-02:00) from 2018-11-04 to 2019-02-16.
  CHECK(format_instant(at("2019-01-15T12:00:00Z"), "America/Sao_Paulo") == "2019-01-15T10:00:00-02:00");
  auto e = error_of([] { format_instant(sys_seconds{}, "America/Atlantida"); });
  CHECK(e.code() == errc::invalid_argument);
  CHECK(e.field() == "fuso_horario");
}

TEST_CASE("local dates") {
  CHECK(parse_date("2026-03-02") == std::chrono::year{2026} / 3 / 2);
  CHECK(parse_date("2024-02-29") == std::chrono::year{2024} / 2 / 29);
  CHECK(format_date(std::chrono::year{2026} / 3 / 2) == "2026-03-02");
  for (std::string_view bad : {"2026-3-2", "2026-02-29", "2026-13-01", "2026-03-00", "02/03/2026",
                               "2026-03-02T00:00", "0000-01-01", "2026-0a-01"}) {
    CAPTURE(bad);
    auto e = error_of([&] { parse_date(bad, "data_inicio"); });
    CHECK(e.code() == errc::invalid_argument);
    CHECK(e.field() == "data_inicio");
  }
}

TEST_CASE("overlaps is half-open") {
  const auto h = [](int hour) { return sys_seconds{std::chrono::hours{hour}}; };
  CHECK(overlaps({h(8), h(9)}, {h(8), h(9)}));       // identical
  CHECK(overlaps({h(8), h(10)}, {h(9), h(11)}));     // partial
  CHECK(overlaps({h(9), h(11)}, {h(8), h(10)}));     // symmetric
  CHECK(overlaps({h(8), h(12)}, {h(9), h(10)}));     // contains
  CHECK(overlaps({h(9), h(10)}, {h(8), h(12)}));     // contained
  CHECK_FALSE(overlaps({h(8), h(9)}, {h(9), h(10)}));  // touching
  CHECK_FALSE(overlaps({h(9), h(10)}, {h(8), h(9)}));  // touching, other side
  CHECK_FALSE(overlaps({h(8), h(9)}, {h(10), h(11)}));  // apart
  CHECK_FALSE(overlaps({h(9), h(9)}, {h(8), h(10)}));   // empty interval
  CHECK_FALSE(overlaps({h(10), h(9)}, {h(8), h(11)}));  // reversed = empty
}
