// Contracting over HTTP: the public catalog, quotes with their lines and taxes, contracts
// that change the license once (also when the same quote arrives twice at the same time),
// the refusals of expired, tampered and stale quotes, and the storage calculators on
// hand-computed cases (the arithmetic is written next to each).
#include <algorithm>
#include <thread>

#include "contracting.hpp"

using namespace cadastre;
using test::n;
using test::PlatformFixture;
using test::refused;
using test::Session;

namespace {

std::int64_t plan_id(const PlatformFixture& f, const std::string& codigo) {
  return std::stoll(f.platform_db("select id from plataforma.planos where codigo = '" + codigo + "'"));
}
std::string contracts(const PlatformFixture& f) { return f.platform_db("select count(*) from plataforma.contratos"); }
std::int64_t total(test::Answer& a) { return int64_t(a.json()["totalCentavos"]); }

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture, "GET /planos is public and lists the plans, unit prices and add-ons in centavos") {
  auto a = request("GET", "/planos", {});
  REQUIRE_MESSAGE(a->status == 200, a->body);
  auto planos = a->json()["planos"].get_array();
  REQUIRE(planos.size() == 3);
  CHECK(std::string_view(planos.at(0)["codigo"]) == "basico_mensal");
  CHECK(int64_t(planos.at(0)["precoCentavos"]) == 29900);
  CHECK(int64_t(planos.at(0)["maxArmazenamentoMb"]) == 10240);
  CHECK(std::string_view(planos.at(2)["periodo"]) == "anual");
  CHECK(int64_t(a->json()["precos"]["armazenamentoGbMesCentavos"]) == 1500);
  CHECK(int64_t(a->json()["precos"]["usuarioMesCentavos"]) == 4900);
  CHECK(a->json()["adicionais"].get_array().size() == 2);
  CHECK(a->json()["impostos"].get_array().size() == 0);
  // An inactive plan leaves the catalog.
  platform_db("update plataforma.planos set ativo = false where codigo = 'profissional_mensal' returning id");
  CHECK(get("/planos", user("alfa"))->json()["planos"].get_array().size() == 2);
}

TEST_CASE_FIXTURE(PlatformFixture, "a plan's quote has its line and taxes; contracting it makes the license once") {
  platform_db("insert into plataforma.impostos (codigo, nome, aliquota_bp) values ('iss', 'ISS', 500), "
              "('cofins', 'COFINS', 300) returning 1");
  Session chefe = admin("alfa", "chefe@alfa.gov.br");
  auto q = test::prepared(*this, "plano", R"({"idPlano":)" + n(plan_id(*this, "basico_mensal")) + "}", chefe);
  // 29900 + ISS 5% (1495) + COFINS 3% (897, 29900 × 0.03 = 897.00) = 32292.
  CHECK(int64_t(q->json()["subtotalCentavos"]) == 29900);
  auto impostos = q->json()["impostos"].get_array();
  REQUIRE(impostos.size() == 2);
  CHECK(std::string_view(impostos.at(0)["codigo"]) == "cofins");
  CHECK(int64_t(impostos.at(0)["valorCentavos"]) == 897);
  CHECK(int64_t(impostos.at(1)["valorCentavos"]) == 1495);
  CHECK(total(*q) == 32292);
  auto linhas = q->json()["linhas"].get_array();
  REQUIRE(linhas.size() == 1);
  CHECK(int64_t(linhas.at(0)["totalCentavos"]) == 29900);
  const std::string today = platform_db("select current_date::text");
  const std::string month_end = platform_db("select (current_date + interval '1 month' - interval '1 day')::date::text");
  CHECK(std::string_view(q->json()["alteracao"]["inicio"]) == today);
  CHECK(std::string_view(q->json()["alteracao"]["fim"]) == month_end);
  CHECK(bool(q->json()["alteracao"]["novaLicenca"]));
  CHECK(q->json()["licencaBase"].is_null());
  CHECK(q->text("hash").size() == 64);
  CHECK(platform_db("select (expira_em > now() + interval '23 hours')::text from plataforma.orcamentos where id = " +
                    n(int64_t(q->json()["id"]))) == "true");

  auto c = post("/contratar/plano", test::contract_body(*q), chefe);
  REQUIRE_MESSAGE(c->status == 201, c->body);
  CHECK(int64_t(c->json()["totalCentavos"]) == 32292);
  CHECK(c->text("pagamento") == "pendente");
  CHECK(test::license_of(*this, "alfa", "plano || ' ' || status || ' ' || inicio || ' ' || fim || ' ' || "
                                        "max_usuarios || ' ' || max_armazenamento_mb") ==
        "basico_mensal ativa " + today + " " + month_end + " 5 10240");
  CHECK(get("/licencas/meu-plano", chefe)->text("status") == "ativa");

  // The same quote again: the same contract, 200, nothing new.
  auto again = post("/contratar/plano", test::contract_body(*q), chefe);
  REQUIRE_MESSAGE(again->status == 200, again->body);
  CHECK(int64_t(again->json()["id"]) == int64_t(c->json()["id"]));
  CHECK(contracts(*this) == "1");
  CHECK(test::license_of(*this, "alfa", "count(*) over ()") == "1");

  // The same plan while it runs is its renewal: the license goes on one more month.
  auto renewal = test::prepared(*this, "plano", R"({"idPlano":)" + n(plan_id(*this, "basico_mensal")) + "}", chefe);
  CHECK_FALSE(bool(renewal->json()["alteracao"]["novaLicenca"]));
  const std::string next_end = platform_db("select (('" + month_end +
                                           "'::date + 1) + interval '1 month' - interval '1 day')::date::text");
  CHECK(std::string_view(renewal->json()["alteracao"]["fim"]) == next_end);
  CHECK(total(*renewal) == 32292);
  REQUIRE(post("/contratar/plano", test::contract_body(*renewal), chefe)->status == 201);
  CHECK(test::license_of(*this, "alfa", "inicio || ' ' || fim || ' ' || count(*) over ()") ==
        today + " " + next_end + " 1");
}

