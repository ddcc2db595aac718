// Shared fixture of the /agendamento tests: tenants alfa and beta, a fixed agenda on alfa
// and booking helpers (the HTTP and database helpers are ServerFixture's). Dates are in
// January 2030, far enough ahead that no slot is "past".
//
// The agenda (America/Sao_Paulo, UTC−3 all year): segunda 08:00–10:00 and 14:00–15:00,
// quarta 09:00–11:00, 60-minute slots, one place per inspector, inspectors ana and bruno,
// holiday quarta 2030-01-09. 2030-01-07 is a Monday.
#pragma once

#include <doctest/doctest.h>
#include <simdjson.h>

#include <string>

#include "support/server_fixture.hpp"

namespace sched_test {

using cadastre::test::Stack;

inline const char* kAgenda = R"({"fuso_horario": "America/Sao_Paulo", "duracao_slot_minutos": 60,
  "capacidade_por_slot": 1, "vistoriadores": ["ana", "bruno"], "feriados": ["2030-01-09"],
  "semana": {"segunda": [{"inicio": "08:00", "fim": "10:00"}, {"inicio": "14:00", "fim": "15:00"}],
             "quarta": [{"inicio": "09:00", "fim": "11:00"}]}})";

/// A reservation body at local time `hhmm` of 2030-01-DD (−03:00).
inline std::string booking(const std::string& day, const std::string& hhmm, const std::string& vistoriador = "",
                           const std::string& extra = "") {
  std::string b = R"({"inicio": "2030-01-)" + day + "T" + hhmm + R"(:00-03:00", "protocolo": "P-)" + day + hhmm +
                  R"(", "solicitante": {"nome": "Maria Silva", "contato": "maria@example.com"})";
  if (!vistoriador.empty()) b += R"(, "vistoriador": ")" + vistoriador + "\"";
  return b + extra + "}";
}

/// A stack of its own per test (tenants alfa and beta), with the agenda on alfa.
struct Fixture : cadastre::test::ServerFixture {
  explicit Fixture(bool with_agenda = true, cadastre::server::AppOptions options = {})
      : ServerFixture(
            std::make_unique<Stack>(std::vector<std::string>{"alfa", "beta"}, std::move(options))) {
    if (with_agenda) REQUIRE(put("/agendamento/alfa/agenda", kAgenda)->status == 200);
  }
  /// Books and returns the new reservation's id (the booking must succeed).
  std::string book(const std::string& day, const std::string& hhmm, const std::string& vistoriador = "") {
    auto r = post("/agendamento/alfa/reservas", booking(day, hhmm, vistoriador));
    REQUIRE(r);
    INFO(r->body);
    REQUIRE(r->status == 201);
    return member(r->body, "id");
  }
  /// A top-level member of a JSON object as text (strings unquoted, numbers as digits).
  static std::string member(const std::string& json, const char* key) {
    simdjson::dom::parser p;
    auto e = p.parse(json)[key];
    if (e.is_string()) return std::string(std::string_view(e));
    if (e.is_null()) return "null";
    return simdjson::minify(e.value());
  }
};

}  // namespace sched_test
