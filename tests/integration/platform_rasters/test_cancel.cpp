// Cancelling background jobs: PUT /importacoes-tiff/:id {"cancelar": true} (Runner::cancel).
// The runner has one worker per process; the tests hold it with a job of their own whose
// work waits on a promise the test releases, so "pendente" and "executando" are states
// the test chooses, never a race. To know the worker has finished the jobs before, the
// test submits two last jobs and waits until the second one's work runs (jobs run in
// order, so the first has ended, final row written, by then).
#include <soci/soci.h>

#include <future>

#include "platform/app.hpp"
#include "platform/jobs/jobs.hpp"
#include "integration/platform/held_job.hpp"
#include "rasters_fixture.hpp"
#include "service/tenancy.hpp"
#include "store/sql.hpp"

using namespace cadastre;
using test::Cast;
using test::RastersFixture;
using test::refused;

namespace {

constexpr auto kBound = std::chrono::seconds(60);  // a bound on waiting for the worker, not a timing

// A work the test holds: it says when it started and waits for release().
struct Gate {
  std::promise<void> started_, released_, done_;
  std::shared_future<void> go = released_.get_future().share();
  std::future<void> started_future = started_.get_future(), done_future = done_.get_future();
  std::atomic<bool> progress_threw{false};
  bool released = false;

  void wait_started() { REQUIRE(started_future.wait_for(kBound) == std::future_status::ready); }
  void release() {
    if (!released) released_.set_value();
    released = true;
  }
};

// Releases the gate whatever happens in the test, so the worker (joined when the App goes)
// is never left waiting.
struct Releaser {
  std::shared_ptr<Gate> gate;
  ~Releaser() { gate->release(); }
};

std::string job_path(std::int64_t job) { return "/importacoes-tiff/" + std::to_string(job); }

platform::jobs::Job job_of(const std::string& tipo) {
  platform::jobs::Job j;
  j.tipo = tipo;
  return j;
}

class CancelFixture : public RastersFixture {
 public:
  service::Scope scope_of(const test::Session& s, const std::string& slug = "alfa") {
    auto tenant = app->tenancy().active(slug);
    REQUIRE(tenant);
    store::Principal who;
    who.user_id = s.user_id;
    who.tenant_id = tenant->id;
    who.tenant_slug = tenant->slug;
    return app->tenancy().scope(std::move(who), *tenant);
  }

  /// Submits (tipo tiff, as `s`) a work that waits for the gate, then runs `then`.
  std::int64_t held(const test::Session& s, const std::shared_ptr<Gate>& gate,
                    std::function<void(platform::jobs::Context&)> then = {}) {
    auto sub = test::submit_work(*platform::jobs::runner(*app), scope_of(s), job_of("tiff"),
                                                    [gate, then](platform::jobs::Context& ctx) {
                                                      gate->started_.set_value();
                                                      gate->go.wait();
                                                      if (then) then(ctx);
                                                    });
    return sub.id;
  }

  /// Waits until every job submitted before has ended, and returns the id of a job (tipo
  /// tiff) that ended concluida after them.
  std::int64_t drain(const test::Session& s) {
    auto runner = platform::jobs::runner(*app);
    auto first = test::submit_work(*runner, scope_of(s), job_of("tiff"), [](platform::jobs::Context&) {});
    auto ran = std::make_shared<std::promise<void>>();
    auto fut = ran->get_future();
    test::submit_work(*runner, scope_of(s), job_of("tiff"), [ran](platform::jobs::Context&) { ran->set_value(); });
    REQUIRE(fut.wait_for(kBound) == std::future_status::ready);
    return first.id;
  }

  static bool no_layer_files() {
    std::filesystem::path layers = test::raster_root() + "/alfa/camadas";
    return !std::filesystem::exists(layers) || std::filesystem::is_empty(layers);
  }

