// POST /valores and PUT /valores/:id: a value is checked against its field's type and rules
// (400 naming the field), stored in the typed column of its type, audited with before and
// after, bumps the layer's generation and recomputes the calculated fields; a unique value
// is refused (409) even when two clients write it at the same moment. Writes need a session
// and edicao on the geometry; another tenant's ids and unshared projects are unknown (404).
#include <atomic>
#include <latch>
#include <mutex>
#include <thread>

#include "lots.hpp"

using namespace cadastre;
using test::Lots;
using test::PlatformFixture;
using test::refused;

namespace {

std::string body(std::int64_t geometria, std::int64_t campo, const std::string& valor) {
  return R"({"idGeometria":)" + std::to_string(geometria) + R"(,"idCampo":)" + std::to_string(campo) +
         R"(,"valor":)" + valor + "}";
}

}  // namespace

TEST_CASE_FIXTURE(PlatformFixture,
                  "a created value is stored in its type's column, audited, bumps the layer and feeds formulas") {
  Lots w(*this);
  std::int64_t g = w.geometry();
  std::string before = w.generation(w.layer);

  auto a = w.put_value(g, "area", "250.5", w.editor);
  REQUIRE_MESSAGE(a->status == 201, a->body);
  std::int64_t id = int64_t(a->json()["id"]);
  CHECK(double(a->json()["valor"]) == 250.5);
  CHECK(int64_t(a->json()["idGeometria"]) == g);
  CHECK(int64_t(a->json()["idCampo"]) == w.field["area"]);
  CHECK(int64_t(a->json()["atualizadoPor"]) == w.editor.user_id);
  CHECK(w.column(g, w.field["area"]) == "250.5");
  CHECK(w.db("select concat_ws('|', operacao, antes, depois, usuario_id, geometria_id, campo_id) from "
             "projeto.valores_auditoria where valor_id = " + Lots::n(id)) ==
        "criar|250.5|" + Lots::n(w.editor.user_id) + "|" + Lots::n(g) + "|" + Lots::n(w.field["area"]));
  CHECK(std::stoll(w.generation(w.layer)) == std::stoll(before) + 1);

  // Every type family in its own column.
  w.value(g, "pavimentos", "3");
  w.value(g, "construido_em", R"("2024-05-01")");
  w.value(g, "murado", "true");
  w.value(g, "servicos", R"(["agua","luz"])");
  w.value(g, "uso", R"("residencial")");
  w.value(g, "topografia", R"("plano")");
  w.value(g, "inscricao", R"("0042")");
  auto column = [&](const std::string& chave, const std::string& type) {
    CHECK(w.column_type(w.field[chave]) == type);
    return w.column(g, w.field[chave]);
  };
  CHECK(column("pavimentos", "numeric") == "3");
  CHECK(column("construido_em", "date") == "2024-05-01");
  CHECK(column("murado", "boolean") == "true");
  CHECK(column("servicos", "jsonb") == R"(["agua", "luz"])");
  CHECK(column("uso", "text") == "residencial");
  CHECK(column("topografia", "text") == "plano");

  // The calculated field follows its formula after each write, audited like any value.
  CHECK(w.stored(g, w.field["valor_total"]) == "");
  w.value(g, "valor_m2", "100");
  CHECK(w.stored(g, w.field["valor_total"]) == "25050");
  CHECK(w.db("select concat_ws('|', operacao, depois, usuario_id) from projeto.valores_auditoria where campo_id = " +
             Lots::n(w.field["valor_total"])) == "criar|25050|" + Lots::n(w.owner.user_id));

  // A second value of the same field of the geometry: that is a change (PUT).
  auto again = w.put_value(g, "area", "300", w.owner);
  refused(*again, 409, "conflito", "PUT /valores/" + Lots::n(id));
  CHECK(w.stored(g, w.field["area"]) == "250.5");
}

