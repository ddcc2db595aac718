// Instants, local dates, "HH:MM" times and time zones for the schedule module.
#include "schedule/time_util.hpp"

#include <cctype>
#include <cstdio>
#include <string>

#include "cadastre/error.hpp"

namespace cadastre::schedule {
namespace detail {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// IANA names are ASCII words separated by '/'. Anything else is refused before it reaches
// the loader, which would otherwise read arbitrary files ("/etc/passwd", "../x") or the
// machine's own zone ("localtime").
bool plausible_zone_name(std::string_view name) {
  if (name.empty() || name.size() > 64 || name.front() == '/' || name.back() == '/') return false;
  if (name.find("..") != std::string_view::npos || name.find("//") != std::string_view::npos) return false;
  if (name == "localtime") return false;
  for (char c : name) {
    bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || is_digit(c) || c == '_' ||
              c == '-' || c == '+' || c == '/';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

absl::TimeZone load_zone(std::string_view name) {
  absl::TimeZone tz;
  if (!plausible_zone_name(name) || !absl::LoadTimeZone(std::string(name), &tz)) {
    throw Error(errc::invalid_argument, "fuso horário desconhecido: '" + std::string(name) + "'",
                "fuso_horario");
  }
  return tz;
}

std::optional<absl::Time> unique_instant(const absl::TimeZone& tz, absl::CivilSecond local) {
  const auto info = tz.At(local);
  if (info.kind != absl::TimeZone::TimeInfo::UNIQUE) return std::nullopt;
  return info.pre;
}

int parse_hhmm(std::string_view text, std::string_view field, bool allow_24) {
  auto bad = [&]() -> Error {
    return Error(errc::invalid_argument,
                 "horário inválido '" + std::string(text) + "' em '" + std::string(field) +
                     "': use HH:MM (00:00 a " + (allow_24 ? "24:00" : "23:59") + ")",
                 std::string(field));
  };
  if (text.size() != 5 || text[2] != ':' || !is_digit(text[0]) || !is_digit(text[1]) ||
      !is_digit(text[3]) || !is_digit(text[4])) {
    throw bad();
  }
  const int h = (text[0] - '0') * 10 + (text[1] - '0');
  const int m = (text[3] - '0') * 10 + (text[4] - '0');
  if (m > 59 || h > 24 || (h == 24 && (m != 0 || !allow_24))) throw bad();
  return h * 60 + m;
}

std::string format_hhmm(int minutes) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%02d:%02d", (minutes / 60) % 100, minutes % 60);
  return buf;
}

}  // namespace detail

bool overlaps(Interval a, Interval b) noexcept {
  return a.inicio < a.fim && b.inicio < b.fim && a.inicio < b.fim && b.inicio < a.fim;
}

std::chrono::sys_seconds parse_instant(std::string_view rfc3339, std::string_view field) {
  absl::Time t;
  std::string ignored;
  // absl accepts surrounding blanks; RFC 3339 does not, and a leading digit also rules out
  // signed or padded years.
  const bool shape_ok = !rfc3339.empty() && detail::is_digit(rfc3339.front()) &&
                        !std::isspace(static_cast<unsigned char>(rfc3339.back()));
  if (!shape_ok || !absl::ParseTime(absl::RFC3339_full, std::string(rfc3339), &t, &ignored)) {
    throw Error(errc::invalid_argument,
                "instante inválido '" + std::string(rfc3339) + "' em '" + std::string(field) +
                    "': use RFC 3339 com fuso, ex. 2026-03-02T08:00:00-03:00",
                std::string(field));
  }
  return detail::from_absl(t);
}

std::string format_instant(std::chrono::sys_seconds t, std::string_view time_zone) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%S%Ez", detail::to_absl(t), detail::load_zone(time_zone));
}

std::chrono::year_month_day parse_date(std::string_view text, std::string_view field) {
  auto digits = [&](std::size_t from, std::size_t n) {
    int v = 0;
    for (std::size_t i = from; i < from + n; ++i) {
      if (!detail::is_digit(text[i])) return -1;
      v = v * 10 + (text[i] - '0');
    }
    return v;
  };
  std::chrono::year_month_day d{};
  if (text.size() == 10 && text[4] == '-' && text[7] == '-') {
    const int y = digits(0, 4), m = digits(5, 2), day = digits(8, 2);
    if (y >= 1 && m >= 0 && day >= 0) {
      d = std::chrono::year{y} / std::chrono::month{static_cast<unsigned>(m)} /
          std::chrono::day{static_cast<unsigned>(day)};
      if (d.ok()) return d;
    }
  }
  throw Error(errc::invalid_argument,
              "data inválida '" + std::string(text) + "' em '" + std::string(field) +
                  "': use AAAA-MM-DD",
              std::string(field));
}

std::string format_date(std::chrono::year_month_day d) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u", static_cast<int>(d.year()),
                static_cast<unsigned>(d.month()), static_cast<unsigned>(d.day()));
  return buf;
}

}  // namespace cadastre::schedule
