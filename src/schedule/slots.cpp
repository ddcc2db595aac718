// Available slots over a date range, and the capacity check before storing a reservation.
#include <absl/time/civil_time.h>

#include <algorithm>
#include <string>

#include "cadastre/error.hpp"
#include "cadastre/schedule.hpp"
#include "schedule/slot_math.hpp"
#include "schedule/time_util.hpp"

namespace cadastre::schedule {
namespace {

void check_range(std::chrono::year_month_day from, std::chrono::year_month_day to) {
  if (!from.ok()) throw Error(errc::invalid_argument, "data inicial inválida", "data_inicio");
  if (!to.ok()) throw Error(errc::invalid_argument, "data final inválida", "data_fim");
  const auto days = (std::chrono::sys_days{to} - std::chrono::sys_days{from}).count() + 1;
  if (days < 1) {
    throw Error(errc::invalid_argument,
                "data final " + format_date(to) + " anterior à data inicial " + format_date(from), "data_fim");
  }
  if (days > max_range_days) {
    throw Error(errc::invalid_argument,
                "intervalo de " + std::to_string(days) + " dias excede o máximo de " +
                    std::to_string(max_range_days) + " dias",
                "data_fim");
  }
}

}  // namespace

std::vector<Slot> free_slots(const Agenda& agenda, std::span<const Reservation> reservas,
                             std::chrono::year_month_day data_inicio, std::chrono::year_month_day data_fim,
                             std::chrono::sys_seconds now) {
  agenda.validate();
  check_range(data_inicio, data_fim);
  const auto tz = detail::load_zone(agenda.fuso_horario);

  std::vector<Slot> out;
  std::vector<Reservation> of_day;
  for (auto day = std::chrono::sys_days{data_inicio}; day <= std::chrono::sys_days{data_fim};
       day += std::chrono::days{1}) {
    const std::chrono::year_month_day ymd{day};
    if (detail::is_holiday(agenda, ymd)) continue;
    const auto slots = detail::day_slots(agenda, tz, ymd);
    if (slots.empty()) continue;
    // Narrow the reservations to the day once, so each slot scans only its neighbours.
    const Interval span{slots.front().inicio, slots.back().fim};
    of_day.clear();
    for (const auto& r : reservas) {
      if (overlaps(r.intervalo, span)) of_day.push_back(r);
    }
    for (const auto& iv : slots) {
      if (iv.inicio < now) continue;
      Slot s = detail::occupy(agenda, tz, ymd, iv, of_day);
      if (s.livres > 0) out.push_back(std::move(s));
    }
  }
  return out;
}

CapacityCheck check_capacity(const Agenda& agenda, std::span<const Reservation> existentes,
                             const Reservation& nova, std::optional<std::chrono::sys_seconds> now) {
  agenda.validate();
  if (nova.intervalo.fim <= nova.intervalo.inicio) {
    throw Error(errc::invalid_argument, "o fim da reserva deve ser posterior ao início", "fim");
  }
  const auto tz = detail::load_zone(agenda.fuso_horario);
  const std::chrono::year_month_day day =
      detail::from_civil(absl::ToCivilDay(detail::to_absl(nova.intervalo.inicio), tz));
  const std::string when = format_instant(nova.intervalo.inicio, agenda.fuso_horario) + " a " +
                           format_instant(nova.intervalo.fim, agenda.fuso_horario);

  if (detail::is_holiday(agenda, day)) {
    throw Error(errc::invalid_argument, "não há atendimento em " + format_date(day) + " (feriado)", "inicio");
  }
  const Interval* found = nullptr;
  const auto slots = detail::day_slots(agenda, tz, day);
  for (const auto& iv : slots) {
    if (iv.inicio <= nova.intervalo.inicio && nova.intervalo.fim <= iv.fim) {
      found = &iv;
      break;
    }
  }
  if (!found) {
    throw Error(errc::invalid_argument,
                "reserva de " + when + " fora dos horários da agenda: ela deve caber em um horário de " +
                    std::to_string(agenda.duracao_slot_minutos) + " min de um dia de atendimento",
                "inicio");
  }
  if (now && found->inicio < *now) {
    throw Error(errc::invalid_argument, "o horário de " + when + " já começou", "inicio");
  }

  const auto& who = nova.vistoriador;
  if (who && !agenda.vistoriadores.empty() &&
      std::find(agenda.vistoriadores.begin(), agenda.vistoriadores.end(), *who) == agenda.vistoriadores.end()) {
    throw Error(errc::invalid_argument, "vistoriador '" + *who + "' não pertence à agenda", "vistoriador");
  }

  CapacityCheck check{detail::occupy(agenda, tz, day, *found, existentes), who};
  if (check.slot.livres == 0) {
    throw Error(errc::conflict,
                "horário lotado: " + check.slot.inicio + " a " + check.slot.fim + " já tem " +
                    std::to_string(check.slot.ocupadas) + " de " + std::to_string(check.slot.capacidade) +
                    " vagas ocupadas",
                "inicio");
  }
  if (who && detail::inspector_load(existentes, *found, *who) >= agenda.capacidade_por_slot) {
    throw Error(errc::conflict,
                "vistoriador '" + *who + "' já está ocupado no horário " + check.slot.inicio + " a " +
                    check.slot.fim,
                "vistoriador");
  }
  if (!who && !check.slot.vistoriadores_livres.empty()) {
    check.vistoriador = check.slot.vistoriadores_livres.front();
  }
  return check;
}

}  // namespace cadastre::schedule
