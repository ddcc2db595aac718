// Quotes (include/cadastre/quote.hpp) on hand-computed cases: a plan bought new or renewed
// with what the license holds beyond it, storage (adicional and upgrade), users and add-ons
// pro rata until the license's end, the taxes of each quote and its totals, and the
// refusals. Every amount is in centavos; each case writes its arithmetic out.
//
// The basis shared by the cases: 1500 centavos per GB and month, 2000 per user and month,
// two taxes, ISS 500 bp (5%) and PIS 65 bp (0.65%), and (where a license runs) the license
// 7 of plan "basico", 'ativa' from 2027-04-01 to 2028-04-10, 5 users, 10240 MB (10 GB),
// one "suporte". Priced on 2028-02-15, its pro rata periods run 2028-02-15 to 2028-04-10:
// 15 of February's 29 days (2028 is a leap year), 31 of 31 in March, 10 of April's 30.
#include <doctest/doctest.h>

#include <climits>
#include <functional>
#include <numeric>
#include <string>

#include "cadastre/error.hpp"
#include "cadastre/quote.hpp"

using namespace cadastre::pricing;

namespace {

Date on(const char* text) { return parse_date(text, "data"); }

const Date kToday = on("2028-02-15");

Basis basis_without_license() {
  Basis b;
  b.hoje = "2028-02-15";
  b.gb_mes = 1500;
  b.usuario_mes = 2000;
  b.impostos = {{"iss", "ISS", 500}, {"pis", "PIS", 65}};
  return b;
}

Basis basis_with(License l) {
  Basis b = basis_without_license();
  b.licenca = std::move(l);
  return b;
}

License running_license() {
  return {7, "2028-01-10T12:00:00+00:00", "basico", "ativa", "2027-04-01", "2028-04-10", 5, 10240, {{"suporte", 1}}};
}

Plan basico_anual() { return {1, "basico", "Básico", "anual", 299000, 5, 10240}; }
Plan basico_mensal() { return {2, "basico", "Básico", "mensal", 29900, 5, 10240}; }

std::map<std::string, Addon> catalog() {
  return {{"suporte", {"suporte", "Suporte prioritário", 4900}}, {"bi", {"bi", "Painel BI", 9900}}};
}

// The refusal of `f` as "codigo/field", or "nothing refused".
std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const cadastre::Error& e) {
    return std::string(cadastre::code_string(e.code())) + "/" + e.field();
  }
  return "nothing refused";
}

std::int64_t sum_of_lines(const Quote& q) {
  return std::accumulate(q.linhas.begin(), q.linhas.end(), std::int64_t{0},
                         [](std::int64_t s, const Line& l) { return s + l.total; });
}