TEST_CASE_FIXTURE(PlatformFixture, "the same contratar sent twice at once makes exactly one contract") {
  test::set_license(*this, "alfa", "basico_mensal", "ativa", "current_date - 10", "current_date + 20", 5, 10240);
  Session chefe = admin("alfa", "chefe@alfa.gov.br");
  auto q = test::prepared(*this, "armazenamento", R"({"gb":5})", chefe);
  const std::string body = test::contract_body(*q);
  int status[2] = {0, 0};
  std::int64_t ids[2] = {0, 0};
  std::string bodies[2];
  {
    std::thread a([&] {
      auto r = post("/contratar/armazenamento", body, chefe);
      status[0] = r->status, bodies[0] = r->body;
    });
    std::thread b([&] {
      auto r = post("/contratar/armazenamento", body, chefe);
      status[1] = r->status, bodies[1] = r->body;
    });
    a.join();
    b.join();
  }
  for (int i = 0; i < 2; ++i) {
    test::Answer r;
    r.body = bodies[i];
    ids[i] = int64_t(r.json()["id"]);
  }
  CHECK(std::min(status[0], status[1]) == 200);
  CHECK(std::max(status[0], status[1]) == 201);
  CHECK(ids[0] == ids[1]);
  CHECK(contracts(*this) == "1");
  CHECK(test::license_of(*this, "alfa", "max_armazenamento_mb") == "15360");  // 10240 + 5 × 1024, once
}

