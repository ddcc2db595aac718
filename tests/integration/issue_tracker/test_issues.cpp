// POST /aplicativo/criar-issue-externo: the issue reaches the tenant's tracker and is
// recorded; when the tracker is down nothing is lost and the next call sends the backlog
// exactly once.
#include <simdjson.h>

#include "fixture.hpp"

using namespace tracker_test;

namespace {

std::string member(const std::string& json, const char* key) {
  simdjson::dom::parser p;
  auto e = p.parse(json)[key];
  if (e.is_string()) return std::string(std::string_view(e));
  if (e.is_null()) return "null";
  return simdjson::minify(e.value());
}

std::string count_issues(Env& e) { return e.db("select count(*) from atendimento.issue_externo"); }

}  // namespace

TEST_CASE("an issue about a lot, a record and media reaches the tracker and is recorded as sent") {
  Env& e = env();
  std::string lote = e.db("select min(id) from cadastro.lote");
  std::string foto = e.db(
      "insert into midia.arquivo (chave, nome, extensao, content_type, tamanho, sha256) values "
      "('issue-foto-1', 'foto', '.jpg', 'image/jpeg', 10, repeat('a', 64)) returning id");
  std::string body = R"({"titulo": "Muro caído na calçada", "descricao": "visto na vistoria", "lote_id": )" + lote +
                     R"(, "camada": "lote", "registro_id": )" + lote + R"(, "anexos": [)" + foto + "]}";
  auto a = create(e, body);
  INFO(a->body);
  REQUIRE(a->status == 201);
  std::string id = member(a->body, "id");
  CHECK(member(a->body, "situacao") == "enviado");
  std::string id_externo = member(a->body, "id_externo");
  CHECK(!id_externo.empty());
  CHECK(member(a->body, "link") == "https://rastreador.test/issues/" + id_externo);
  CHECK(member(a->body, "reenviados") == "0");

  REQUIRE(e.tracker.service.count() == 1);
  auto got = e.tracker.service.last();
  CHECK(got.method == "POST");
  CHECK(got.target == "/api/issues");
  CHECK(got.header("Authorization") == std::string("Bearer ") + kTrackerToken);
  CHECK(got.header("Content-Type").find("application/json") == 0);
  std::string referencia = e.db("select referencia from atendimento.issue_externo where id = " + id);
  CHECK(got.header("Idempotency-Key") == referencia);
  CHECK(referencia.rfind("cadastre-alfa-", 0) == 0);
  CHECK(member(got.body, "titulo") == "Muro caído na calçada");
  CHECK(member(got.body, "descricao") == "visto na vistoria");
  CHECK(member(got.body, "municipio") == "alfa");
  CHECK(member(got.body, "lote_id") == lote);
  CHECK(member(got.body, "camada") == "lote");
  CHECK(member(got.body, "anexos") == "[" + foto + "]");
  CHECK(member(got.body, "referencia") == referencia);
  CHECK(member(got.body, "criado_por") == e.stack().user("alfa").email);

  CHECK(e.db("select status || '|' || tentativas || '|' || id_externo || '|' || link_externo || "
             "'|' || "
             "(enviado_em is not null)::text || '|' || criado_por from atendimento.issue_externo "
             "where id = " +
             id) == "enviado|1|" + id_externo + "|https://rastreador.test/issues/" + id_externo +
                        "|true|" + e.stack().user("alfa").email);
}

