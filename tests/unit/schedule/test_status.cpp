#include "schedule_test_util.hpp"

using namespace schedule_test;
using cadastre::errc;

TEST_CASE("status names parse and print") {
  CHECK(parse_status("agendado") == Status::agendado);
  CHECK(parse_status("em_progresso") == Status::em_progresso);
  CHECK(parse_status("concluido") == Status::concluido);
  CHECK(to_string(Status::agendado) == "agendado");
  CHECK(to_string(Status::em_progresso) == "em_progresso");
  CHECK(to_string(Status::concluido) == "concluido");
  for (std::string_view bad : {"", "Agendado", "cancelado", "concluído", "em progresso"}) {
    auto e = error_of([&] { parse_status(bad); });
    CHECK(e.code() == errc::invalid_argument);
    CHECK(e.field() == "status");
  }
}

TEST_CASE("advance: agendado → em_progresso → concluido, concluido is final") {
  CHECK(next_status(Status::agendado) == Status::em_progresso);
  CHECK(next_status(Status::em_progresso) == Status::concluido);
  auto e = error_of([] { next_status(Status::concluido); });
  CHECK(e.code() == errc::invalid_transition);
  CHECK(std::string(e.what()) == "reserva em 'concluido' não pode avançar");

  CHECK(next_status(std::string_view("agendado")) == "em_progresso");
  CHECK(next_status(std::string_view("em_progresso")) == "concluido");
  auto s = error_of([] { next_status(std::string_view("concluido")); });
  CHECK(s.code() == errc::invalid_transition);
  CHECK(contains(s.what(), "'concluido'"));
  CHECK(error_of([] { next_status(std::string_view("pendente")); }).code() == errc::invalid_argument);
}

TEST_CASE("explicit transitions: only the forward step") {
  CHECK_NOTHROW(check_transition(Status::agendado, Status::em_progresso));
  CHECK_NOTHROW(check_transition(Status::em_progresso, Status::concluido));

  struct Move { Status from, to; const char* from_name; const char* to_name; };
  const Move refused[] = {
      {Status::agendado, Status::agendado, "agendado", "agendado"},
      {Status::agendado, Status::concluido, "agendado", "concluido"},
      {Status::em_progresso, Status::agendado, "em_progresso", "agendado"},
      {Status::em_progresso, Status::em_progresso, "em_progresso", "em_progresso"},
      {Status::concluido, Status::agendado, "concluido", "agendado"},
      {Status::concluido, Status::em_progresso, "concluido", "em_progresso"},
      {Status::concluido, Status::concluido, "concluido", "concluido"},
  };
  for (const auto& m : refused) {
    CAPTURE(m.from_name);
    CAPTURE(m.to_name);
    auto e = error_of([&] { check_transition(m.from, m.to); });
    CHECK(e.code() == errc::invalid_transition);
    CHECK(contains(e.what(), std::string("de '") + m.from_name + "' para '" + m.to_name + "'"));
  }
  CHECK(std::string(error_of([] { check_transition(Status::agendado, Status::concluido); }).what()) ==
        "transição de 'agendado' para 'concluido' não permitida: o próximo estado é 'em_progresso'");
}