TEST_CASE_FIXTURE(PlatformFixture, "storage, users and add-ons are quoted pro rata to the license's end and contracted") {
  test::set_license(*this, "alfa", "basico_mensal", "ativa", "current_date - 10", "current_date + 40", 5, 10240);
  platform_db("insert into plataforma.impostos (codigo, nome, aliquota_bp) values ('iss', 'ISS', 500) returning 1");
  Session chefe = admin("alfa", "chefe@alfa.gov.br");
  const std::string today = platform_db("select current_date::text");

  // A quote of today is what the calculator says for today; its taxes are 5% of its subtotal.
  auto storage = test::prepared(*this, "armazenamento", R"({"gb":3})", chefe);
  auto calc = post("/calculadora/armazenamento/adicional", R"({"gb":3})", chefe);
  REQUIRE_MESSAGE(calc->status == 200, calc->body);
  CHECK(total(*storage) == total(*calc));
  std::int64_t sub = int64_t(storage->json()["subtotalCentavos"]);
  CHECK(total(*storage) == sub + (sub * 500 * 2 + 10000) / 20000);
  auto line = storage->json()["linhas"].get_array().at(0);
  CHECK(std::string_view(line["inicio"]) == today);
  CHECK(std::string_view(line["fim"]) == test::license_of(*this, "alfa", "fim::text"));
  // 41 days (today to today + 40): between one and two months of 3 × 1500 = 4500.
  CHECK(sub > 4500);
  CHECK(sub < 9000);
  REQUIRE(post("/contratar/armazenamento", test::contract_body(*storage), chefe)->status == 201);
  CHECK(test::license_of(*this, "alfa", "max_armazenamento_mb") == "13312");  // 10240 + 3072
  // An upgrade names the total: 15 GB in all is 15360 − 13312 = 2048 MB more, priced as 2 GB.
  auto upgrade = test::prepared(*this, "armazenamento", R"({"gb":15,"modo":"upgrade"})", chefe);
  auto two_more = post("/calculadora/armazenamento/adicional", R"({"gb":2})", chefe);
  CHECK(int64_t(upgrade->json()["subtotalCentavos"]) == int64_t(two_more->json()["subtotalCentavos"]));
  CHECK(int64_t(upgrade->json()["alteracao"]["maxArmazenamentoMb"]) == 15360);

  auto users = test::prepared(*this, "usuario", R"({"quantidade":3})", chefe);
  CHECK(int64_t(users->json()["alteracao"]["maxUsuarios"]) == 8);
  REQUIRE(post("/contratar/usuario", test::contract_body(*users), chefe)->status == 201);
  CHECK(test::license_of(*this, "alfa", "max_usuarios") == "8");

  auto addons = test::prepared(*this, "adicionais", R"({"itens":[{"codigo":"suporte_prioritario","quantidade":2}]})",
                               chefe);
  CHECK(addons->json()["linhas"].get_array().size() == 1);
  REQUIRE(post("/contratar/adicionais", test::contract_body(*addons), chefe)->status == 201);
  CHECK(test::license_of(*this, "alfa", "adicionais::text") == R"({"suporte_prioritario": 2})");
  CHECK(contracts(*this) == "3");

  // A trial (or no license at all) buys a plan first.
  test::set_license(*this, "alfa", "teste", "teste", "current_date", "current_date + 10", 2, 100);
  refused(*post("/preparar/contratacao/armazenamento", R"({"gb":1})", chefe), 409, "conflito", "plano");
}

TEST_CASE_FIXTURE(PlatformFixture, "expired, tampered, stale, misrouted and other tenants' quotes are refused") {
  test::set_license(*this, "alfa", "basico_mensal", "ativa", "current_date - 10", "current_date + 20", 5, 10240);
  Session chefe = admin("alfa", "chefe@alfa.gov.br");
  auto quote_id = [](test::Answer& a) { return n(int64_t(a.json()["id"])); };

  auto expired = test::prepared(*this, "usuario", R"({"quantidade":1})", chefe);
  platform_db("update plataforma.orcamentos set expira_em = now() - interval '1 minute' where id = " +
              quote_id(*expired) + " returning id");
  refused(*post("/contratar/usuario", test::contract_body(*expired), chefe), 409, "conflito", "expirado");

  auto q = test::prepared(*this, "usuario", R"({"quantidade":1})", chefe);
  // A hash that is not the quote's.
  std::string forged = R"({"idOrcamento":)" + quote_id(*q) + R"(,"hash":")" + std::string(64, 'a') + R"("})";
  refused(*post("/contratar/usuario", forged, chefe), 409, "conflito", "hash");
  // The stored quote changed behind its hash (a lower total).
  platform_db("update plataforma.orcamentos set conteudo = jsonb_set(conteudo, '{totalCentavos}', '1') where id = " +
              quote_id(*q) + " returning id");
  refused(*post("/contratar/usuario", test::contract_body(*q), chefe), 409, "conflito", "hash");

  // The license changed after the quote: prepare another.
  auto stale = test::prepared(*this, "usuario", R"({"quantidade":1})", chefe);
  platform_db("update plataforma.licencas set atualizada_em = now() where tenant_id = " + n(tenant_id("alfa")) +
              " returning id");
  refused(*post("/contratar/usuario", test::contract_body(*stale), chefe), 409, "conflito", "licença mudou");

  // A quote goes to the route of its kind.
  auto storage = test::prepared(*this, "armazenamento", R"({"gb":1})", chefe);
  refused(*post("/contratar/plano", test::contract_body(*storage), chefe), 400, "parametro_invalido",
          "/contratar/armazenamento");
  // Another tenant's quote is unknown.
  refused(*post("/contratar/armazenamento", test::contract_body(*storage), admin("beta", "chefe@beta.gov.br")), 404,
          "nao_encontrado");
  refused(*post("/contratar/armazenamento", R"({"idOrcamento":999999,"hash":")" + std::string(64, '0') + R"("})",
                chefe),
          404, "nao_encontrado");
  CHECK(contracts(*this) == "0");
  CHECK(test::license_of(*this, "alfa", "max_usuarios || ' ' || max_armazenamento_mb") == "5 10240");
  // Still good: the untouched storage quote.
  CHECK(post("/contratar/armazenamento", test::contract_body(*storage), chefe)->status == 201);
}