TEST_CASE("tracker down: the issue is kept as pending (502); once it is back the next call sends both, once") {
  Env& e = env();
  std::size_t before = e.tracker.issues();
  e.tracker.service.stop();
  auto down = create(e, R"({"titulo": "Primeira, com o rastreador fora"})");
  INFO(down->body);
  CHECK(down->status == 502);
  CHECK(down->codigo() == "falha_no_servico_externo");
  CHECK(down->text("tipo") == "erro");
  CHECK(member(down->body, "situacao") == "pendente");
  CHECK(down->mensagem().find("guardada") != std::string::npos);
  std::string first = member(down->body, "id");
  CHECK(e.db("select status || '|' || tentativas || '|' || (ultimo_erro is not null)::text from "
             "atendimento.issue_externo where id = " + first) == "pendente|1|true");

  e.tracker.service.start_again();
  auto back = create(e, R"({"titulo": "Segunda, com o rastreador de volta"})");
  INFO(back->body);
  REQUIRE(back->status == 201);
  CHECK(member(back->body, "reenviados") == "1");
  std::string second = member(back->body, "id");
  CHECK(e.db("select string_agg(status || ':' || tentativas, ',' order by id) from atendimento.issue_externo where id in (" +
             first + ", " + second + ")") == "enviado:2,enviado:1");
  // Exactly two requests, two issues: the backlog first, then the new one.
  auto received = e.tracker.service.received();
  REQUIRE(received.size() == 2);
  CHECK(member(received[0].body, "titulo") == "Primeira, com o rastreador fora");
  CHECK(member(received[1].body, "titulo") == "Segunda, com o rastreador de volta");
  CHECK(e.tracker.issues() == before + 2);

  // Nothing is pending any more: the next call sends only its own issue.
  e.tracker.service.clear();
  REQUIRE(create(e, R"({"titulo": "Terceira"})")->status == 201);
  CHECK(e.tracker.service.count() == 1);
}

TEST_CASE("a tracker failing with 5xx or too slow keeps the issue pending; a 4xx refusal is final") {
  Env& e = env();
  SUBCASE("5xx") {
    e.tracker.service.on([](const httplib::Request&, httplib::Response& res) { res.status = 503; });
    auto a = create(e, R"({"titulo": "Rastreador em manutenção"})");
    CHECK(a->status == 502);
    CHECK(member(a->body, "situacao") == "pendente");
    CHECK(e.db("select status from atendimento.issue_externo where id = " + member(a->body, "id")) == "pendente");
  }
  SUBCASE("slow") {
    e.tracker.service.on([](const httplib::Request&, httplib::Response& res) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2000));
      res.status = 201;
    });
    auto started = std::chrono::steady_clock::now();
    auto a = create(e, R"({"titulo": "Rastreador lento"})");
    auto elapsed = std::chrono::steady_clock::now() - started;
    CHECK(a->status == 504);
    CHECK(a->codigo() == "tempo_esgotado_no_servico_externo");
    CHECK(member(a->body, "situacao") == "pendente");
    CHECK(elapsed < std::chrono::milliseconds(1800));  // timeout_ms is 800
  }
  SUBCASE("4xx") {
    e.tracker.service.on([](const httplib::Request&, httplib::Response& res) {
      res.status = 422;
      res.set_content(R"({"erro": "titulo curto"})", "application/json");
    });
    auto a = create(e, R"({"titulo": "X"})");
    CHECK(a->status == 502);
    CHECK(member(a->body, "situacao") == "falhou");
    std::string id = member(a->body, "id");
    CHECK(e.db("select status || '|' || ultimo_erro from atendimento.issue_externo where id = " + id) ==
          "falhou|o rastreador respondeu HTTP 422");
    // Refused issues are not retried.
    e.tracker.behave();
    e.tracker.service.clear();
    auto next = create(e, R"({"titulo": "Depois da recusa"})");
    CHECK(next->status == 201);
    CHECK(member(next->body, "reenviados") == "0");
    CHECK(e.tracker.service.count() == 1);
  }
}

