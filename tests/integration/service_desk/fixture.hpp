// Shared by the /atendimento tests: one stack per test binary (tenant "alfa" with a small
// demo city, "beta" empty), a media root of its own in a temporary directory (inspection
// photos are media), and helpers for reservations, photos and JSON members; the request
// and database helpers are ServerFixture's.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>

#include "store/crypto.hpp"
#include "support/server_fixture.hpp"
#include "support/temp_dir.hpp"

namespace desk_test {

using cadastre::test::Answer;
using cadastre::test::ServerFixture;
using cadastre::test::Stack;

struct Env {
  cadastre::test::TempDir dir{"cadastre-atendimento"};  // first member: removed last
  std::filesystem::path root = dir.path();
  std::unique_ptr<Stack> stack;
  Env() {
    cadastre::server::AppOptions o;
    o.media.root = root.string();
    stack = std::make_unique<Stack>(std::vector<std::string>{"alfa", "beta"}, o);
    stack->load_demo("alfa", 8);
  }
};

inline Env& env() {
  static Env e;
  return e;
}
struct Fixture : ServerFixture {
  Fixture() : ServerFixture(*env().stack) {}
};
/// The binary's fixture, for the helpers outside a test.
inline Fixture& fixture() {
  static Fixture f;
  return f;
}

/// A top-level member as text (strings unquoted, anything else as minified JSON).
inline std::string member(Answer& a, const char* key) {
  auto e = a.json()[key];
  REQUIRE_MESSAGE(e.error() == simdjson::SUCCESS, key << " em " << a.body);
  if (e.is_string()) return std::string(std::string_view(e));
  return simdjson::minify(e.value());
}

/// A reservation stored directly (the scheduling rules are not under test here), starting
/// `days` from now; returns its id.
inline std::string reserve(int days = 3, const std::string& slug = "alfa") {
  return fixture().db(
      "insert into agendamento.reserva (inicio, fim, protocolo, solicitante_nome, lote_id) values "
      "(now() + "
      "interval '" +
          std::to_string(days) + " days', now() + interval '" + std::to_string(days) +
          " days 1 hour', 'P-TESTE', 'Maria Silva', (select min(id) from cadastro.lote)) returning "
          "id",
      slug);
}

inline std::string png(std::size_t n = 100) {
  std::string b("\x89PNG\r\n\x1a\n", 8);
  b.resize(n, 'x');
  return b;
}

/// A media record of `slug` (through the API); returns its id.
inline std::string media_id(const std::string& slug = "alfa") {
  auto a = fixture().call("POST", "/midia/" + slug + "/storage",
                          R"({"arquivo": ")" + cadastre::store::base64_encode(png()) +
                              R"(", "nome": "f.png", "extensao": ".png"})",
                          fixture().token(slug));
  REQUIRE_MESSAGE(a->status == 201, a->body);
  return member(*a, "id");
}

/// A file sent through the credential-less upload; returns its key.
inline std::string public_key() {
  auto a = fixture().call("POST", "/midia/storage",
                          R"({"arquivo": ")" + cadastre::store::base64_encode(png()) +
                              R"(", "nome": "c.png", "extensao": ".png"})",
                          "");
  REQUIRE_MESSAGE(a->status == 201, a->body);
  return member(*a, "chave");
}

/// Creates the inspection of a new reservation; returns (agendamento_id, token).
inline std::pair<std::string, std::string> inspection(const std::string& extra = "") {
  auto id = reserve();
  auto a = fixture().call("POST", "/atendimento/alfa/vistoria",
                          R"({"agendamento_id": )" + id + extra + "}");
  REQUIRE_MESSAGE(a->status == 201, a->body);
  return {id, member(*a, "token")};
}

}  // namespace desk_test
