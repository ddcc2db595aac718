// Changing reservations: what a request proposes and when it may move a reservation.
#include <string>

#include "cadastre/error.hpp"
#include "cadastre/schedule.hpp"

namespace cadastre::schedule {

bool moves(const Reservation& current, const ReservationChange& change) noexcept {
  return change.inicio || change.fim ||
         (change.has_vistoriador && change.vistoriador != current.vistoriador);
}

void check_reschedule(Status current) {
  if (current == Status::agendado) return;
  throw Error(errc::conflict,
              "só reservas no estado agendado podem ser remarcadas (estado atual: " +
                  std::string(to_string(current)) + ")",
              "status");
}

Reservation propose(const Agenda& agenda, const ReservationChange& change,
                    const std::optional<Reservation>& current) {
  if (!current && !change.inicio)
    throw Error(errc::missing_field, "informe o início da reserva (inicio, RFC 3339)", "inicio");
  Reservation r;
  if (current) r.status = current->status;
  r.intervalo.inicio =
      change.inicio ? parse_instant(*change.inicio, "inicio") : current->intervalo.inicio;
  if (change.fim)
    r.intervalo.fim = parse_instant(*change.fim, "fim");
  else if (change.inicio && current)
    r.intervalo.fim = r.intervalo.inicio + (current->intervalo.fim - current->intervalo.inicio);
  else if (change.inicio)
    r.intervalo.fim = r.intervalo.inicio + std::chrono::minutes(agenda.duracao_slot_minutos);
  else
    r.intervalo.fim = current->intervalo.fim;
  if (r.intervalo.fim <= r.intervalo.inicio)
    throw Error(errc::invalid_argument, "o fim da reserva deve ser posterior ao início", "fim");
  r.vistoriador = change.has_vistoriador || !current ? change.vistoriador : current->vistoriador;
  return r;
}

Interval capacity_window(Interval nova) noexcept {
  constexpr std::chrono::days day{1};
  return {nova.inicio - day, nova.fim + day};
}

Interval slots_window(std::chrono::year_month_day data_inicio,
                      std::chrono::year_month_day data_fim) noexcept {
  return {std::chrono::sys_seconds(std::chrono::sys_days(data_inicio) - std::chrono::days(2)),
          std::chrono::sys_seconds(std::chrono::sys_days(data_fim) + std::chrono::days(3))};
}

}  // namespace cadastre::schedule
