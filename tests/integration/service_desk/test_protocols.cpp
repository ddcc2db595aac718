// GET /atendimento/{municipio}/protocolos: filters, local dates, paging and refusals.
#include "fixture.hpp"

using namespace desk_test;

namespace {

void seed() {
  static bool done = false;
  if (done) return;
  fixture().db(
      "insert into atendimento.protocolo (ano, numero, solicitante_nome, assunto, status, "
      "aberto_em) values "
      "(2011, 1, 'Maria Aparecida', 'Revisão de área', 'aberto', '2011-03-10 10:00-03'),"
      "(2011, 2, 'João Pereira', 'Certidão de valor venal', 'deferido', '2011-05-02 10:00-03'),"
      "(2011, 3, 'MARIA José', 'Desmembramento 100%', 'indeferido', '2011-08-15 10:00-03'),"
      "(2012, 1, 'Ana Souza', 'Revisão de área', 'aberto', '2012-06-30 23:30-03'),"
      "(2012, 2, 'Pedro_Lima', 'Vistoria', 'em_analise', '2012-07-01 00:30-03'),"
      "(2012, 3, 'Carla Dias', 'Vistoria', 'arquivado', '2012-09-01 09:00-03') returning 1");
  done = true;
}

// "numero/ano" of each protocol in the answer, in order.
std::string listed(Answer& a) {
  std::string out;
  for (auto p : a.json()["protocolos"].get_array()) {
    out += (out.empty() ? "" : ",") + std::to_string(int64_t(p["numero"])) + "/" + std::to_string(int64_t(p["ano"]));
  }
  return out;
}

std::unique_ptr<Answer> list(const std::string& query) {
  auto a = fixture().call("GET", "/atendimento/alfa/protocolos" + query);
  INFO(query << " → " << a->body);
  REQUIRE(a->status == 200);
  return a;
}

}  // namespace

TEST_CASE_FIXTURE(
    Fixture,
    "protocols are filtered by status, year, number, requester and subject, newest first") {
  seed();
  auto y2011 = list("?ano=2011");
  CHECK(member(*y2011, "total") == "3");
  CHECK(listed(*y2011) == "3/2011,2/2011,1/2011");
  CHECK(std::string(std::string_view(y2011->json()["protocolos"].at(0)["codigo"])) == "000003/2011");
  CHECK(std::string(std::string_view(y2011->json()["protocolos"].at(0)["assunto"])) == "Desmembramento 100%");
  CHECK(listed(*list("?ano=2011&status=aberto")) == "1/2011");
  CHECK(listed(*list("?ano=2012&numero=2")) == "2/2012");
  // requester and subject: case-insensitive "contains", with % and _ taken literally
  CHECK(listed(*list("?ano=2011&solicitante=maria")) == "3/2011,1/2011");
  CHECK(listed(*list("?assunto=100%25")) == "3/2011");
  CHECK(listed(*list("?solicitante=_")) == "2/2012");
  CHECK(listed(*list("?assunto=vistoria&ano=2012")) == "3/2012,2/2012");
  CHECK(member(*list("?status=arquivado&ano=2012"), "total") == "1");
}

TEST_CASE_FIXTURE(Fixture,
                  "protocol dates are local dates of the municipality, and lists are paged") {
  seed();
  // 2012-06-30 23:30 and 2012-07-01 00:30 in São Paulo (UTC−3) are both 2012-07-01 in UTC.
  CHECK(listed(*list("?de=2012-07-01&ate=2012-07-01")) == "2/2012");
  CHECK(listed(*list("?de=2012-06-30&ate=2012-06-30")) == "1/2012");
  CHECK(listed(*list("?de=2011-05-01&ate=2012-06-30")) == "1/2012,3/2011,2/2011");
  auto p2 = list("?ano=2011&limit=2&page=2");
  CHECK(member(*p2, "total") == "3");
  CHECK(member(*p2, "pagina") == "2");
  CHECK(member(*p2, "limite") == "2");
  CHECK(listed(*p2) == "1/2011");
  CHECK(listed(*list("?ano=2011&offset=1&limit=1")) == "2/2011");
  auto all = list("");
  CHECK(member(*all, "total") == db("select count(*) from atendimento.protocolo"));
}

TEST_CASE_FIXTURE(Fixture, "bad protocol filters are 400 before any SQL") {
  for (const char* q : {"?status=fechado", "?ano=abc", "?ano=1999", "?numero=0", "?numero=1%20or%20true",
                        "?de=2011-13-01", "?ate=ontem", "?filtro=x", "?limit=0", "?page=-1"}) {
    auto a = call("GET", std::string("/atendimento/alfa/protocolos") + q);
    CHECK_MESSAGE(a->status == 400, std::string(q) << " → " << a->body);
  }
  CHECK(call("GET", "/atendimento/alfa/protocolos?solicitante=%27%3B%20drop%20table%20x%3B--")->status == 200);
}