  std::size_t staged_files() const {
    std::filesystem::path dir = test::raster_root() + "/alfa/importacoes/tiff";
    if (!std::filesystem::exists(dir)) return 0;
    std::size_t n = 0;
    for (auto& e : std::filesystem::directory_iterator(dir)) n += e.is_regular_file();
    return n;
  }

  /// The socket's messages about job `id` (their "estado"), in order.
  std::vector<std::string> states_seen(std::int64_t id) {
    settle_events();
    std::lock_guard lock(events_mutex);
    std::vector<std::string> out;
    simdjson::dom::parser parser;
    for (const auto& e : events) {
      auto doc = parser.parse(e);
      if (std::string_view(doc["tipo"]) == "importacao" && int64_t(doc["importacao"]["idImportacao"]) == id)
        out.emplace_back(std::string_view(doc["importacao"]["estado"]));
    }
    return out;
  }
  /// Listens as `who`'s session: a job's events go once to each of its creator's sessions
  /// (and the owner holds more than one here), so one session hears each change once.
  void listen(const test::Session& who, const std::string& slug = "alfa") {
    std::int64_t session = std::stoll(platform_db("select id from plataforma.sessoes where token_hash = "
                                                  "encode(sha256(convert_to('" + who.token + "', 'UTF8')), 'hex')"));
    subscription = app->events().subscribe(tenant_id(slug), [this](const service::Event& e) {
      std::lock_guard lock(events_mutex);
      events.push_back(e.json);
    }, session);
  }

  std::mutex events_mutex;
  std::vector<std::string> events;
  service::EventBus::Subscription subscription;
};

}  // namespace

TEST_CASE_FIXTURE(CancelFixture,
                  "a pending tiff job is cancelled at once: its work never runs, no layer, its uploaded file is gone; "
                  "cancelada over HTTP, in the database, on the socket, in the lists; it can be hidden") {
  Cast c = cast();
  std::int64_t p = project(c);
  listen(c.owner);
  auto gate = std::make_shared<Gate>();
  Releaser releaser{gate};
  held(c.owner, gate);
  gate->wait_started();  // the worker is busy: the upload's job stays pendente

  auto a = upload("/importar/tiff?idProjeto=" + std::to_string(p) + "&nomeCamada=Relevo", test::make_geotiff(), &c.owner);
  REQUIRE_MESSAGE(a->status == 202, a->body);
  std::int64_t job = int64_t(a->json()["idImportacao"]);
  CHECK(a->text("estado") == "pendente");
  CHECK(staged_files() == 1);

  auto done = put(job_path(job), R"({"cancelar": true})", c.owner);
  REQUIRE_MESSAGE(done->status == 200, done->body);
  CHECK(done->text("estado") == "cancelada");
  CHECK(bool(done->json()["cancelamentoPedido"]));
  CHECK(done->text("mensagem").find("cancelada") != std::string::npos);
  CHECK(db("select estado || '|' || cancelamento_pedido from projeto.importacoes where id = " + std::to_string(job)) ==
        "cancelada|true");
  CHECK(platform_db("select count(*) from plataforma.tarefas where importacao_id = " + std::to_string(job) +
                    " and tenant_id = (select id from plataforma.tenants where slug = 'alfa')") == "0");
  CHECK(staged_files() == 0);  // dropped from the queue with its input
  CHECK(states_seen(job) == std::vector<std::string>{"cancelada"});

  // Twice: the job has ended, 409 naming its state; nothing changes.
  std::string before = db("select atualizado_em::text from projeto.importacoes where id = " + std::to_string(job));
  refused(*put(job_path(job), R"({"cancelar": true})", c.owner), 409, "transicao_invalida", "estado: cancelada");
  CHECK(db("select atualizado_em::text from projeto.importacoes where id = " + std::to_string(job)) == before);

  gate->release();
  drain(c.owner);
  // The worker reached it and skipped it: never executando, no progress, no count, no layer.
  CHECK(db("select estado || '|' || progresso || '|' || contagens::text from projeto.importacoes where id = " +
           std::to_string(job)) == "cancelada|0.00|{}");
  CHECK(db("select count(*) from projeto.camadas where projeto_id = " + std::to_string(p)) == "0");
  CHECK(states_seen(job) == std::vector<std::string>{"cancelada"});
  CHECK(no_layer_files());

  // The lists show the new state; a cancelled job may be hidden, not renamed.
  auto one = get(job_path(job), c.owner);
  CHECK(one->text("estado") == "cancelada");
  auto list = get("/importacoes-tiff", c.owner);
  REQUIRE(list->status == 200);
  bool listed = false;
  for (auto e : list->json()["content"].get_array())
    if (int64_t(e["idImportacao"]) == job) listed = std::string_view(e["estado"]) == "cancelada";
  CHECK(listed);
  auto pending = get("/importar/pendentes", c.owner);
  REQUIRE(pending->status == 200);
  CHECK(pending->body.find("\"cancelada\"") != std::string::npos);
  refused(*put(job_path(job), R"({"nomeCamada": "Outro"})", c.owner), 409, "transicao_invalida", "cancelada");
  auto hidden = put(job_path(job), R"({"oculta": true})", c.owner);
  REQUIRE_MESSAGE(hidden->status == 200, hidden->body);
  CHECK(db("select oculta from projeto.importacoes where id = " + std::to_string(job)) == "t");
}

