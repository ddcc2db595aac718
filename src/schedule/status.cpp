// Reservation state machine: agendado → em_progresso → concluido (final).
#include <string>

#include "cadastre/error.hpp"
#include "cadastre/schedule.hpp"

namespace cadastre::schedule {

Status parse_status(std::string_view s) {
  if (s == "agendado") return Status::agendado;
  if (s == "em_progresso") return Status::em_progresso;
  if (s == "concluido") return Status::concluido;
  throw Error(errc::invalid_argument,
              "status desconhecido '" + std::string(s) +
                  "': use agendado, em_progresso ou concluido",
              "status");
}

std::string_view to_string(Status s) noexcept {
  switch (s) {
    case Status::agendado: return "agendado";
    case Status::em_progresso: return "em_progresso";
    case Status::concluido: return "concluido";
  }
  return "desconhecido";  // unreachable for valid enumerators
}

Status next_status(Status current) {
  switch (current) {
    case Status::agendado: return Status::em_progresso;
    case Status::em_progresso: return Status::concluido;
    case Status::concluido: break;
  }
  throw Error(errc::invalid_transition,
              "reserva em '" + std::string(to_string(current)) + "' não pode avançar", "status");
}

std::string next_status(std::string_view current) {
  return std::string(to_string(next_status(parse_status(current))));
}

void check_transition(Status from, Status to) {
  if (from != Status::concluido && next_status(from) == to) return;
  std::string msg = "transição de '" + std::string(to_string(from)) + "' para '" +
                    std::string(to_string(to)) + "' não permitida";
  if (from == Status::concluido) {
    msg += ": reserva em 'concluido' é final";
  } else {
    msg += ": o próximo estado é '" + std::string(to_string(next_status(from))) + "'";
  }
  throw Error(errc::invalid_transition, std::move(msg), "status");
}

}  // namespace cadastre::schedule