TEST_CASE("bad issue bodies are 400/404 and store nothing") {
  Env& e = env();
  std::string before = count_issues(e);
  struct Case {
    const char* body;
    int status;
    const char* codigo;
  };
  for (const auto& c : {Case{R"({"descricao": "sem título"})", 400, "campo_obrigatorio"},
                        Case{R"({"titulo": "   "})", 400, "campo_obrigatorio"},
                        Case{R"({"titulo": 5})", 400, "parametro_invalido"},
                        Case{R"({"titulo": "a", "prioridade": "alta"})", 400, "campo_desconhecido"},
                        Case{R"({"titulo": "a", "lote_id": "x"})", 400, "parametro_invalido"},
                        Case{R"({"titulo": "a", "lote_id": -3})", 400, "parametro_invalido"},
                        Case{R"({"titulo": "a", "lote_id": 99999999})", 404, "nao_encontrado"},
                        Case{R"({"titulo": "a", "camada": "lote"})", 400, "campo_obrigatorio"},
                        Case{R"({"titulo": "a", "registro_id": 1})", 400, "campo_obrigatorio"},
                        Case{R"({"titulo": "a", "camada": "lote;drop", "registro_id": 1})", 400, "identificador_invalido"},
                        Case{R"({"titulo": "a", "camada": "nao_existe", "registro_id": 1})", 404, "camada_nao_encontrada"},
                        Case{R"({"titulo": "a", "camada": "lote", "registro_id": 99999999})", 404, "nao_encontrado"},
                        Case{R"({"titulo": "a", "anexos": [99999999]})", 404, "nao_encontrado"},
                        Case{R"({"titulo": "a", "anexos": [1, 1]})", 400, "parametro_invalido"},
                        Case{R"({"titulo": "a", "anexos": "1"})", 400, "parametro_invalido"},
                        Case{R"(titulo=a)", 400, "json_invalido"}}) {
    INFO(c.body);
    auto a = create(e, c.body);
    CHECK(a->status == c.status);
    CHECK(a->codigo() == c.codigo);
  }
  auto long_title = create(e, R"({"titulo": ")" + std::string(201, 'x') + "\"}");
  CHECK(long_title->status == 400);
  CHECK(count_issues(e) == before);
  CHECK(e.tracker.service.count() == 0);
}

TEST_CASE("a layer the caller may not read cannot be referenced") {
  Env& e = env();
  auto limited = e.stack().add_user("alfa", "so-quadra@alfa.gov.br", {"quadra:r"});
  std::string lote = e.db("select min(id) from cadastro.lote");
  auto a = create(e, R"({"titulo": "a", "camada": "lote", "registro_id": )" + lote + "}", limited.token);
  CHECK(a->status == 403);
  CHECK(a->codigo() == "acesso_negado");
  CHECK(create(e, R"({"titulo": "sem camada"})", limited.token)->status == 201);
}

TEST_CASE("the route needs a valid main bearer; a tenant without a tracker gets 503 and nothing is stored") {
  Env& e = env();
  auto cli = e.stack().client();
  auto missing = cadastre::test::answer(cli.Post("/aplicativo/criar-issue-externo", R"({"titulo": "a"})", "application/json"),
                                        "sem token");
  CHECK(missing->status == 401);
  CHECK(create(e, R"({"titulo": "a"})", std::string(64, 'f'))->status == 401);

  std::string beta_before = e.db("select count(*) from atendimento.issue_externo", "beta");
  auto unconfigured = create(e, R"({"titulo": "a"})", "", "beta");
  CHECK(unconfigured->status == 503);
  CHECK(unconfigured->codigo() == "servico_indisponivel");
  CHECK(unconfigured->mensagem().find("rastreador") != std::string::npos);
  CHECK(e.db("select count(*) from atendimento.issue_externo", "beta") == beta_before);
  CHECK(e.tracker.service.count() == 0);
}

TEST_CASE("a bad body is a 400 before the tracker configuration is looked at, even without a tracker") {
  Env& e = env();
  std::string beta_before = e.db("select count(*) from atendimento.issue_externo", "beta");
  struct Case {
    const char* body;
    const char* codigo;
  };
  for (const auto& c : {Case{"{", "json_invalido"}, Case{R"({"titulo": "a", "titulo": "b"})", "parametro_invalido"},
                        Case{R"({"descricao": "sem título"})", "campo_obrigatorio"},
                        Case{R"({"titulo": "a\u0000b"})", "parametro_invalido"}}) {
    INFO(c.body);
    auto a = create(e, c.body, "", "beta");
    CHECK(a->status == 400);
    CHECK(a->codigo() == c.codigo);
  }
  CHECK(e.db("select count(*) from atendimento.issue_externo", "beta") == beta_before);
  CHECK(e.tracker.service.count() == 0);
}
