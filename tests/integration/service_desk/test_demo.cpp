// The demo data of media and the service desk: real PNG files behind every demo record,
// protocols of two years in every status, an inspection for each demo reservation, and
// loading twice gives the same result.
#include <libpq-fe.h>

#include <fstream>
#include <sstream>

#include "demo/agenda.hpp"
#include "demo/service_desk.hpp"
#include "fixture.hpp"
#include "store/migrate.hpp"

using namespace desk_test;

namespace {
struct Counts {
  std::int64_t media, desk;
};

Counts load_all() {
  PGconn* c = cadastre::store::connect_or_throw(fixture().stack().tenant_dsn("alfa"));
  Counts out{};
  try {
    cadastre::store::load_demo_agenda(c);
    out.media = cadastre::store::load_demo_media(c, env().root.string(), "alfa");
    out.desk = cadastre::store::load_demo_service_desk(c);
  } catch (...) {
    PQfinish(c);
    throw;
  }
  PQfinish(c);
  return out;
}

std::size_t files_in_area() {
  std::size_t n = 0;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(env().root / "alfa", ec);
       it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
    n += it->is_regular_file();
  return n;
}
}  // namespace

TEST_CASE_FIXTURE(Fixture,
                  "demo media and service desk: every record's link serves a real PNG, and "
                  "reloading replaces its own rows") {
  std::size_t files_before = files_in_area();
  auto first = load_all();
  CHECK(first.media == 6);
  auto reservations = db("select count(*) from agendamento.reserva where criado_por = 'demo'");
  CHECK(first.desk == 20 + std::stoll(reservations));
  auto keys_first = db("select string_agg(chave, ',' order by chave) from midia.arquivo where criado_por = 'demo'");

  auto second = load_all();
  CHECK(second.media == first.media);
  CHECK(second.desk == first.desk);
  CHECK(db("select count(*) from midia.arquivo where criado_por = 'demo'") == "6");
  CHECK(db("select count(*) from atendimento.protocolo where criado_por = 'demo'") == "20");
  CHECK(db("select count(*) from atendimento.vistoria where criado_por = 'demo'") == reservations);
  // The replaced files are gone from disk: only the current demo files remain.
  CHECK(files_in_area() == files_before + 6);
  CHECK(db("select string_agg(chave, ',' order by chave) from midia.arquivo where criado_por = 'demo'") != keys_first);

  // Every demo record's link serves its bytes, a real PNG with the recorded size and SHA-256.
  auto rows = db("select string_agg(id || ' ' || chave || ' ' || tamanho || ' ' || sha256, ';' order by id) "
                 "from midia.arquivo where criado_por = 'demo'");
  std::stringstream all(rows);
  for (std::string row; std::getline(all, row, ';');) {
    std::stringstream parts(row);
    std::string id, key, size, sha;
    parts >> id >> key >> size >> sha;
    auto got = call("GET", "/midia/get?file_url=" + key, "", "");
    INFO(row);
    REQUIRE(got->status == 200);
    CHECK(got->content_type == "image/png");
    CHECK(got->body.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
    CHECK(got->body.substr(12, 4) == "IHDR");
    CHECK(got->body.substr(got->body.size() - 8, 4) == "IEND");
    CHECK(std::to_string(got->body.size()) == size);
    CHECK(cadastre::store::sha256_hex(got->body) == sha);
    CHECK(call("GET", "/midia/alfa/arquivos/" + id)->status == 200);
  }

  // Protocols of two years in every status; inspections follow their reservation's status
  // and the concluded ones carry photos of their lot.
  CHECK(db("select count(distinct ano) || '/' || count(distinct status) from atendimento.protocolo where criado_por = 'demo'") ==
        "2/5");
  CHECK(db("select count(*) from atendimento.vistoria v join agendamento.reserva r on r.id = v.agendamento_id where "
           "v.criado_por = 'demo' and (r.status = 'concluido') <> (v.status = 'concluida')") == "0");
  CHECK(db("select bool_and(cardinality(fotos) > 0 and jsonb_array_length(checklist) = 4 and constatacoes is not null) "
           "from atendimento.vistoria where criado_por = 'demo' and status = 'concluida'") == "t");
  auto list = call("GET", "/atendimento/alfa/vistoria?status=concluida");
  REQUIRE(list->status == 200);
  CHECK(list->body.find("/midia/get?file_url=alfa.") != std::string::npos);
  auto protocols = call("GET", "/atendimento/alfa/protocolos?solicitante=aparecida%20silva");
  CHECK(member(*protocols, "total") == "1");
}
