// The import jobs: who may import into a project, what the routes refuse before any job
// exists, the client's idempotency key (codigo), the list of pending jobs and hiding one,
// and all-or-nothing: a job that fails in the middle of loading leaves no layer, no form,
// no geometry and no value; and the runner's cancel() of a pending job (the running case
// and the route are in tests/integration/platform_rasters/test_cancel.cpp).
#include <doctest/doctest.h>
#include <soci/soci.h>

#include <filesystem>
#include <future>
#include <thread>

#include "file_store/file_store.hpp"
#include "integration/platform/held_job.hpp"
#include "integration/platform_imports/imports_fixture.hpp"
#include "platform/jobs/jobs.hpp"
#include "service/tenancy.hpp"

using namespace cadastre::test;

namespace {

std::string points(int count, int failing = -1) {
  std::string g = R"({"type":"FeatureCollection","features":[)";
  for (int i = 0; i < count; ++i)
    g += std::string(i ? "," : "") + R"({"type":"Feature","properties":{"nome":")" + (i == failing ? "FALHA" : "p" + std::to_string(i)) +
         R"("},"geometry":{"type":"Point","coordinates":[)" + std::to_string(-46.6 + i * 1e-4) + ",-23.5]}}";
  return g + "]}";
}

// The count `sql` answers once it reaches `expected` (bounded polls): a job's place in the
// queue goes just after its final row is written.
std::string settled(const ImportsFixture& f, const std::string& sql, const std::string& expected) {
  std::string got;
  for (int i = 0; i < 100 && (got = f.platform_db(sql)) != expected; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  return got;
}

// The job's estado once it has ended (bounded polls of its row).
std::string ended(const ImportsFixture& f, std::int64_t id) {
  for (int i = 0; i < 600; ++i) {
    std::string estado = f.db("select estado from projeto.importacoes where id = " + std::to_string(id));
    if (estado != "pendente" && estado != "executando") return estado;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return "não terminou";
}

}  // namespace

TEST_CASE_FIXTURE(ImportsFixture, "imports need a session and the admin role on the project; the parameters are checked first") {
  auto c = cast();
  shapefile_zip(points(3));
  const std::string zip = read("p.zip");
  const std::string path = route("shp", "auth", c.projeto, "Pontos");
  std::string before = footprint();
  refused(*upload(path, zip, "p.zip", httplib::Headers{}), 401, "nao_autenticado");
  refused(*upload(path, zip, "p.zip", c.beta), 404, "nao_encontrado");      // another tenant's project
  refused(*upload(path, zip, "p.zip", c.stranger), 404, "nao_encontrado");  // no share
  refused(*upload(path, zip, "p.zip", c.reader), 403, "acesso_negado");     // a read-only share
  refused(*request("POST", route("icad/lotes", "auth", c.projeto, ""), headers(c.reader)), 403, "acesso_negado");
  refused(*request("POST", route("icad/lotes", "auth", c.projeto, ""), {}), 401, "nao_autenticado");
  refused(*request("POST", route("icad/logradouros", "auth", c.projeto, ""), headers(c.beta)), 404, "nao_encontrado");
  CHECK(footprint() == before);

  refused(*upload("/importar/shp?nomeCamada=x&idProjeto=" + n(c.projeto), zip, "p.zip", c.owner), 400, "campo_obrigatorio",
          "codigo");
  refused(*upload("/importar/shp?codigo=x&idProjeto=" + n(c.projeto), zip, "p.zip", c.owner), 400, "campo_obrigatorio",
          "nomeCamada");
  CHECK(upload("/importar/shp?codigo=x&nomeCamada=x&idProjeto=1;drop", zip, "p.zip", c.owner)->status == 400);
  CHECK(upload(route("shp", "x", c.projeto, "x", "&srid=abc"), zip, "p.zip", c.owner)->status == 400);
  CHECK(upload(route("shp", "x", c.projeto, "x", "&xdzs=talvez"), zip, "p.zip", c.owner)->status == 400);
  refused(*upload(route("shp", "x", c.projeto, "x", "&invalidas=ignorar"), zip, "p.zip", c.owner), 400,
          "parametro_invalido", "invalidas");
  refused(*upload(route("shp", std::string(201, 'a'), c.projeto, "x"), zip, "p.zip", c.owner), 400, "parametro_invalido",
          "codigo");
  refused(*request("POST", route("shp", "x", c.projeto, "x"), headers(c.owner), "{}"), 400, "campo_obrigatorio", "file");
  CHECK(footprint() == before);
  refused(*get("/importar/pendentes", Session{}), 401, "nao_autenticado");
  refused(*request("PUT", "/importar/pendentes/hide?idImportacao=1", {}), 401, "nao_autenticado");
  refused(*request("POST", "/converter/geojson?targetType=kml", {}, "{}"), 401, "nao_autenticado");
}

TEST_CASE_FIXTURE(ImportsFixture, "the same codigo returns the first job; pendentes lists the caller's jobs; a finished job can be hidden") {
  auto c = cast();
  shapefile_zip(points(5));
  const std::string zip = read("p.zip");
  auto first = upload(route("shp", "pedido-42", c.projeto, "Pontos"), zip, "p.zip", c.owner);
  REQUIRE(first->status == 202);
  CHECK(bool(first->json()["novo"]));
  std::int64_t id = int64_t(first->json()["idImportacao"]);
  auto job = finished(id, c.owner);
  REQUIRE_MESSAGE(job.estado == "concluida", job.json);
  auto again = upload(route("shp", "pedido-42", c.projeto, "Outro nome"), zip, "p.zip", c.owner);
  REQUIRE(again->status == 202);
  CHECK(int64_t(again->json()["idImportacao"]) == id);
  CHECK_FALSE(bool(again->json()["novo"]));
  CHECK(std::string_view(again->json()["estado"]) == "concluida");
  CHECK(db("select count(*) from projeto.camadas where projeto_id = " + n(c.projeto)) == "1");
  CHECK(db("select count(*) from projeto.importacoes where codigo = 'pedido-42'") == "1");

  // Another user's list does not show it, nor may they hide it.
  CHECK(get("/importar/pendentes", c.stranger)->json()["totalElements"].get_int64().value() == 0);
  refused(*put("/importar/pendentes/hide?idImportacao=" + n(id), "", c.stranger), 404, "nao_encontrado");
  refused(*put("/importar/pendentes/hide?idImportacao=abc", "", c.owner), 400, "parametro_invalido");
  refused(*put("/importar/pendentes/hide", "", c.owner), 400, "campo_obrigatorio", "idImportacao");
  auto list = get("/importar/pendentes", c.owner);
  REQUIRE(list->status == 200);
  CHECK(list->json()["totalElements"].get_int64().value() == 1);
  auto entry = list->json()["content"].at(0);
  CHECK(std::string_view(entry["tipo"]) == "shp");
  CHECK(double(entry["progresso"]) == 100.0);
  CHECK(int64_t(entry["idCamada"]) == job.camada);
  CHECK(std::string_view(entry["parametros"]["nomeCamada"]) == "Pontos");

  // A running job cannot be hidden.
  db("update projeto.importacoes set estado = 'executando' where id = " + n(id));
  refused(*put("/importar/pendentes/hide?idImportacao=" + n(id), "", c.owner), 409, "transicao_invalida");
  db("update projeto.importacoes set estado = 'concluida' where id = " + n(id));
  auto hidden = put("/importar/pendentes/hide?idImportacao=" + n(id), "", c.owner);
  CHECK(hidden->status == 204);
  CHECK(get("/importar/pendentes", c.owner)->json()["totalElements"].get_int64().value() == 0);
  CHECK(db("select oculta from projeto.importacoes where id = " + n(id)) == "t");
}

TEST_CASE_FIXTURE(ImportsFixture, "a job that fails in the middle of loading leaves no layer, form, field, geometry or value") {
  auto c = cast();
  // The database refuses one value in the middle of the file (feature 250 of 300): the
  // layer, form, fields and 300 geometries were already written in the job's transaction.
  // (Each new field's column, in the new layer's table, gets a check refusing 'FALHA'.)
  db("create function teste_falha() returns trigger language plpgsql as $$ begin execute format("
     "'alter table camadas.%I add constraint %I check (%I::text is distinct from ''FALHA'') not valid', "
     "'l' || projeto.camada_do_campo(new.id), 'teste_falha_' || new.id, 'c_' || new.id); return null; end $$");
  db("create trigger teste_falha after insert on projeto.campos for each row execute function teste_falha()");
  shapefile_zip(points(300, 249));
  std::string before = db("select (select count(*) from projeto.camadas) || '/' || (select count(*) from projeto.formularios) "
                          "|| '/' || (select count(*) from projeto.campos) || '/' || (select count(*) from projeto.geometrias) "
                          "|| '/' || (select count(*) from " + std::string(kValues) + " v) || '/' || (select count(*) from projeto.eventos)");
  auto job = finished(submitted(route("shp", "falha", c.projeto, "Falha"), read("p.zip"), "p.zip", c.owner), c.owner);
  db("drop trigger teste_falha on projeto.campos; drop function teste_falha()");
  CHECK(job.estado == "falhou");
  CHECK(job.camada == 0);
  CHECK(job.camadas.empty());
  CHECK_MESSAGE(job.mensagem.find("recusou") != std::string::npos, job.json);
  CHECK(db("select (select count(*) from projeto.camadas) || '/' || (select count(*) from projeto.formularios) "
           "|| '/' || (select count(*) from projeto.campos) || '/' || (select count(*) from projeto.geometrias) "
           "|| '/' || (select count(*) from " + std::string(kValues) + " v) || '/' || (select count(*) from projeto.eventos)") == before);
  // The failed job can be hidden.
  CHECK(put("/importar/pendentes/hide?idImportacao=" + db("select max(id) from projeto.importacoes"), "", c.owner)->status ==
        204);
}

// An instance that died (kill -9, a machine lost) leaves its job executando, its lease
// running out: another instance claims it after the lease and runs it again from the
// start, from its row and its staged file; past the attempts, the job ends falhou.
TEST_CASE_FIXTURE(ImportsFixture, "a job whose instance died is taken over after its lease and imports the file once; "
                                  "past its attempts it ends falhou") {
  auto c = cast();
  shapefile_zip(points(4));
  const std::string entrada = "alfa/importacoes/entradas/morta.bin";
  cadastre::file_store::Store(options.files_dir).write(entrada, read("p.zip"));
  const std::string tenant = platform_db("select id from plataforma.tenants where slug = 'alfa'");
  auto abandoned = [&](const std::string& codigo, int claims, const std::optional<std::string>& input) {
    const std::string id = db(
        "insert into projeto.importacoes (tipo, estado, criado_por, projeto_id, tentativa, progresso, parametros) "
        "values ('shp', 'executando', " + n(c.owner.user_id) + ", " + n(c.projeto) + ", " + std::to_string(claims) +
        ", 40, jsonb_build_object('codigo', '" + codigo + "', 'nomeCamada', 'Retomada', 'idProjeto', " +
        n(c.projeto) + ", 'xdzs', false, 'invalidas', 'reparar', 'arquivo', 'p.zip')) returning id");
    platform_db("insert into plataforma.tarefas (tenant_id, importacao_id, fila, tipo, entrada, estado, titular, "
                "prazo, tentativas) values (" + tenant + ", " + id + ", 'importacoes', 'shp', " +
                (input ? "'" + *input + "'" : std::string("null")) +
                ", 'executando', 'instancia-morta', now() - interval '1 second', " + std::to_string(claims) + ")");
    return std::stoll(id);
  };

  const std::int64_t taken = abandoned("retomada", 1, entrada);
  REQUIRE(ended(*this, taken) == "concluida");
  CHECK(db("select tentativa || '|' || progresso from projeto.importacoes where id = " + n(taken)) == "2|100.00");
  CHECK(db("select count(*) from projeto.camadas where nome = 'Retomada'") == "1");
  CHECK(db("select count(*) from projeto.geometrias g join projeto.camadas l on l.id = g.camada_id "
           "where l.nome = 'Retomada'") == "4");
  CHECK(settled(*this, "select count(*) from plataforma.tarefas where importacao_id = " + n(taken) +
                            " and tenant_id = " + tenant, "0") == "0");
  CHECK_FALSE(std::filesystem::exists(options.files_dir + "/" + entrada));  // the input went with the job

  const std::int64_t spent = abandoned("esgotada", 3, std::nullopt);
  REQUIRE(ended(*this, spent) == "falhou");
  CHECK(db("select mensagem from projeto.importacoes where id = " + n(spent)).find("interrompida 3 vezes") !=
        std::string::npos);
  CHECK(db("select count(*) from projeto.camadas where nome = 'Retomada'") == "1");
}

namespace {

// A Scope of `s` in tenant `slug`, as the routes build one, for calling the runner itself.
cadastre::service::Scope scope_of(cadastre::platform::App& app, const Session& s, const std::string& slug) {
  auto tenant = app.tenancy().active(slug);
  REQUIRE(tenant);
  cadastre::store::Principal who;
  who.user_id = s.user_id;
  who.tenant_id = tenant->id;
  who.tenant_slug = tenant->slug;
  return app.tenancy().scope(std::move(who), *tenant);
}

cadastre::platform::jobs::Job job_of(const std::string& tipo) {
  cadastre::platform::jobs::Job j;
  j.tipo = tipo;
  return j;
}

}  // namespace

TEST_CASE_FIXTURE(ImportsFixture, "Runner::cancel: a pending job becomes cancelada, never runs, is listed as such and can be "
                                  "hidden; a job that ended is 409; another user's is 404") {
  using cadastre::errc;
  using Context = cadastre::platform::jobs::Context;
  auto c = cast();
  auto runner = cadastre::platform::jobs::runner(*app);
  const cadastre::service::Scope owner = scope_of(*app, c.owner, "alfa");
  // The worker is held by a first job (released below, or when the test ends): the second
  // stays pendente.
  HeldJob first(*runner, owner);
  auto ran = std::make_shared<std::atomic<bool>>(false);
  auto job = submit_work(*runner, owner, job_of("shp"), [ran](Context&) { *ran = true; });

  auto refused_with = [&](const cadastre::service::Scope& s, errc code, const std::string& words) {
    try {
      runner->cancel(s, job.id);
      FAIL("cancel() aceitou");
    } catch (const cadastre::Error& e) {
      CHECK(e.code() == code);
      CHECK_MESSAGE(std::string(e.what()).find(words) != std::string::npos, e.what());
    }
  };
  refused_with(scope_of(*app, c.stranger, "alfa"), errc::not_found, "não encontrada");
  refused_with(scope_of(*app, c.beta, "beta"), errc::not_found, "não encontrada");
  CHECK(runner->cancel(owner, job.id) == "cancelada");
  refused_with(owner, errc::invalid_transition, "estado: cancelada");

  // The worker reaches it after the first job and skips it.
  first.release();
  wait_for_jobs_before(*runner, owner);
  CHECK_FALSE(*ran);
  CHECK(db("select estado || '|' || progresso from projeto.importacoes where id = " + n(job.id)) == "cancelada|0.00");
  CHECK(db("select estado from projeto.importacoes where id = " + n(first.id)) == "concluida");
  // A job that ended cannot be cancelled.
  try {
    runner->cancel(owner, first.id);
    FAIL("cancel() aceitou uma importação concluída");
  } catch (const cadastre::Error& e) {
    CHECK(e.code() == errc::invalid_transition);
    CHECK_MESSAGE(std::string(e.what()).find("concluida") != std::string::npos, e.what());
  }

  auto list = get("/importar/pendentes", c.owner);
  REQUIRE(list->status == 200);
  bool listed = false;
  for (auto e : list->json()["content"].get_array())
    if (int64_t(e["idImportacao"]) == job.id) listed = std::string_view(e["estado"]) == "cancelada";
  CHECK(listed);
  CHECK(put("/importar/pendentes/hide?idImportacao=" + n(job.id), "", c.owner)->status == 204);
  CHECK(db("select oculta from projeto.importacoes where id = " + n(job.id)) == "t");
}

TEST_CASE_FIXTURE(ImportsFixture, "PUT /importar/pendentes/cancelar: the tenant's administrator cancels a user's pending "
                                  "import, which never runs; a stranger gets 404; an ended job is 409") {
  auto c = cast();
  auto admin = login(stack->add_user("alfa", "chefe@alfa.gov.br", {"*:rw"}, true).email, "senha-alfa");
  auto runner = cadastre::platform::jobs::runner(*app);
  // The tenant's one turn is held by a job of the test: the import below stays pendente.
  HeldJob held(*runner, scope_of(*app, c.owner, "alfa"));
  shapefile_zip(points(4));
  const std::int64_t id = submitted(route("shp", "a-cancelar", c.projeto, "Pontos"), read("p.zip"), "p.zip", c.owner);
  const std::string path = "/importar/pendentes/cancelar?idImportacao=" + n(id);

  refused(*put("/importar/pendentes/cancelar", "", c.owner), 400, "campo_obrigatorio", "idImportacao");
  refused(*put("/importar/pendentes/cancelar?idImportacao=1%27", "", c.owner), 400, "parametro_invalido");
  refused(*put(path, "", c.stranger), 404, "nao_encontrado");  // another user's job
  refused(*put(path, "", c.beta), 404, "nao_encontrado");      // another tenant
  auto done = put(path, "", admin);
  REQUIRE_MESSAGE(done->status == 200, done->body);
  CHECK(std::string_view(done->json()["estado"]) == "cancelada");
  CHECK(int64_t(done->json()["idImportacao"]) == id);
  refused(*put(path, "", c.owner), 409, "transicao_invalida");

  // Once the worker is free, the cancelled import is skipped: no layer is ever made.
  held.release();
  wait_for_jobs_before(*runner, scope_of(*app, c.owner, "alfa"));
  CHECK(db("select estado from projeto.importacoes where id = " + n(id)) == "cancelada");
  CHECK(db("select count(*) from projeto.camadas where projeto_id = " + n(c.projeto)) == "0");
}

TEST_CASE_FIXTURE(ImportsFixture, "a copy of the cadastre's layer is held to the storage quota at the door and again "
                                  "before it writes") {
  auto c = cast();
  stack->load_demo("alfa", 300);
  // What the copy of the 300 lots is estimated to add (about 5 KB a lot: 14 attributes).
  const double mb = std::stod(db(
      "select sum(200 + 2 * st_memsize(x.geom) + 14 * 300) / 1e6 from cadastro.lote x where face_quadra_id is not null"));
  REQUIRE(mb > 1.0);
  platform_db("insert into plataforma.licencas (tenant_id, plano, status, inicio, fim, max_usuarios, "
              "max_armazenamento_mb) values (" + n(tenant_id("alfa")) +
              ", 'basico_mensal', 'ativa', current_date - 1, current_date + 30, 50, 1)");
  const std::string before = footprint();
  refused(*request("POST", route("icad/lotes", "icad-1", c.projeto, ""), headers(c.owner)), 403, "cota_excedida", "1 MB");
  CHECK(footprint() == before);

  // Room at the door, none by the time the job runs: the job fails and writes nothing.
  platform_db("update plataforma.licencas set max_armazenamento_mb = 1000 where tenant_id = " + n(tenant_id("alfa")));
  auto runner = cadastre::platform::jobs::runner(*app);
  HeldJob held(*runner, scope_of(*app, c.owner, "alfa"));
  auto a = request("POST", route("icad/lotes", "icad-2", c.projeto, ""), headers(c.owner));
  REQUIRE_MESSAGE(a->status == 202, a->body);
  platform_db("update plataforma.licencas set max_armazenamento_mb = 1 where tenant_id = " + n(tenant_id("alfa")));
  held.release();
  auto job = finished(int64_t(a->json()["idImportacao"]), c.owner);
  CHECK(job.estado == "falhou");
  CHECK_MESSAGE(job.mensagem.find("cota de armazenamento da licença atingida (1 MB)") != std::string::npos, job.json);
  CHECK(db("select count(*) from projeto.camadas where projeto_id = " + n(c.projeto)) == "0");
  CHECK(db("select count(*) from projeto.geometrias") == "0");
}

// A work that fails with something passing (not a cadastre::Error: a lost connection, a
// full disk) is run again from the start, up to the runner's attempts; then the job ends
// falhou with the reason. The file's own fault (a cadastre::Error) ends it at once.
TEST_CASE_FIXTURE(ImportsFixture, "a job failing unexpectedly is run again up to its attempts and then ends falhou; "
                                  "a cadastre error ends it at once") {
  using Context = cadastre::platform::jobs::Context;
  auto c = cast();
  auto runner = job_runner(*app, {.workers = 1, .per_tenant = 1, .wall = std::chrono::seconds(60),
                                  .cpu = std::chrono::seconds(60), .lease = std::chrono::seconds(30),
                                  .attempts = 3});
  const cadastre::service::Scope owner = scope_of(*app, c.owner, "alfa");
  auto runs = std::make_shared<std::atomic<int>>(0);
  auto flaky = submit_work(*runner, owner, job_of("shp"), [runs](Context&) {
    ++*runs;
    throw std::runtime_error("conexão perdida");
  });
  auto errors = std::make_shared<std::atomic<int>>(0);
  auto refused_job = submit_work(*runner, owner, job_of("shp"), [errors](Context&) {
    ++*errors;
    throw cadastre::Error(cadastre::errc::invalid_argument, "o arquivo não tem .prj");
  });
  CHECK(ended(*this, flaky.id) == "falhou");
  CHECK(*runs == 3);
  CHECK(db("select mensagem || '|' || tentativa from projeto.importacoes where id = " + n(flaky.id)) ==
        "erro interno ao importar|3");
  CHECK(ended(*this, refused_job.id) == "falhou");
  CHECK(*errors == 1);
  CHECK(db("select mensagem from projeto.importacoes where id = " + n(refused_job.id)) == "o arquivo não tem .prj");
  CHECK(settled(*this, "select count(*) from plataforma.tarefas", "0") == "0");
}

// A rolling restart: the instance stopping hands its running job back to the queue at the
// job's next progress (its transaction rolled back, the claim not counted), and another
// instance runs it from the start to its end.
TEST_CASE_FIXTURE(ImportsFixture, "a job running on an instance that stops goes back to the queue and another instance "
                                  "completes it") {
  using Context = cadastre::platform::jobs::Context;
  auto c = cast();
  const cadastre::platform::jobs::Budget budget{.workers = 1, .per_tenant = 1, .wall = std::chrono::seconds(60),
                                               .cpu = std::chrono::seconds(60), .lease = std::chrono::seconds(30),
                                               .attempts = 3};
  auto started = std::make_shared<std::promise<void>>();
  auto started_future = started->get_future();
  auto first_run = std::make_shared<std::atomic<bool>>(true);
  // The same handler on both instances, as every instance registers the platform's own.
  auto work = [started, first_run](Context& ctx) {
    if (first_run->exchange(false)) {
      ctx.db().run([&](soci::session& s) {
        soci::transaction tx(s);
        s << "create table metade_escrita (x int)";  // rolled back when the job is handed over
        started->set_value();
        for (std::int64_t i = 0;; ++i) {
          ctx.progress(i, 0);
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
      });
    }
    ctx.db().run([&](soci::session& s) {
      soci::transaction tx(s);
      s << "create table inteira (x int)";
      ctx.complete(s);
      tx.commit();
    });
  };
  auto a = job_runner(*app, budget);
  a->handle("teste-reinicio", work);
  cadastre::platform::jobs::Job job = job_of("shp");
  job.handler = "teste-reinicio";
  auto sub = a->submit(scope_of(*app, c.owner, "alfa"), job);
  REQUIRE(started_future.wait_for(std::chrono::seconds(60)) == std::future_status::ready);
  a.reset();  // SIGTERM: the runner stops
  CHECK(db("select estado from projeto.importacoes where id = " + n(sub.id)) == "pendente");
  CHECK(db("select count(*) from pg_tables where tablename = 'metade_escrita'") == "0");
  CHECK(platform_db("select estado || '|' || tentativas from plataforma.tarefas where importacao_id = " + n(sub.id)) ==
        "pendente|0");

  auto b = job_runner(*app, budget);
  b->handle("teste-reinicio", work);
  for (int i = 0; i < 600 && db("select estado from projeto.importacoes where id = " + n(sub.id)) != "concluida"; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(db("select estado || '|' || tentativa from projeto.importacoes where id = " + n(sub.id)) == "concluida|1");
  CHECK(db("select count(*) from pg_tables where tablename = 'inteira'") == "1");
  CHECK(settled(*this, "select count(*) from plataforma.tarefas", "0") == "0");
}