TEST_CASE_FIXTURE(CancelFixture,
                  "a running job asked to cancel stops at its next progress(): its transaction rolls back and it ends "
                  "cancelada, not falhou") {
  Cast c = cast();
  std::int64_t p = project(c);
  listen(c.owner);
  auto gate = std::make_shared<Gate>();
  Releaser releaser{gate};
  const std::string insert = "insert into projeto.camadas (projeto_id, nome, tipo, ordem, criado_por) values (" +
                             std::to_string(p) + ", 'Nunca gravada', 'tiff', 0, " + std::to_string(c.owner.user_id) + ")";
  std::int64_t job = held(c.owner, gate, [gate, insert](platform::jobs::Context& ctx) {
    ctx.db().run([&](soci::session& s) {
      soci::transaction tx(s);
      store::execute(s, store::Sql(insert));
      ctx.layer({.id = 1, .nome = "Nunca gravada", .geometria = "raster"});
      try {
        ctx.progress(1, 2);
      } catch (...) {
        gate->progress_threw = true;
        throw;
      }
      ctx.complete(s);
      tx.commit();
    });
  });
  gate->wait_started();
  CHECK(db("select estado from projeto.importacoes where id = " + std::to_string(job)) == "executando");

  auto asked = put(job_path(job), R"({"cancelar": true})", c.owner);
  REQUIRE_MESSAGE(asked->status == 200, asked->body);
  CHECK(asked->text("estado") == "executando");  // it stops at its next step
  CHECK(bool(asked->json()["cancelamentoPedido"]));
  CHECK(db("select estado || '|' || cancelamento_pedido from projeto.importacoes where id = " + std::to_string(job)) ==
        "executando|true");
  // Asking again while it runs is harmless: the same answer.
  auto again = put(job_path(job), R"({"cancelar": true})", c.owner);
  CHECK(again->status == 200);
  CHECK(again->text("estado") == "executando");

  gate->release();
  drain(c.owner);
  CHECK(gate->progress_threw);
  // Progress 0: the request reached this process's worker, whose progress() threw before
  // storing anything (a request through another process is read from the row, below).
  CHECK(db("select estado || '|' || camadas::text || '|' || coalesce(camada_id::text, '-') || '|' || progresso "
           "from projeto.importacoes where id = " + std::to_string(job)) == "cancelada|[]|-|0.00");
  CHECK(db("select mensagem from projeto.importacoes where id = " + std::to_string(job)).find("cancelada") !=
        std::string::npos);
  CHECK(db("select count(*) from projeto.camadas where nome = 'Nunca gravada'") == "0");  // rolled back
  auto states = states_seen(job);
  REQUIRE_FALSE(states.empty());
  CHECK(states.back() == "cancelada");
  refused(*put(job_path(job), R"({"cancelar": true})", c.owner), 409, "transicao_invalida", "estado: cancelada");
}

