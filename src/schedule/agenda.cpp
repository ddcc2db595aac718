// Agenda: JSON reading, validation and serialisation.
#include <algorithm>
#include <array>
#include <string>

#include "cadastre/error.hpp"
#include "cadastre/json.hpp"
#include "cadastre/schedule.hpp"
#include "core/json_in.hpp"
#include "schedule/agenda_rules.hpp"
#include "schedule/time_util.hpp"

namespace cadastre::schedule {
namespace {

using detail::check_period;

[[noreturn]] void unknown_key(std::string_view key, const std::string& where, std::string_view allowed) {
  const std::string field = where.empty() ? std::string(key) : where + "." + std::string(key);
  throw Error(errc::unknown_field,
              "campo desconhecido '" + field + "'; campos aceitos: " + std::string(allowed), field);
}

std::string required_string(jsonin::object o, std::string_view key, const std::string& field) {
  auto e = jsonin::find(o, key);
  if (!e) throw Error(errc::missing_field, "campo obrigatório ausente: '" + field + "'", field);
  return jsonin::to_string(*e, field);
}

OpeningInterval read_period(jsonin::element e, const std::string& field, int slot_minutes) {
  auto o = jsonin::as_object(e, field);
  for (auto kv : o) {
    if (kv.key != "inicio" && kv.key != "fim") unknown_key(kv.key, field, "inicio, fim");
  }
  const std::string f_start = field + ".inicio", f_end = field + ".fim";
  OpeningInterval p;
  p.inicio_minuto = detail::parse_hhmm(required_string(o, "inicio", f_start), f_start, false);
  p.fim_minuto = detail::parse_hhmm(required_string(o, "fim", f_end), f_end, true);
  check_period(p, slot_minutes, field);
  return p;
}

void read_week(jsonin::element e, Agenda& a) {
  auto week = jsonin::as_object(e, "semana");
  std::array<bool, 7> seen{};
  for (auto kv : week) {
    const std::string day_field = "semana." + std::string(kv.key);
    const int day = detail::weekday_index(kv.key);
    if (day < 0) {
      throw Error(errc::invalid_argument,
                  "dia da semana desconhecido '" + std::string(kv.key) +
                      "': use 0 a 6 (0 = domingo) ou domingo, segunda, terca, quarta, quinta, sexta, sabado",
                  day_field);
    }
    auto& already = seen[static_cast<std::size_t>(day)];
    if (already) {
      throw Error(errc::invalid_argument,
                  "dia da semana repetido em 'semana': " + std::string(detail::weekday_names[static_cast<std::size_t>(day)]),
                  day_field);
    }
    already = true;
    auto& periods = a.semana[static_cast<std::size_t>(day)];
    if (kv.value.is_null()) continue;  // null = closed, like an absent day
    std::size_t i = 0;
    for (auto item : jsonin::as_array(kv.value, day_field)) {
      periods.push_back(read_period(item, day_field + "[" + std::to_string(i++) + "]", a.duracao_slot_minutos));
    }
    std::sort(periods.begin(), periods.end(),
              [](const OpeningInterval& x, const OpeningInterval& y) { return x.inicio_minuto < y.inicio_minuto; });
    detail::check_day_order(periods, day_field);
  }
}

}  // namespace

int Agenda::capacidade_total() const noexcept {
  const int people = vistoriadores.empty() ? 1 : static_cast<int>(vistoriadores.size());
  return capacidade_por_slot * people;
}

Agenda Agenda::from_json(std::string_view json) {
  simdjson::dom::parser parser;
  auto root = jsonin::as_object(jsonin::parse(parser, json), "agenda");
  static constexpr std::array<std::string_view, 6> keys = {
      "fuso_horario", "duracao_slot_minutos", "capacidade_por_slot", "vistoriadores", "feriados", "semana"};
  for (auto kv : root) {
    if (std::find(keys.begin(), keys.end(), kv.key) == keys.end()) {
      unknown_key(kv.key, "",
                  "fuso_horario, duracao_slot_minutos, capacidade_por_slot, vistoriadores, feriados, semana");
    }
  }

  Agenda a;
  if (auto tz = jsonin::opt_string(root, "fuso_horario")) a.fuso_horario = *tz;
  detail::load_zone(a.fuso_horario);

  const auto slot = jsonin::integer(root, "duracao_slot_minutos");
  detail::check_slot_minutes(slot);
  a.duracao_slot_minutos = static_cast<int>(slot);

  if (auto cap = jsonin::opt_integer(root, "capacidade_por_slot")) {
    detail::check_capacity_per_slot(*cap);
    a.capacidade_por_slot = static_cast<int>(*cap);
  }

  if (auto list = jsonin::find(root, "vistoriadores")) {
    std::size_t i = 0;
    for (auto item : jsonin::as_array(*list, "vistoriadores")) {
      a.vistoriadores.push_back(jsonin::to_string(item, "vistoriadores[" + std::to_string(i++) + "]"));
    }
    detail::check_inspectors(a.vistoriadores);
  }

  if (auto list = jsonin::find(root, "feriados")) {
    std::size_t i = 0;
    for (auto item : jsonin::as_array(*list, "feriados")) {
      const std::string field = "feriados[" + std::to_string(i++) + "]";
      a.feriados.push_back(parse_date(jsonin::to_string(item, field), field));
    }
  }

  auto week = jsonin::find(root, "semana");
  if (!week) throw Error(errc::missing_field, "campo obrigatório ausente: 'semana'", "semana");
  read_week(*week, a);
  return a;
}

void Agenda::validate() const {
  detail::load_zone(fuso_horario);
  detail::check_slot_minutes(duracao_slot_minutos);
  detail::check_capacity_per_slot(capacidade_por_slot);
  detail::check_inspectors(vistoriadores);
  for (std::size_t d = 0; d < semana.size(); ++d) {
    const std::string day_field = "semana." + std::string(detail::weekday_names[d]);
    for (std::size_t i = 0; i < semana[d].size(); ++i) {
      check_period(semana[d][i], duracao_slot_minutos, day_field + "[" + std::to_string(i) + "]");
    }
    detail::check_day_order(semana[d], day_field);
  }
  for (std::size_t i = 0; i < feriados.size(); ++i) {
    if (!feriados[i].ok()) {
      const std::string field = "feriados[" + std::to_string(i) + "]";
      throw Error(errc::invalid_argument, "data inválida em '" + field + "'", field);
    }
  }
}

std::string Agenda::to_json() const {
  JsonWriter w;
  w.begin_object();
  w.key("fuso_horario").value(fuso_horario);
  w.key("duracao_slot_minutos").value(duracao_slot_minutos);
  w.key("capacidade_por_slot").value(capacidade_por_slot);
  w.key("vistoriadores").begin_array();
  for (const auto& v : vistoriadores) w.value(v);
  w.end_array();
  w.key("feriados").begin_array();
  for (const auto& d : feriados) w.value(format_date(d));
  w.end_array();
  w.key("semana").begin_object();
  for (std::size_t d = 0; d < semana.size(); ++d) {
    if (semana[d].empty()) continue;
    w.key(detail::weekday_names[d]).begin_array();
    for (const auto& p : semana[d]) {
      w.begin_object()
          .key("inicio").value(detail::format_hhmm(p.inicio_minuto))
          .key("fim").value(detail::format_hhmm(p.fim_minuto))
          .end_object();
    }
    w.end_array();
  }
  w.end_object();
  w.end_object();
  return std::move(w).str();
}

}  // namespace cadastre::schedule