TEST_CASE_FIXTURE(PlatformFixture, "contracting routes refuse bad input, callers without a session and non-admins") {
  test::set_license(*this, "alfa", "basico_mensal", "ativa", "current_date - 10", "current_date + 20", 5, 10240);
  Session chefe = admin("alfa", "chefe@alfa.gov.br");
  Session comum = user("alfa");
  const char* session_routes[] = {
      "/preparar/contratacao/plano",   "/preparar/contratacao/armazenamento", "/preparar/contratacao/usuario",
      "/preparar/contratacao/adicionais", "/contratar/plano",               "/contratar/armazenamento",
      "/contratar/usuario",            "/contratar/adicionais",             "/calculadora/armazenamento/renovacao",
      "/calculadora/armazenamento/upgrade", "/calculadora/armazenamento/adicional"};
  for (const char* path : session_routes) {
    CAPTURE(path);
    refused(*request("POST", path, {}, "{}"), 401, "nao_autenticado");
    if (std::string_view(path).starts_with("/calculadora")) continue;
    refused(*post(path, "{}", comum), 403, "acesso_negado");
  }
  // The calculators are for every session of the tenant.
  CHECK(post("/calculadora/armazenamento/adicional", R"({"gb":1})", comum)->status == 200);

  refused(*post("/preparar/contratacao/plano", "{}", chefe), 400, "campo_obrigatorio", "idPlano");
  refused(*post("/preparar/contratacao/plano", R"({"idPlano":"1;drop table x"})", chefe), 400, "parametro_invalido",
          "idPlano");
  refused(*post("/preparar/contratacao/plano", R"({"idPlano":424242})", chefe), 404, "nao_encontrado", "plano");
  refused(*post("/preparar/contratacao/armazenamento", R"({"gb":0})", chefe), 400, "parametro_invalido", "gb");
  refused(*post("/preparar/contratacao/armazenamento", R"({"gb":100001})", chefe), 400, "parametro_invalido", "gb");
  refused(*post("/preparar/contratacao/armazenamento", R"({"gb":1,"modo":"tudo"})", chefe), 400,
          "parametro_invalido", "modo");
  refused(*post("/preparar/contratacao/armazenamento", R"({"gb":1,"preco":0})", chefe), 400, "campo_desconhecido",
          "preco");
  refused(*post("/preparar/contratacao/usuario", R"({"quantidade":-2})", chefe), 400, "parametro_invalido",
          "quantidade");
  refused(*post("/preparar/contratacao/adicionais", R"({"itens":[]})", chefe), 400, "parametro_invalido", "itens");
  refused(*post("/preparar/contratacao/adicionais", R"({"itens":[{"codigo":"nada","quantidade":1}]})", chefe), 400,
          "parametro_invalido", "nada");
  refused(*post("/preparar/contratacao/adicionais",
                R"({"itens":[{"codigo":"suporte_prioritario","quantidade":1},{"codigo":"suporte_prioritario","quantidade":1}]})",
                chefe),
          400, "parametro_invalido", "repetido");
  refused(*post("/contratar/plano", R"({"idOrcamento":1,"hash":"abc"})", chefe), 400, "parametro_invalido", "hash");
  refused(*post("/contratar/plano", R"({"hash":")" + std::string(64, '0') + R"("})", chefe), 400,
          "campo_obrigatorio", "idOrcamento");
  refused(*post("/contratar/plano", "[1,2", chefe), 400, "json_invalido");
  refused(*post("/contratar/plano", std::string(64 * 1024, ' '), chefe), 413, "corpo_muito_grande");
  refused(*post("/calculadora/armazenamento/adicional", R"({"gb":1,"data":"2027-02-29"})", chefe), 400,
          "parametro_invalido", "data");
  refused(*post("/calculadora/armazenamento/upgrade", "{}", chefe), 400, "campo_obrigatorio", "gb");
  CHECK(platform_db("select count(*) from plataforma.orcamentos") == "0");
}