TEST_CASE_FIXTURE(PlatformFixture, "values the field's type or rules refuse are 400 naming the field, nothing written") {
  Lots w(*this);
  std::int64_t g = w.geometry();
  struct Bad {
    std::string chave, valor, words;
  };
  for (const Bad& b : std::vector<Bad>{{"area", R"("muito")", "area"},
                                       {"area", "200000", "acima do máximo"},
                                       {"area", "-1", "abaixo do mínimo"},
                                       {"pavimentos", "2.5", "pavimentos"},
                                       {"inscricao", R"("12a4")", "inscricao"},
                                       {"inscricao", "null", "obrigatório"},
                                       {"uso", R"("industrial")", "industrial"},
                                       {"servicos", R"(["agua","gas"])", "gas"},
                                       {"topografia", R"("montanha")", "montanha"},
                                       {"construido_em", R"("2024-02-30")", "construido_em"},
                                       {"murado", R"("talvez")", "murado"},
                                       {"valor_total", "10", "valor_total"}}) {
    CAPTURE(b.chave);
    CAPTURE(b.valor);
    auto a = w.put_value(g, b.chave, b.valor, w.owner);
    refused(*a, 400, "parametro_invalido", b.words);
    CHECK_MESSAGE(a->mensagem().find(b.chave) != std::string::npos, a->body);
  }
  // The body itself.
  refused(*post("/valores", R"({"idGeometria":)" + Lots::n(g) + R"(,"idCampo":)" + Lots::n(w.field["area"]) + "}",
                w.owner),
          400, "campo_obrigatorio", "valor");
  // The geometry is the route's record, read by the guard before the body is parsed: a
  // misspelled id is a missing one; any other unknown member is refused by the parser.
  refused(*post("/valores", R"({"idGeometri":1,"idCampo":1,"valor":1})", w.owner), 400, "campo_obrigatorio",
          "idGeometria");
  refused(*post("/valores", R"({"idGeometria":)" + Lots::n(g) + R"(,"idCampo":1,"valor":1,"extra":1})", w.owner),
          400, "campo_desconhecido", "extra");
  refused(*post("/valores", R"({"idGeometria":"x","idCampo":1,"valor":1})", w.owner), 400, "parametro_invalido",
          "idGeometria");
  refused(*post("/valores", "{not json", w.owner), 400, "json_invalido");
  // A field of another layer is not a field of this geometry.
  refused(*post("/valores", body(g, w.building["area"], "10"), w.owner), 400, "parametro_invalido", "idCampo");
  // A huge body is refused before it is read.
  refused(*post("/valores", body(g, w.field["logradouro"], "\"" + std::string(300 * 1024, 'a') + "\""), w.owner), 413,
          "corpo_muito_grande");

  CHECK(w.layer_rows() == "");
  CHECK(w.count("valores_auditoria") == "0");
}

TEST_CASE_FIXTURE(PlatformFixture, "writing values needs a session and edicao; others' geometries are unknown") {
  Lots w(*this);
  std::int64_t g = w.geometry();
  std::int64_t v = w.value(g, "area", "10");
  std::string gen = w.generation(w.layer);
  const std::string create = body(g, w.field["area"], "11"), many = R"({"idGeometria":)" + Lots::n(g) +
                                                                     R"(,"valores":[{"idCampo":)" +
                                                                     Lots::n(w.field["area"]) + R"(,"valor":12}]})";
  const std::string copy = R"({"idGeometriaOrigem":)" + Lots::n(g) + R"(,"idGeometriaDestino":)" +
                           Lots::n(w.geometry()) + "}";
  struct Write {
    std::string method, path, body;
  };
  for (const Write& x : std::vector<Write>{{"POST", "/valores", create},
                                           {"POST", "/v2/valores", many},
                                           {"PUT", "/valores/" + Lots::n(v), R"({"valor":13})"},
                                           {"POST", "/copiar-valores", copy}}) {
    CAPTURE(x.path);
    refused(*request(x.method, x.path, {}, x.body), 401, "nao_autenticado");
    refused(*request(x.method, x.path, PlatformFixture::headers(w.other_tenant), x.body), 404, "nao_encontrado");
    refused(*request(x.method, x.path, PlatformFixture::headers(w.stranger), x.body), 404, "nao_encontrado");
    refused(*request(x.method, x.path, PlatformFixture::headers(w.reader), x.body), 403, "acesso_negado", "edicao");
  }
  CHECK(w.stored(g, w.field["area"]) == "10");
  CHECK(w.count("valores_auditoria") == "1");
  CHECK(w.generation(w.layer) == gen);

  // An inactive project refuses edits (the guard's 409), and its values stay as they were.
  w.db("update projeto.projetos set ativo = false where id = " + Lots::n(w.project) + " returning 1");
  refused(*put("/valores/" + Lots::n(v), R"({"valor":14})", w.owner), 409, "transicao_invalida");
  w.db("update projeto.projetos set ativo = true where id = " + Lots::n(w.project) + " returning 1");
  // An inactive form's fields take no values.
  w.db("update projeto.formularios set ativo = false where id = " + Lots::n(w.form) + " returning 1");
  refused(*w.put_value(w.geometry(), "area", "1", w.owner), 409, "transicao_invalida", "area");
  w.db("update projeto.formularios set ativo = true where id = " + Lots::n(w.form) + " returning 1");

  // Hostile path segments never reach SQL.
  refused(*put("/valores/1;drop", R"({"valor":1})", w.owner), 400, "parametro_invalido");
  refused(*put("/valores/99999999", R"({"valor":1})", w.owner), 404, "nao_encontrado");
}

