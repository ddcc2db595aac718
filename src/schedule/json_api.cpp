// JSON front door of the module, used by the HTTP server and the Python binding.
#include <chrono>

#include "cadastre/json.hpp"
#include "cadastre/schedule.hpp"

namespace cadastre::schedule {
namespace {

void write_slot(JsonWriter& w, const Slot& s) {
  w.begin_object();
  w.key("data").value(format_date(s.data));
  w.key("inicio").value(s.inicio);
  w.key("fim").value(s.fim);
  w.key("capacidade").value(s.capacidade);
  w.key("ocupadas").value(s.ocupadas);
  w.key("livres").value(s.livres);
  w.key("vistoriadores_livres").begin_array();
  for (const auto& v : s.vistoriadores_livres) w.value(v);
  w.end_array();
  w.end_object();
}

std::chrono::sys_seconds now_or_clock(std::optional<std::string_view> now_rfc3339) {
  if (now_rfc3339) return parse_instant(*now_rfc3339, "agora");
  return std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
}

}  // namespace

std::string to_json(std::span<const Slot> slots) {
  JsonWriter w;
  w.begin_array();
  for (const auto& s : slots) write_slot(w, s);
  w.end_array();
  return std::move(w).str();
}

std::string to_json(const CapacityCheck& check) {
  JsonWriter w;
  w.begin_object().key("slot");
  write_slot(w, check.slot);
  w.key("vistoriador");
  if (check.vistoriador) {
    w.value(*check.vistoriador);
  } else {
    w.null();
  }
  w.end_object();
  return std::move(w).str();
}

std::string free_slots_json(std::string_view agenda_json, std::string_view reservations_json_array,
                            std::string_view start_date, std::string_view end_date,
                            std::optional<std::string_view> now_rfc3339) {
  const auto agenda = Agenda::from_json(agenda_json);
  const auto reservas = parse_reservations(reservations_json_array);
  const auto from = parse_date(start_date, "data_inicio");
  const auto to = parse_date(end_date, "data_fim");
  return to_json(free_slots(agenda, reservas, from, to, now_or_clock(now_rfc3339)));
}

std::string check_capacity_json(std::string_view agenda_json, std::string_view reservations_json_array,
                                std::string_view new_reservation_json,
                                std::optional<std::string_view> now_rfc3339) {
  const auto agenda = Agenda::from_json(agenda_json);
  const auto reservas = parse_reservations(reservations_json_array);
  const auto nova = parse_reservation(new_reservation_json, "reserva");
  return to_json(check_capacity(agenda, reservas, nova, now_or_clock(now_rfc3339)));
}

}  // namespace cadastre::schedule
