// POST /geometrias/offline: a batch applied once, in order, in one transaction — also when
// sent twice at the same moment; sent again it changes nothing and answers the same report;
// a stale versaoBase is a reported conflict, never an overwrite; any other failure rolls
// the whole batch back with a report per item.
#include <latch>
#include <thread>

#include "parcels.hpp"

using namespace cadastre;
using test::Parcels;
using test::PlatformFixture;
using test::refused;

TEST_CASE_FIXTURE(PlatformFixture, "an offline batch is applied once, even sent twice at once, and answered the same") {
  Parcels w(*this);
  std::int64_t g = w.rect(610000, 7795000, 20, 30), h = w.rect(610100, 7795000, 20, 30);
  const std::string batch =
      R"([{"idCliente":"c1","operacao":"criar","idCamada":)" + Parcels::n(w.lots) + R"(,"srid":31983,"wkt":")" +
      Parcels::utm_rect(610200, 7795000, 10, 10) + R"("},{"idCliente":"a1","operacao":"alterar","id":)" +
      Parcels::n(g) + R"(,"versaoBase":1,"srid":31983,"wkt":")" + Parcels::utm_rect(610000, 7795000, 25, 30) +
      R"("},{"idCliente":"e1","operacao":"excluir","id":)" + Parcels::n(h) + R"(,"versaoBase":1}])";
  std::string audits = w.count("geometrias_auditoria");
  test::Heard heard(*this, w.owner);

  test::Raced r = test::post_twice_at_once(*this, "/geometrias/offline", batch, w.editor);
  CHECK_MESSAGE(r.status[0] == 200, r.body[0]);
  CHECK_MESSAGE(r.status[1] == 200, r.body[1]);
  CHECK(r.body[0] == r.body[1]);
  CHECK(w.count("geometrias") == "2");  // g changed, h deleted, one created
  CHECK(w.version(g) == "2");
  CHECK(w.area(g) == doctest::Approx(750).epsilon(0.005));
  CHECK(w.count("geometrias", "id = " + Parcels::n(h)) == "0");
  CHECK(std::stoll(w.count("geometrias_auditoria")) == std::stoll(audits) + 3);
  CHECK(r.body[0].find(R"("situacao": "aplicado")") != std::string::npos);
  CHECK(heard.size() == 3);  // announced once: criar, alterar, excluir

  // Again: the same report, nothing changed (h is gone, yet its item is answered).
  auto again = post("/geometrias/offline", batch, w.editor);
  REQUIRE_MESSAGE(again->status == 200, again->body);
  CHECK(again->body == r.body[0]);
  CHECK(w.version(g) == "2");
  CHECK(std::stoll(w.count("geometrias_auditoria")) == std::stoll(audits) + 3);
  CHECK(w.count("geometrias_offline", "usuario_id = " + Parcels::n(w.editor.user_id)) == "3");
  CHECK(heard.size() == 3);

  // A stale versaoBase: reported with both versions and the current state, not applied.
  auto conflict = post("/geometrias/offline",
                       R"([{"idCliente":"a2","operacao":"alterar","id":)" + Parcels::n(g) +
                           R"j(,"versaoBase":1,"wkt":"POLYGON((-45 -20,-44.9 -20,-44.9 -19.9,-45 -20))"}])j",
                       w.editor);
  REQUIRE_MESSAGE(conflict->status == 200, conflict->body);
  auto item = conflict->json()["itens"].at(0);
  CHECK(std::string_view(item["situacao"]) == "conflito");
  CHECK(int64_t(item["versaoBase"]) == 1);
  CHECK(int64_t(item["versaoAtual"]) == 2);
  CHECK(int64_t(item["atual"]["versao"]) == 2);
  CHECK(w.version(g) == "2");

  // An invalid geometry rolls the whole batch back, with a report per item.
  std::string before = w.count("geometrias");
  auto failed = post("/geometrias/offline",
                     R"([{"idCliente":"c2","operacao":"criar","idCamada":)" + Parcels::n(w.lots) +
                         R"j(,"wkt":"POLYGON((-45 -20,-44.9 -20,-44.9 -19.9,-45 -20))"},{"idCliente":"c3","operacao":"criar","idCamada":)j" +
                         Parcels::n(w.lots) + R"j(,"wkt":"POLYGON((-45 -20,-44.9 -19.9,-44.9 -20,-45 -19.9,-45 -20))"}])j",
                     w.editor);
  refused(*failed, 400, "parametro_invalido", "nada foi gravado");
  auto report = failed->json()["relatorio"]["itens"];
  CHECK(std::string_view(report.at(0)["situacao"]) == "nao_aplicado");
  CHECK(std::string_view(report.at(1)["situacao"]) == "erro");
  CHECK(std::string_view(report.at(1)["motivo"]).find("Self-intersection") != std::string_view::npos);
  CHECK(w.count("geometrias") == before);
  CHECK(w.count("geometrias_offline", "id_cliente in ('c2', 'c3')") == "0");
  CHECK(heard.size() == 3);  // neither the conflict nor the rolled-back batch announced anything

  // Malformed batches are refused before anything runs.
  refused(*post("/geometrias/offline", "[]", w.editor), 400, "parametro_invalido", "lote");
  refused(*post("/geometrias/offline", R"([{"idCliente":"x","operacao":"mover","id":1,"versaoBase":1}])", w.editor),
          400, "parametro_invalido", "operacao");
  refused(*post("/geometrias/offline",
                R"([{"idCliente":"x","operacao":"excluir","id":1,"versaoBase":1},{"idCliente":"x","operacao":"excluir","id":2,"versaoBase":1}])",
                w.editor),
          400, "parametro_invalido", "repetido");
}