TEST_CASE_FIXTURE(PlatformFixture, "PUT /valores/:id changes a value with before and after in the audit") {
  Lots w(*this);
  std::int64_t g = w.geometry();
  w.value(g, "valor_m2", "10");
  std::int64_t v = w.value(g, "area", "100.25");
  CHECK(w.stored(g, w.field["valor_total"]) == "1002.5");
  std::string gen = w.generation(w.layer);

  auto a = put("/valores/" + Lots::n(v), R"({"valor":"50,5"})", w.editor);
  refused(*a, 400, "parametro_invalido", "area");
  a = put("/valores/" + Lots::n(v), R"({"valor":50.5})", w.editor);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(int64_t(a->json()["id"]) == v);
  CHECK(double(a->json()["valor"]) == 50.5);
  CHECK(w.stored(g, w.field["area"]) == "50.5");
  CHECK(w.db("select concat_ws('|', operacao, antes, depois, usuario_id) from projeto.valores_auditoria "
             "where valor_id = " + Lots::n(v) + " order by id desc limit 1") ==
        "alterar|100.25|50.5|" + Lots::n(w.editor.user_id));
  CHECK(w.stored(g, w.field["valor_total"]) == "505");
  CHECK(std::stoll(w.generation(w.layer)) == std::stoll(gen) + 1);

  // Emptying a value nulls its column (its id keeps answering, with null); the formula
  // empties too.
  a = put("/valores/" + Lots::n(v), R"({"valor":null})", w.owner);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(a->json()["valor"].is_null());
  CHECK(w.stored(g, w.field["area"]) == "");
  CHECK(w.column(g, w.field["area"]) == "");
  CHECK(w.stored(g, w.field["valor_total"]) == "");
  a = get("/valores/" + Lots::n(v), w.owner);
  REQUIRE_MESSAGE(a->status == 200, a->body);
  CHECK(a->json()["valor"].is_null());
  CHECK(w.db("select depois::text from projeto.valores_auditoria where valor_id = " + Lots::n(v) +
             " order by id desc limit 1") == "null");

  refused(*put("/valores/" + Lots::n(v), R"({"valor":1,"extra":2})", w.owner), 400, "campo_desconhecido", "extra");
  refused(*put("/valores/" + Lots::n(v), R"({})", w.owner), 400, "campo_obrigatorio", "valor");
}

