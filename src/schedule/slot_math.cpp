#include "schedule/slot_math.hpp"

#include <absl/time/civil_time.h>

#include <algorithm>

#include "schedule/time_util.hpp"

namespace cadastre::schedule::detail {

bool is_holiday(const Agenda& agenda, std::chrono::year_month_day day) {
  return std::find(agenda.feriados.begin(), agenda.feriados.end(), day) != agenda.feriados.end();
}

std::vector<Interval> day_slots(const Agenda& agenda, const absl::TimeZone& tz,
                                std::chrono::year_month_day day) {
  const auto weekday = std::chrono::weekday{std::chrono::sys_days{day}}.c_encoding();
  const absl::CivilSecond midnight{to_civil(day)};
  const int step = agenda.duracao_slot_minutos;
  std::vector<Interval> out;
  for (const auto& p : agenda.semana[weekday]) {
    for (int m = p.inicio_minuto; m + step <= p.fim_minuto; m += step) {
      // Slots follow the wall clock: 08:00–09:00 local, whatever the offset that day.
      const auto start = unique_instant(tz, midnight + m * 60);
      const auto end = unique_instant(tz, midnight + (m + step) * 60);
      if (!start || !end) continue;
      out.push_back({from_absl(*start), from_absl(*end)});
    }
  }
  return out;
}

int inspector_load(std::span<const Reservation> reservas, Interval slot, const std::string& who) {
  return static_cast<int>(std::count_if(reservas.begin(), reservas.end(), [&](const Reservation& r) {
    return r.vistoriador && *r.vistoriador == who && overlaps(r.intervalo, slot);
  }));
}

Slot occupy(const Agenda& agenda, const absl::TimeZone& tz, std::chrono::year_month_day day,
            Interval slot, std::span<const Reservation> reservas) {
  Slot s;
  s.data = day;
  s.intervalo = slot;
  s.inicio = absl::FormatTime("%Y-%m-%dT%H:%M:%S%Ez", to_absl(slot.inicio), tz);
  s.fim = absl::FormatTime("%Y-%m-%dT%H:%M:%S%Ez", to_absl(slot.fim), tz);
  s.capacidade = agenda.capacidade_total();
  // Every overlapping reservation counts, including ones for inspectors no longer listed:
  // over-counting can only hide a slot, never double-book one.
  std::vector<int> load(agenda.vistoriadores.size(), 0);
  for (const auto& r : reservas) {
    if (!overlaps(r.intervalo, slot)) continue;
    ++s.ocupadas;
    if (!r.vistoriador) continue;
    auto it = std::find(agenda.vistoriadores.begin(), agenda.vistoriadores.end(), *r.vistoriador);
    if (it != agenda.vistoriadores.end()) ++load[static_cast<std::size_t>(it - agenda.vistoriadores.begin())];
  }
  s.livres = std::max(0, s.capacidade - s.ocupadas);
  for (std::size_t i = 0; i < load.size(); ++i) {
    if (load[i] < agenda.capacidade_por_slot) s.vistoriadores_livres.push_back(agenda.vistoriadores[i]);
  }
  return s;
}

}  // namespace cadastre::schedule::detail