TEST_CASE_FIXTURE(CancelFixture,
                  "a cancellation recorded in the job's row (as another process records it) stops the tiff work at "
                  "its first progress and leaves no layer and no file") {
  Cast c = cast();
  std::int64_t p = project(c);
  auto gate = std::make_shared<Gate>();
  Releaser releaser{gate};
  held(c.owner, gate);
  gate->wait_started();
  auto a = upload("/importar/tiff?idProjeto=" + std::to_string(p) + "&nomeCamada=Relevo", test::make_geotiff(), &c.owner);
  REQUIRE_MESSAGE(a->status == 202, a->body);
  std::int64_t job = int64_t(a->json()["idImportacao"]);
  // Another process that does not run the job can only say so in its row; this one reads
  // it at the work's next progress (the tiff work reports progress before converting).
  db("update projeto.importacoes set cancelamento_pedido = true where id = " + std::to_string(job));
  gate->release();
  drain(c.owner);
  CHECK(db("select estado || '|' || camadas::text from projeto.importacoes where id = " + std::to_string(job)) ==
        "cancelada|[]");
  CHECK(db("select count(*) from projeto.camadas where projeto_id = " + std::to_string(p)) == "0");
  CHECK(staged_files() == 0);  // neither the upload nor the converted copy is left
  CHECK(no_layer_files());
}

TEST_CASE_FIXTURE(CancelFixture,
                  "cancelling: a finished job is 409 naming its state; only the creator may cancel (404 otherwise); "
                  "no session 401; a bad body or path 400 naming the field") {
  Cast c = cast();
  project(c);
  // A job that failed and one that completed (drain()'s own job).
  auto gate = std::make_shared<Gate>();
  Releaser releaser{gate};
  std::int64_t failed = held(c.owner, gate, [](platform::jobs::Context&) {
    throw Error(errc::unprocessable, "o arquivo não serve");
  });
  gate->release();
  std::int64_t completed = drain(c.owner);
  CHECK(db("select estado from projeto.importacoes where id = " + std::to_string(failed)) == "falhou");
  refused(*put(job_path(failed), R"({"cancelar": true})", c.owner), 409, "transicao_invalida", "estado: falhou");
  refused(*put(job_path(completed), R"({"cancelar": true})", c.owner), 409, "transicao_invalida", "estado: concluida");
  CHECK(db("select estado || '|' || cancelamento_pedido from projeto.importacoes where id = " + std::to_string(completed)) ==
        "concluida|false");

  // A pending job of the owner that nobody else may cancel.
  auto hold = std::make_shared<Gate>();
  Releaser hold_releaser{hold};
  held(c.owner, hold);
  hold->wait_started();
  auto never = std::make_shared<Gate>();
  Releaser never_releaser{never};
  std::int64_t job = held(c.owner, never);  // stays pendente behind `hold`
  const std::string body = R"({"cancelar": true})";
  refused(*request("PUT", job_path(job), {}, body), 401, "nao_autenticado");
  refused(*put(job_path(job), body, c.stranger), 404, "nao_encontrado");  // another user of the tenant
  // (The tenant's administrator may: the next test case.)
  refused(*put(job_path(job), body, c.beta), 404, "nao_encontrado");      // another tenant
  refused(*put(job_path(987654), body, c.owner), 404, "nao_encontrado");  // unknown
  refused(*put("/importacoes-tiff/1;drop table projeto.importacoes", body, c.owner), 400, "parametro_invalido", "id");
  refused(*put(job_path(job), R"({"cancelar": false})", c.owner), 400, "parametro_invalido", "cancelar");
  refused(*put(job_path(job), R"({"cancelar": "sim"})", c.owner), 400, "parametro_invalido", "cancelar");
  refused(*put(job_path(job), R"({"cancelar": true, "nomeCamada": "X"})", c.owner), 400, "parametro_invalido", "cancelar");
  refused(*put(job_path(job), R"({"cancelar": true, "oculta": true})", c.owner), 400, "parametro_invalido", "cancelar");
  refused(*put(job_path(job), R"({"cancelar": true, "parar": 1})", c.owner), 400, "campo_desconhecido", "parar");
  CHECK(put(job_path(job), "[true]", c.owner)->status == 400);
  CHECK(db("select estado || '|' || cancelamento_pedido from projeto.importacoes where id = " + std::to_string(job)) ==
        "pendente|false");
  // Another type's job is not a tiff job: 404 on this route.
  std::int64_t shp = std::stoll(db("insert into projeto.importacoes (tipo, criado_por) values ('shp', " +
                                   std::to_string(c.owner.user_id) + ") returning id"));
  refused(*put(job_path(shp), body, c.owner), 404, "nao_encontrado");
  // The owner may.
  auto ok = put(job_path(job), body, c.owner);
  CHECK(ok->status == 200);
  CHECK(db("select estado from projeto.importacoes where id = " + std::to_string(job)) == "cancelada");
}