TEST_CASE_FIXTURE(PlatformFixture, "a unique value is refused with 409, also when two clients write it at once") {
  Lots w(*this);
  std::int64_t g1 = w.geometry(), g2 = w.geometry();
  std::string v1 = Lots::n(w.value(g1, "inscricao", R"("1001")"));
  auto a = w.put_value(g2, "inscricao", R"("1001")", w.owner);
  refused(*a, 409, "conflito", "inscricao");
  CHECK(w.value_count(g2) == "0");
  // Changing a geometry's own value to itself is no conflict.
  CHECK(put("/valores/" + v1, R"({"valor":"1001"})", w.owner)->status == 200);
  // Another geometry's value changed into a taken one.
  std::int64_t v2 = w.value(g2, "inscricao", R"("1002")");
  refused(*put("/valores/" + Lots::n(v2), R"({"valor":"1001"})", w.owner), 409, "conflito", "inscricao");

  // Two clients, two geometries, one value, at the same moment: one wins, the other is told.
  for (int round = 0; round < 5; ++round) {
    CAPTURE(round);
    std::int64_t a1 = w.geometry(), a2 = w.geometry();
    const std::string valor = "\"" + std::to_string(2000 + round) + "\"";
    std::latch start(2);
    std::atomic<int> created{0}, conflicts{0};
    auto client = [&](std::int64_t g, const test::Session& who) {
      start.arrive_and_wait();
      auto r = w.put_value(g, "inscricao", valor, who);
      if (r->status == 201) ++created;
      if (r->status == 409) ++conflicts;
    };
    std::thread t1(client, a1, w.owner), t2(client, a2, w.editor);
    t1.join();
    t2.join();
    CHECK(created == 1);
    CHECK(conflicts == 1);
    CHECK(w.db("select count(*) from camadas.l" + Lots::n(w.layer) + " where c_" + Lots::n(w.field["inscricao"]) +
               " = '" + std::to_string(2000 + round) + "'") == "1");
  }
}

TEST_CASE_FIXTURE(PlatformFixture, "every value write is announced on the tenant's live socket with the new generation") {
  Lots w(*this);
  std::int64_t g = w.geometry();
  std::mutex m;
  std::vector<std::string> seen;
  std::int64_t tenant = tenant_id("alfa");
  // Listening as the editor's session: an event goes once to each session that may see its
  // layer, so one session hears each write once.
  std::int64_t editor_session = std::stoll(platform_db(
      "select id from plataforma.sessoes where token_hash = encode(sha256(convert_to('" + w.editor.token +
      "', 'UTF8')), 'hex')"));
  auto sub = app->events().subscribe(tenant, [&](const service::Event& e) {
    std::lock_guard lock(m);
    if (e.type == "valor_alterado") seen.push_back(e.json);
  }, editor_session);
  // Events reach the subscription through the follower: each read waits for it first.
  auto last = [&] {
    settle_events();
    std::lock_guard lock(m);
    return seen.empty() ? std::string() : seen.back();
  };
  auto expect = [&](std::size_t count) {
    settle_events();
    std::lock_guard lock(m);
    CHECK(seen.size() == count);
  };
  std::string announced = R"({"tipo":"valor_alterado","idCamada":)" + Lots::n(w.layer) + R"(,"idGeometria":)" + Lots::n(g) +
                          R"(,"geracao":)";

  std::int64_t v = w.value(g, "area", "100");  // POST /valores
  expect(1);
  CHECK(last() == announced + w.generation(w.layer) + "}");
  REQUIRE(put("/valores/" + Lots::n(v), R"({"valor":120})", w.editor)->status == 200);
  expect(2);
  CHECK(last() == announced + w.generation(w.layer) + "}");
  auto batch = post("/v2/valores", R"({"idGeometria":)" + Lots::n(g) + R"(,"valores":[{"idCampo":)" +
                                       Lots::n(w.field["pavimentos"]) + R"(,"valor":2},{"idCampo":)" +
                                       Lots::n(w.field["inscricao"]) + R"(,"valor":"0077"}]})",
                    w.editor);
  REQUIRE_MESSAGE(batch->status == 200, batch->body);
  expect(3);
  // A refused write announces nothing; nor does a read.
  refused(*put("/valores/" + Lots::n(v), R"({"valor":"x"})", w.editor), 400, "parametro_invalido");
  REQUIRE(get("/valores/" + Lots::n(v), w.editor)->status == 200);
  expect(3);
  // Another tenant's subscribers hear nothing of it.
  std::atomic<int> beta_heard{0};
  auto other = app->events().subscribe(tenant_id("beta"), [&](const service::Event&) { ++beta_heard; });
  REQUIRE(put("/valores/" + Lots::n(v), R"({"valor":130})", w.editor)->status == 200);
  expect(4);
  CHECK(beta_heard == 0);
}