// The quote's totals are its lines plus each tax of their sum, whatever the quote.
void check_totals_add_up(const Quote& q) {
  Totals t = totals(q);
  CHECK(t.subtotal == sum_of_lines(q));
  REQUIRE(t.impostos.size() == q.impostos.size());
  CHECK(t.total == std::accumulate(t.impostos.begin(), t.impostos.end(), t.subtotal));
  for (std::size_t i = 0; i < q.impostos.size(); ++i) CHECK(t.impostos[i] == tax(t.subtotal, q.impostos[i].bp));
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("a plan bought without a license is a new license of one period from today, priced whole") {
  Quote q = plan_quote(basis_without_license(), basico_anual(), catalog(), kToday);
  CHECK(q.tipo == "plano");
  CHECK(q.data == "2028-02-15");
  CHECK_FALSE(q.base.has_value());
  REQUIRE(q.linhas.size() == 1);
  const Line& l = q.linhas[0];
  CHECK(l.descricao == "Plano Básico");
  CHECK(l.unidade == "plano");
  CHECK(l.quantidade == 1);
  CHECK(l.preco_unitario == 299000);
  CHECK(l.inicio == "2028-02-15");
  CHECK(l.fim == "2029-02-14");  // 2028-02-15 + 12 months = 2029-02-15, − 1 day
  CHECK(l.meses.empty());        // a plan is never pro rata
  CHECK(l.total == 299000);

  const Change& c = q.alteracao;
  CHECK(c.nova);
  CHECK(c.plano == "basico");
  CHECK(c.inicio == "2028-02-15");
  CHECK(c.fim == "2029-02-14");
  CHECK(c.max_usuarios == 5);
  CHECK(c.max_mb == 10240);
  CHECK(c.adicionais.empty());

  // ISS: 299000 × 500 / 10000 = 14950 exactly. PIS: 299000 × 65 / 10000 = 1943.5 → 1944
  // (half up). Total: 299000 + 14950 + 1944 = 315894.
  Totals t = totals(q);
  CHECK(t.subtotal == 299000);
  CHECK(t.impostos == std::vector<std::int64_t>{14950, 1944});
  CHECK(t.total == 315894);
  check_totals_add_up(q);
}

TEST_CASE("a renewal starts the day after the license ends and prices what it holds beyond the plan for the whole period") {
  License l = running_license();
  l.inicio = "2027-03-01";
  l.fim = "2028-02-29";
  l.max_usuarios = 7;                              // 2 beyond the plan's 5
  l.max_mb = 12800;                                // 2560 MB beyond the plan's 10240: 2.5 GB → 3 whole GB
  l.adicionais = {{"suporte", 2}, {"antigo", 1}};  // "antigo" is no longer sold
  Quote q = plan_quote(basis_with(l), basico_anual(), catalog(), kToday);

  // 2028-02-29 + 1 day = 2028-03-01; + 12 months − 1 day = 2029-02-28.
  REQUIRE(q.linhas.size() == 4);
  CHECK(q.linhas[0].descricao == "Plano Básico (renovação)");
  CHECK(q.linhas[0].inicio == "2028-03-01");
  CHECK(q.linhas[0].fim == "2029-02-28");
  CHECK(q.linhas[0].total == 299000);
  // 3 GB × 1500 × 12 months = 54000.
  CHECK(q.linhas[1].descricao == "Armazenamento além do plano");
  CHECK(q.linhas[1].unidade == "GB");
  CHECK(q.linhas[1].quantidade == 3);
  CHECK(q.linhas[1].preco_unitario == 1500);
  CHECK(q.linhas[1].meses.empty());
  CHECK(q.linhas[1].total == 54000);
  // 2 users × 2000 × 12 = 48000.
  CHECK(q.linhas[2].descricao == "Usuários além do plano");
  CHECK(q.linhas[2].quantidade == 2);
  CHECK(q.linhas[2].total == 48000);
  // 2 suporte × 4900 × 12 = 117600; "antigo" is not renewed.
  CHECK(q.linhas[3].descricao == "Adicional Suporte prioritário");
  CHECK(q.linhas[3].unidade == "suporte");
  CHECK(q.linhas[3].total == 117600);

  const Change& c = q.alteracao;
  CHECK_FALSE(c.nova);
  CHECK(c.inicio == "2027-03-01");  // the license keeps its start
  CHECK(c.fim == "2029-02-28");
  CHECK(c.max_usuarios == 7);
  CHECK(c.max_mb == 12800);
  CHECK(c.adicionais == std::map<std::string, std::int64_t>{{"suporte", 2}});
  REQUIRE(q.base.has_value());
  CHECK(q.base->id == 7);

  // Subtotal: 299000 + 54000 + 48000 + 117600 = 518600. ISS 5% = 25930. PIS: 518600 × 65
  // / 10000 = 3370.9 → 3371. Total: 518600 + 25930 + 3371 = 547901.
  Totals t = totals(q);
  CHECK(t.subtotal == 518600);
  CHECK(t.impostos == std::vector<std::int64_t>{25930, 3371});
  CHECK(t.total == 547901);
  check_totals_add_up(q);
}

TEST_CASE("a monthly renewal prices what it holds beyond the plan for one month") {
  License l = running_license();  // ends 2028-04-10, 1 suporte, the plan's own quotas
  Quote q = plan_quote(basis_with(l), basico_mensal(), catalog(), kToday);
  // 2028-04-11 + 1 month − 1 day = 2028-05-10; 1 suporte × 4900 × 1 month.
  REQUIRE(q.linhas.size() == 2);
  CHECK(q.linhas[0].inicio == "2028-04-11");
  CHECK(q.linhas[0].fim == "2028-05-10");
  CHECK(q.linhas[0].total == 29900);
  CHECK(q.linhas[1].total == 4900);
  CHECK(totals(q).subtotal == 34800);
  check_totals_add_up(q);
}

TEST_CASE("a plan is a new license from today when the current one is another plan, ended or not 'ativa'") {
  License other = running_license();
  other.plano = "profissional";
  other.max_usuarios = 50;
  License ended = running_license();
  ended.status = "expirada";
  License trial = running_license();
  trial.status = "teste";
  for (const License& l : {other, ended, trial}) {
    CAPTURE(l.plano);
    CAPTURE(l.status);
    Quote q = plan_quote(basis_with(l), basico_anual(), catalog(), kToday);
    CHECK(q.alteracao.nova);
    CHECK(q.alteracao.inicio == "2028-02-15");
    CHECK(q.alteracao.max_usuarios == 5);  // the plan's quotas, not the old license's
    CHECK(q.alteracao.adicionais.empty());
    CHECK(q.linhas.size() == 1);
    REQUIRE(q.base.has_value());  // priced against it all the same: a contract checks it is unchanged
    CHECK(q.base->id == 7);
  }
  // 'ativa' but its fim (2028-04-10) has passed on 2028-04-11: a new license too.
  Quote late = plan_quote(basis_with(running_license()), basico_anual(), catalog(), on("2028-04-11"));
  CHECK(late.alteracao.nova);
  CHECK(late.alteracao.inicio == "2028-04-11");
  // On its last day it is still renewed.
  CHECK_FALSE(plan_quote(basis_with(running_license()), basico_anual(), catalog(), on("2028-04-10")).alteracao.nova);
}

TEST_CASE("the renewal calculator prices another storage total in whole GB beyond the plan, and no less than the plan's") {
  License l = running_license();
  l.fim = "2028-02-29";
  l.adicionais.clear();
  // 20 GB = 20480 MB; beyond the plan's 10240: 10 GB × 1500 × 12 = 180000.
  Quote q = plan_quote(basis_with(l), basico_anual(), catalog(), kToday, 20);
  REQUIRE(q.linhas.size() == 2);
  CHECK(q.linhas[1].quantidade == 10);
  CHECK(q.linhas[1].total == 180000);
  CHECK(q.alteracao.max_mb == 20480);
  // Exactly the plan's 10 GB: no storage line.
  CHECK(plan_quote(basis_with(l), basico_anual(), catalog(), kToday, 10).linhas.size() == 1);

  // 9 GB is under the plan's 10240 MB.
  try {
    plan_quote(basis_with(l), basico_anual(), catalog(), kToday, 9);
    FAIL("9 GB was not refused");
  } catch (const cadastre::Error& e) {
    CHECK(e.code() == cadastre::errc::invalid_argument);
    CHECK(e.field() == "gb");
    CHECK(std::string(e.what()) == "o plano já inclui 10240 MB: informe ao menos 10 GB");
  }
  // 3000000 GB = 3072000000 MB, past the quota column (2147483647).
  CHECK(refusal([&] { plan_quote(basis_with(l), basico_anual(), catalog(), kToday, 3000000); }) ==
        "parametro_invalido/gb");
}

TEST_CASE("additional storage is priced pro rata by the days of each month until the license ends") {
  Quote q = storage_quote(basis_with(running_license()), 10, false, kToday);
  CHECK(q.tipo == "armazenamento");
  REQUIRE(q.linhas.size() == 1);
  const Line& l = q.linhas[0];
  CHECK(l.descricao == "Armazenamento adicional: 10 GB até 2028-04-10");
  CHECK(l.unidade == "GB");
  CHECK(l.quantidade == 10);
  CHECK(l.preco_unitario == 1500);
  CHECK(l.inicio == "2028-02-15");
  CHECK(l.fim == "2028-04-10");
  REQUIRE(l.meses.size() == 3);
  CHECK(l.meses[0].mes == "2028-02");
  CHECK(l.meses[0].dias == 15);
  CHECK(l.meses[0].dias_do_mes == 29);
  CHECK(l.meses[1].mes == "2028-03");
  CHECK(l.meses[1].dias == 31);
  CHECK(l.meses[1].dias_do_mes == 31);
  CHECK(l.meses[2].mes == "2028-04");
  CHECK(l.meses[2].dias == 10);
  CHECK(l.meses[2].dias_do_mes == 30);
  // 10 GB × 1500 = 15000 a month: 15000 × 15/29 + 15000 × 31/31 + 15000 × 10/30
  // = 7758.6206… + 15000 + 5000 = 27758.6206… → 27759.
  CHECK(l.total == 27759);

  CHECK_FALSE(q.alteracao.nova);
  CHECK(q.alteracao.max_mb == 20480);  // 10240 + 10 × 1024
  CHECK(q.alteracao.fim == "2028-04-10");
  CHECK(q.alteracao.max_usuarios == 5);
  CHECK(q.alteracao.adicionais == std::map<std::string, std::int64_t>{{"suporte", 1}});

  // ISS: 27759 × 0.05 = 1387.95 → 1388. PIS: 27759 × 65 / 10000 = 180.4335 → 180.
  // Total: 27759 + 1388 + 180 = 29327.
  Totals t = totals(q);
  CHECK(t.impostos == std::vector<std::int64_t>{1388, 180});
  CHECK(t.total == 29327);
  check_totals_add_up(q);
}

TEST_CASE("a storage upgrade prices only the MB between the current total and the new one") {
  License l = running_license();
  l.max_mb = 10752;  // 10.5 GB
  Quote q = storage_quote(basis_with(l), 12, true, kToday);
  REQUIRE(q.linhas.size() == 1);
  // 12 GB = 12288 MB; 12288 − 10752 = 1536 MB = 1.5 GB.
  CHECK(q.linhas[0].descricao == "Armazenamento (upgrade): 1.5 GB até 2028-04-10");
  CHECK(q.linhas[0].quantidade == 1.5);
  // 1.5 GB × 1500 = 2250 a month: 2250 × 15/29 + 2250 + 2250 × 10/30
  // = 1163.7931… + 2250 + 750 = 4163.7931… → 4164.
  CHECK(q.linhas[0].total == 4164);
  CHECK(q.alteracao.max_mb == 12288);
  check_totals_add_up(q);

  // An upgrade to the current total or below it buys nothing.
  CHECK(refusal([&] { storage_quote(basis_with(l), 10, true, kToday); }) == "conflito/gb");  // 10240 < 10752
  l.max_mb = 12288;
  CHECK(refusal([&] { storage_quote(basis_with(l), 12, true, kToday); }) == "conflito/gb");  // equal
}

TEST_CASE("users are priced pro rata and rounded half up once over the whole period") {
  Quote q = users_quote(basis_with(running_license()), 3, kToday);
  CHECK(q.tipo == "usuario");
  REQUIRE(q.linhas.size() == 1);
  const Line& l = q.linhas[0];
  CHECK(l.descricao == "Usuários adicionais: 3 até 2028-04-10");
  CHECK(l.unidade == "usuário");
  CHECK(l.quantidade == 3);
  CHECK(l.preco_unitario == 2000);
  // 3 × 2000 = 6000 a month: 6000 × 15/29 + 6000 + 6000 × 10/30 = 3103.448… + 6000 + 2000
  // = 11103.448… → 11103 (under half: down).
  CHECK(l.total == 11103);
  CHECK(q.alteracao.max_usuarios == 8);  // 5 + 3
  CHECK(q.alteracao.max_mb == 10240);
  // ISS: 11103 × 0.05 = 555.15 → 555. PIS: 11103 × 65 / 10000 = 72.1695 → 72.
  // Total: 11103 + 555 + 72 = 11730.
  CHECK(totals(q).total == 11730);
  check_totals_add_up(q);
}

TEST_CASE("a purchase on the license's last day is one day of that month") {
  Quote q = users_quote(basis_with(running_license()), 1, on("2028-04-10"));
  REQUIRE(q.linhas.size() == 1);
  REQUIRE(q.linhas[0].meses.size() == 1);
  CHECK(q.linhas[0].meses[0].dias == 1);
  // 2000 × 1/30 = 66.66… → 67.
  CHECK(q.linhas[0].total == 67);
  // … and on its first day, the license's start is inside the period too.
  CHECK(users_quote(basis_with(running_license()), 1, on("2027-04-01")).linhas.size() == 1);
}

TEST_CASE("add-ons are one pro rata line each, each rounded on its own, and add to what the license holds") {
  std::vector<std::pair<Addon, std::int64_t>> items = addon_items(catalog(), {{"suporte", 2}, {"bi", 1}});
  Quote q = addons_quote(basis_with(running_license()), items, kToday);
  CHECK(q.tipo == "adicionais");
  REQUIRE(q.linhas.size() == 2);
  CHECK(q.linhas[0].descricao == "Adicional Suporte prioritário: 2 até 2028-04-10");
  CHECK(q.linhas[0].unidade == "suporte");
  CHECK(q.linhas[0].preco_unitario == 4900);
  // 2 × 4900 = 9800 a month: 9800 × 15/29 + 9800 + 9800 × 10/30
  // = 5068.9655… + 9800 + 3266.6666… = 18135.632… → 18136.
  CHECK(q.linhas[0].total == 18136);
  CHECK(q.linhas[1].descricao == "Adicional Painel BI: 1 até 2028-04-10");
  // 9900 × 15/29 + 9900 + 9900 × 10/30 = 5120.6896… + 9900 + 3300 = 18320.6896… → 18321.
  CHECK(q.linhas[1].total == 18321);
  // The license held 1 suporte: 1 + 2 = 3; bi is new.
  CHECK(q.alteracao.adicionais == std::map<std::string, std::int64_t>{{"bi", 1}, {"suporte", 3}});

  // Subtotal: 18136 + 18321 = 36457 (the lines as rounded). ISS: 36457 × 0.05 = 1822.85 →
  // 1823. PIS: 36457 × 65 / 10000 = 236.9705 → 237. Total: 36457 + 1823 + 237 = 38517.
  Totals t = totals(q);
  CHECK(t.subtotal == 36457);
  CHECK(t.impostos == std::vector<std::int64_t>{1823, 237});
  CHECK(t.total == 38517);
  check_totals_add_up(q);
}

TEST_CASE("no add-ons price nothing and no taxes leave the total at the subtotal") {
  Quote none = addons_quote(basis_with(running_license()), {}, kToday);
  CHECK(none.linhas.empty());
  Totals t = totals(none);
  CHECK(t.subtotal == 0);
  CHECK(t.impostos == std::vector<std::int64_t>{0, 0});
  CHECK(t.total == 0);
  CHECK(none.alteracao.adicionais == running_license().adicionais);

  Basis untaxed = basis_with(running_license());
  untaxed.impostos.clear();
  Quote q = users_quote(untaxed, 3, kToday);
  CHECK(totals(q).impostos.empty());
  CHECK(totals(q).total == 11103);  // the users' line above, untaxed
}

TEST_CASE("add-ons are taken from the catalog in the order asked, and an unknown one is refused naming itens") {
  auto items = addon_items(catalog(), {{"bi", 2}, {"suporte", 1}});
  REQUIRE(items.size() == 2);
  CHECK(items[0].first.nome == "Painel BI");
  CHECK(items[0].first.preco_mes == 9900);
  CHECK(items[0].second == 2);
  CHECK(items[1].first.codigo == "suporte");
  CHECK(addon_items(catalog(), {}).empty());
  try {
    addon_items(catalog(), {{"suporte", 1}, {"mapas3d", 1}});
    FAIL("mapas3d was not refused");
  } catch (const cadastre::Error& e) {
    CHECK(e.code() == cadastre::errc::invalid_argument);
    CHECK(e.field() == "itens");
    CHECK(std::string(e.what()) == "adicional desconhecido: mapas3d");
  }
}

TEST_CASE("pro rata purchases need a license 'ativa' running on the day priced") {
  Basis none = basis_without_license();
  CHECK(refusal([&] { storage_quote(none, 1, false, kToday); }) == "conflito/licenca");
  CHECK(refusal([&] { users_quote(none, 1, kToday); }) == "conflito/licenca");
  CHECK(refusal([&] { addons_quote(none, {}, kToday); }) == "conflito/licenca");
  for (const char* status : {"teste", "expirada", "suspensa"}) {
    CAPTURE(status);
    License l = running_license();
    l.status = status;
    CHECK(refusal([&] { users_quote(basis_with(l), 1, kToday); }) == "conflito/licenca");
  }
  // Outside 2027-04-01 … 2028-04-10, one day either side.
  Basis b = basis_with(running_license());
  CHECK(refusal([&] { users_quote(b, 1, on("2027-03-31")); }) == "parametro_invalido/data");
  CHECK(refusal([&] { storage_quote(b, 1, false, on("2028-04-11")); }) == "parametro_invalido/data");
}

TEST_CASE("a purchase that passes a quota column is refused naming its field, not wrapped") {
  Basis b = basis_with(running_license());
  // 5 + (INT32_MAX − 5) = INT32_MAX fits; one more does not.
  CHECK(users_quote(b, INT32_MAX - 5, kToday).alteracao.max_usuarios == INT32_MAX);
  CHECK(refusal([&] { users_quote(b, INT32_MAX - 4, kToday); }) == "parametro_invalido/quantidade");
  // 10240 MB + 2097152 GB × 1024 = 2147493888 > 2147483647.
  CHECK(refusal([&] { storage_quote(b, 2097152, false, kToday); }) == "parametro_invalido/gb");
  // The license holds 1 suporte: 1 + INT32_MAX passes.
  CHECK(refusal([&] { addons_quote(b, {{catalog().at("suporte"), INT32_MAX}}, kToday); }) ==
        "parametro_invalido/itens");
}

TEST_CASE("the JSON of a quote carries its lines, sums and license base as totals() computes them") {
  Quote q = storage_quote(basis_with(running_license()), 10, false, kToday);
  std::string json = to_json(q);
  CHECK(has(json, R"("tipo":"armazenamento","data":"2028-02-15")"));
  CHECK(has(json, R"({"mes":"2028-02","dias":15,"diasDoMes":29})"));
  CHECK(has(json, R"("totalCentavos":27759})"));  // the line
  CHECK(has(json, R"("subtotalCentavos":27759)"));
  CHECK(has(json, R"({"codigo":"iss","nome":"ISS","aliquotaBp":500,"valorCentavos":1388})"));
  CHECK(has(json, R"({"codigo":"pis","nome":"PIS","aliquotaBp":65,"valorCentavos":180})"));
  CHECK(has(json, R"(],"totalCentavos":29327,"alteracao")"));
  CHECK(has(json, R"("maxArmazenamentoMb":20480,"adicionais":{"suporte":1})"));
  CHECK(has(json, R"("licencaBase":{"id":7,"atualizadaEm":"2028-01-10T12:00:00+00:00"})"));

  // The first license is priced against none.
  CHECK(has(to_json(plan_quote(basis_without_license(), basico_anual(), catalog(), kToday)),
            R"("licencaBase":null)"));
}