// Budgets and turns of the runner (jobs.hpp, Budget): runners of the test's own, on the
// App's pools, with budgets small enough to reach.
namespace {

// The job's state and message once it has ended (bounded polls of its row).
std::pair<std::string, std::string> ended(CancelFixture& f, std::int64_t id, const std::string& slug = "alfa") {
  for (int i = 0; i < 600; ++i) {
    std::string estado = f.db("select estado from projeto.importacoes where id = " + std::to_string(id), slug);
    if (estado != "pendente" && estado != "executando")
      return {estado, f.db("select coalesce(mensagem, '') from projeto.importacoes where id = " + std::to_string(id), slug)};
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  FAIL("job " << id << " did not end");
  return {};
}

}  // namespace

TEST_CASE_FIXTURE(CancelFixture, "a job over its wall-time or CPU budget fails with the reason, its writes rolled back") {
  Cast c = cast();
  auto runner = test::job_runner(*app, {.workers = 1, .per_tenant = 1, .wall = std::chrono::seconds(1),
                                        .cpu = std::chrono::seconds(30), .lease = std::chrono::seconds(30),
                                        .attempts = 3});
  // A work that writes, then reports progress while it sleeps: never ends on its own.
  auto slow = test::submit_work(*runner, scope_of(c.owner), job_of("tiff"), [](platform::jobs::Context& ctx) {
    ctx.db().run([&](soci::session& s) {
      soci::transaction tx(s);
      s << "create table orcamento_teste (x int)";
      for (std::int64_t i = 0;; ++i) {
        ctx.progress(i, 0);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    });
  });
  auto [estado, mensagem] = ended(*this, slow.id);
  CHECK(estado == "falhou");
  CHECK(mensagem == "a tarefa passou do seu limite de 1 s de duração; nada foi gravado");
  CHECK(db("select count(*) from pg_tables where tablename = 'orcamento_teste'") == "0");

  auto cpu = test::job_runner(*app, {.workers = 1, .per_tenant = 1, .wall = std::chrono::seconds(600),
                                     .cpu = std::chrono::seconds(1), .lease = std::chrono::seconds(30),
                                     .attempts = 3});
  auto spin = test::submit_work(*cpu, scope_of(c.owner), job_of("tiff"), [](platform::jobs::Context& ctx) {
    volatile std::uint64_t x = 0;
    for (std::int64_t i = 0;; ++i) {
      for (int k = 0; k < 1'000'000; ++k) x = x + static_cast<std::uint64_t>(k);
      ctx.progress(i, 0);
    }
  });
  auto [estado2, mensagem2] = ended(*this, spin.id);
  CHECK(estado2 == "falhou");
  CHECK(mensagem2 == "a tarefa passou do seu limite de 1 s de processador; nada foi gravado");
}

TEST_CASE_FIXTURE(CancelFixture, "jobs are taken in turns by tenant, and one tenant never holds every worker") {
  Cast c = cast();
  std::mutex m;
  std::vector<std::string> order;
  auto record = [&](std::string name) {
    return [&, name](platform::jobs::Context&) {
      std::lock_guard lock(m);
      order.push_back(name);
    };
  };
  {
    // One worker: alfa's third job waits behind beta's first, though queued before it.
    auto one = test::job_runner(*app, {.workers = 1, .per_tenant = 1});
    auto gate = std::make_shared<Gate>();
    Releaser releaser{gate};
    auto held = test::submit_work(*one, scope_of(c.owner), job_of("tiff"), [gate](platform::jobs::Context&) {
      gate->started_.set_value();
      gate->go.wait();
    });
    gate->wait_started();
    auto a2 = test::submit_work(*one, scope_of(c.owner), job_of("tiff"), record("alfa-2"));
    auto a3 = test::submit_work(*one, scope_of(c.owner), job_of("tiff"), record("alfa-3"));
    auto b1 = test::submit_work(*one, scope_of(c.beta, "beta"), job_of("tiff"), record("beta-1"));
    gate->release();
    CHECK(ended(*this, a3.id).first == "concluida");
    CHECK(ended(*this, b1.id, "beta").first == "concluida");
    CHECK(ended(*this, held.id).first == "concluida");
    (void)a2;
    std::lock_guard lock(m);
    CHECK(order == std::vector<std::string>{"beta-1", "alfa-2", "alfa-3"});
  }
  {
    // Two workers, one job per tenant: while alfa's job is held, alfa's next waits and
    // beta's runs on the other worker.
    auto two = test::job_runner(*app, {.workers = 2, .per_tenant = 1});
    auto gate = std::make_shared<Gate>();
    Releaser releaser{gate};
    auto held = test::submit_work(*two, scope_of(c.owner), job_of("tiff"), [gate](platform::jobs::Context&) {
      gate->started_.set_value();
      gate->go.wait();
    });
    gate->wait_started();
    auto a2 = test::submit_work(*two, scope_of(c.owner), job_of("tiff"), [](platform::jobs::Context&) {});
    auto b1 = test::submit_work(*two, scope_of(c.beta, "beta"), job_of("tiff"), [](platform::jobs::Context&) {});
    CHECK(ended(*this, b1.id, "beta").first == "concluida");
    CHECK(db("select estado from projeto.importacoes where id = " + std::to_string(a2.id)) == "pendente");
    gate->release();
    CHECK(ended(*this, a2.id).first == "concluida");
    CHECK(ended(*this, held.id).first == "concluida");
  }
}

TEST_CASE_FIXTURE(CancelFixture, "a tenant administrator cancels any job of the tenant; another user may not") {
  Cast c = cast();
  auto gate = std::make_shared<Gate>();
  Releaser releaser{gate};
  std::int64_t job = held(c.owner, gate, [](platform::jobs::Context& ctx) { ctx.progress(1, 2); });
  gate->wait_started();
  refused(*put(job_path(job), R"({"cancelar": true})", c.reader), 404, "nao_encontrado");
  auto asked = put(job_path(job), R"({"cancelar": true})", c.admin);
  REQUIRE_MESSAGE(asked->status == 200, asked->body);
  CHECK(asked->text("estado") == "executando");
  gate->release();
  drain(c.owner);
  CHECK(db("select estado from projeto.importacoes where id = " + std::to_string(job)) == "cancelada");
}