TEST_CASE_FIXTURE(PlatformFixture, "the storage calculators on hand-computed cases at month ends and in leap years") {
  // The annual plan, 2027-03-01 to 2028-02-29 (366 days), 50 GB (51200 MB) and 20 users as the plan.
  test::set_license(*this, "alfa", "profissional_anual", "ativa", "'2027-03-01'", "'2028-02-29'", 20, 51200);
  Session s = user("alfa");
  auto calc = [&](const std::string& kind, const std::string& body) {
    auto a = post("/calculadora/armazenamento/" + kind, body, s);
    REQUIRE_MESSAGE(a->status == 200, kind << " " << body << " → " << a->body);
    return a;
  };
  // 10 GB × 1500 from 2028-02-15: 15 of February's 29 days → 225000 / 29 = 7758.62… → 7759.
  auto a = calc("adicional", R"({"gb":10,"data":"2028-02-15"})");
  CHECK(total(*a) == 7759);
  auto meses = a->json()["linhas"].get_array().at(0)["meses"].get_array();
  REQUIRE(meses.size() == 1);
  CHECK(int64_t(meses.at(0)["dias"]) == 15);
  CHECK(int64_t(meses.at(0)["diasDoMes"]) == 29);
  CHECK(int64_t(a->json()["alteracao"]["maxArmazenamentoMb"]) == 61440);
  // From January's last day: 1/31 × 15000 + 29/29 × 15000 = 483.87… + 15000 → 15484.
  CHECK(total(*calc("adicional", R"({"gb":10,"data":"2028-01-31"})")) == 15484);
  // The last day alone: 1/29 × 15000 = 517.24… → 517.
  CHECK(total(*calc("adicional", R"({"gb":10,"data":"2028-02-29"})")) == 517);
  // Upgrade from 50 to 52 GB for the whole of February: 2 GB × 1500 × 29/29 = 3000.
  CHECK(total(*calc("upgrade", R"({"gb":52,"data":"2028-02-01"})")) == 3000);
  refused(*post("/calculadora/armazenamento/upgrade", R"({"gb":50,"data":"2028-02-01"})", s), 409, "conflito",
          "51200 MB");
  refused(*post("/calculadora/armazenamento/adicional", R"({"gb":1,"data":"2028-03-01"})", s), 400,
          "parametro_invalido", "data");
  // Renewal: one more year of the plan, 2028-03-01 to 2029-02-28, at its price 899000.
  auto r = calc("renovacao", R"({"data":"2028-02-15"})");
  CHECK(total(*r) == 899000);
  CHECK(std::string_view(r->json()["alteracao"]["fim"]) == "2029-02-28");
  // … keeping 60 GB: 10 GB over the plan × 1500 × 12 months = 180000 more → 1079000.
  auto r60 = calc("renovacao", R"({"gb":60,"data":"2028-02-15"})");
  CHECK(total(*r60) == 1079000);
  CHECK(r60->json()["linhas"].get_array().size() == 2);
  refused(*post("/calculadora/armazenamento/renovacao", R"({"gb":10,"data":"2028-02-15"})", s), 400,
          "parametro_invalido", "50 GB");

  // The non-leap February: 2027-02-15 to 2027-02-28 = 14/28 → 15000 / 2 = 7500.
  test::set_license(*this, "alfa", "profissional_anual", "ativa", "'2026-03-01'", "'2027-02-28'", 20, 51200);
  CHECK(total(*calc("adicional", R"({"gb":10,"data":"2027-02-15"})")) == 7500);

  // Half a centavo rounds up: 1 GB at 1001 for 15 of April's 30 days = 500.5 → 501.
  platform_db("update plataforma.precos set preco_centavos = 1001 where item = 'armazenamento_gb_mes' returning 1");
  test::set_license(*this, "alfa", "profissional_anual", "ativa", "'2027-05-01'", "'2028-04-30'", 20, 51200);
  CHECK(total(*calc("adicional", R"({"gb":1,"data":"2028-04-16"})")) == 501);

  // A license whose plan is not on sale has no renewal price.
  test::set_license(*this, "alfa", "especial", "ativa", "current_date", "current_date + 5", 20, 51200);
  refused(*post("/calculadora/armazenamento/renovacao", "{}", s), 409, "conflito", "plano");
}
