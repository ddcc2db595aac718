// The job runner: a few worker threads claiming jobs from the shared queue, a heartbeat
// renewing their leases, the job's row kept current, each job held to its budget. See
// jobs.hpp.
#include "platform/jobs/jobs.hpp"

#include <soci/soci.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <iostream>
#include <list>
#include <map>
#include <mutex>
#include <thread>

#include "cadastre/json.hpp"
#include "platform/app.hpp"
#include "platform/guard/accounts.hpp"
#include "platform/jobs/store.hpp"
#include "file_store/file_store.hpp"
#include "platform/layers/store_events.hpp"
#include "store/crypto.hpp"
#include "store/events.hpp"

namespace cadastre::platform::jobs {
namespace {

// A claimed job, as its worker runs it.
struct Item {
  queue::Claim claim;
  std::int64_t user = 0;
  std::string slug, parametros;
  store::Pool* db = nullptr;
  bool announce = true;
};

// Stores and publishes at most once a second: a 200,000-feature file must not write
// 200,000 progress rows.
constexpr auto kProgressEvery = std::chrono::seconds(1);

constexpr const char* kCancelled = "cancelada a pedido do usuário durante a execução; nada foi gravado";

// What progress() and complete() throw once the job's cancellation was asked: the work's
// transaction rolls back on its way out, and execute() records the job cancelada.
Error cancelled_error() { return Error(errc::invalid_transition, kCancelled); }

// A tenant administrator sees and cancels any job of the tenant; others, their own.
sql::Creator whose(const service::Caller& scope) {
  return guard::reach(scope) >= guard::Reach::tenant ? sql::Creator() : sql::Creator(scope.user.user_id);
}

// CPU time of the calling thread (the worker running the job).
std::chrono::milliseconds thread_cpu() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return std::chrono::milliseconds(static_cast<std::int64_t>(t.tv_sec) * 1000 + t.tv_nsec / 1'000'000);
}

// A job a worker runs (a job id is unique within its tenant only), whether its
// cancellation was asked through this process (cancel()) — one asked through another
// process reaches the job through its row (progress(), complete()) — and whether the
// heartbeat found its lease taken over.
struct Current {
  std::int64_t claim = 0, tenant_id = 0, id = 0;
  bool cancel = false;
  bool lost = false;
};

// Why a running job stopped without ending: the runner is stopping (the job goes back to
// the queue) or its lease was taken over (another attempt owns it now).
struct Interrupted : Error {
  using Error::Error;
};

}  // namespace

struct Runner::State {
  Setup setup;
  std::string holder;  // this runner's name in plataforma.tarefas.titular
  std::mutex mutex;
  std::condition_variable wake;
  bool stopping = false;
  bool nudged = false;  // a job was queued through this process: a worker looks at once
  std::map<std::string, std::pair<Handler, bool>> handlers;  // name → work, announce
  std::list<Current> running;  // the jobs the workers hold
  std::vector<std::thread> workers;
  std::thread heartbeat;
  file_store::Store files{std::string()};

  std::ostream& log() { return *setup.log; }
  const Budget& budget() const { return setup.budget; }

  std::vector<std::string> known() {
    std::lock_guard lock(mutex);
    std::vector<std::string> out;
    for (const auto& [name, h] : handlers) out.push_back(name);
    return out;
  }

  // The job's JSON goes to its creator's open sessions only (the platform database, one
  // query): jobs are readable by their creator alone, and the JSON names the file, the
  // layers and the project. A failure to read them costs the event, never the job.
  void publish(std::int64_t tenant_id, std::int64_t id, std::int64_t user, soci::session& s) {
    auto json = sql::one(s, id, user);
    if (!json) return;
    JsonWriter w;
    w.begin_object().key("tipo").value("importacao").key("importacao").raw(*json).end_object();
    std::string text = std::move(w).str();
    try {
      std::vector<std::int64_t> ids;
      for (const layers::Viewer& v : layers::open_sessions(*setup.platform, tenant_id, user)) ids.push_back(v.session);
      store::publish_event(*setup.platform, tenant_id, "importacao", text, ids);
    } catch (const std::exception& e) {
      log() << "importacao " << id << ": evento não publicado: " << e.what() << "\n";
    }
  }
  void publish(const Item& it, soci::session& s) {
    if (it.announce) publish(it.claim.tenant_id, it.claim.job, it.user, s);
  }

  // The job's input goes, then its place in the queue (a process dying between the two
  // leaves a place whose job has ended: the next claim finds it so and removes it).
  void done(const queue::Claim& c) {
    if (c.entrada) files.remove(*c.entrada);
    setup.platform->with([&](soci::session& s) { queue::done(s, c.id); });
  }

  // A job was queued through this process: a worker looks at once.
  void nudge();
  // Queues the jobs left pendente to follow `claim`'s job (Context::follow), in its place.
  void queue_followers(const queue::Claim& claim, const std::vector<sql::Follower>& jobs);
  void run();
  void work(const queue::Claim& claim);
  void execute(Item& it, Current& current);
  void beat();
};

namespace {

class Running final : public Context {
 public:
  Running(Item& it, soci::session& status, Runner::State& state, Current& current)
      : it_(it), status_(status), state_(state), current_(current), cpu_start_(thread_cpu()) {}

  std::int64_t id() const override { return it_.claim.job; }
  store::Pool& db() override { return *it_.db; }
  const std::string& tenant_slug() const override { return it_.slug; }
  std::int64_t tenant_id() const override { return it_.claim.tenant_id; }
  std::int64_t user_id() const override { return it_.user; }
  const std::string& parametros() const override { return it_.parametros; }
  const std::optional<std::string>& entrada() const override { return it_.claim.entrada; }
  Counts& counts() override { return counts_; }
  void layer(Layer created) override { layers_.push_back(std::move(created)); }

  void progress(std::int64_t done, std::int64_t total) override {
    check_flags();
    check_budget();
    auto now = std::chrono::steady_clock::now();
    if (now - last_ < kProgressEvery) return;
    last_ = now;
    double pct = total > 0 ? std::min(99.0, 100.0 * static_cast<double>(done) / static_cast<double>(total)) : 0.0;
    std::optional<bool> asked = false;
    try {
      asked = sql::progress(status_, id(), it_.claim.attempt, pct, counts_);
      state_.publish(it_, status_);
    } catch (const std::exception& e) {  // progress is a courtesy: the job goes on
      *state_.setup.log << "importacao " << id() << ": progresso não gravado: " << e.what() << "\n";
    }
    if (!asked) lost();
    if (*asked) stop();  // asked through another process
  }

  void error(std::int64_t feature, std::string message) override {
    if (errors_.size() < kMaxErrors) errors_.emplace_back(feature, std::move(message));
  }

  void complete(soci::session& s) override {
    check_flags();
    check_budget();
    if (!sql::complete(s, id(), it_.claim.attempt, final_row("concluida", std::nullopt))) stop();
    completed_ = true;
  }

  void follow(soci::session& s, Job job) override {
    if (job.handler.empty()) job.handler = job.tipo;
    followers_.push_back({sql::insert(s, user_id(), job, id()).id, job.handler});
  }
  const std::vector<sql::Follower>& followers() const { return followers_; }

  sql::Final final_row(std::string estado, std::optional<std::string> mensagem) const {
    sql::Final f;
    f.estado = std::move(estado);
    f.counts = counts_;
    f.mensagem = std::move(mensagem);
    JsonWriter e;
    e.begin_array();
    for (const auto& [feature, message] : errors_)
      e.begin_object().key("feicao").value(feature).key("mensagem").value(message).end_object();
    f.erros = std::move(e.end_array()).str();
    JsonWriter l;
    l.begin_array();
    // A job that did not complete rolled its layers back: none of them exists.
    for (const auto& x : f.estado == "concluida" ? layers_ : std::vector<Layer>{})
      l.begin_object().key("id").value(x.id).key("nome").value(x.nome).key("geometria").value(x.geometria)
          .key("feicoes").value(x.feicoes).end_object();
    f.camadas = std::move(l.end_array()).str();
    if (!layers_.empty() && f.estado == "concluida") f.camada = layers_.front().id;
    return f;
  }
  bool completed() const { return completed_; }
  bool cancelled() const { return cancelled_; }

  [[noreturn]] void stop() {
    cancelled_ = true;
    throw cancelled_error();
  }
  [[noreturn]] static void lost() { throw Interrupted(errc::unavailable, "a tarefa passou a outra instância"); }

  // The runner stopping, the lease taken over, a cancellation asked here.
  void check_flags() {
    std::lock_guard lock(state_.mutex);
    if (state_.stopping) throw Interrupted(errc::unavailable, "importação interrompida: o serviço está parando");
    if (current_.lost) lost();
    if (current_.cancel) stop();
  }

  // A job over its wall or CPU time fails with the reason (its transaction rolls back).
  void check_budget() const {
    const Budget& b = state_.budget();
    if (std::chrono::steady_clock::now() - started_ > b.wall)
      throw Error(errc::unprocessable, "a tarefa passou do seu limite de " + std::to_string(b.wall.count()) +
                                           " s de duração; nada foi gravado");
    if (thread_cpu() - cpu_start_ > b.cpu)
      throw Error(errc::unprocessable, "a tarefa passou do seu limite de " + std::to_string(b.cpu.count()) +
                                           " s de processador; nada foi gravado");
  }

 private:
  Item& it_;
  soci::session& status_;
  Runner::State& state_;
  Current& current_;
  const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  const std::chrono::milliseconds cpu_start_;
  Counts counts_;
  std::vector<std::pair<std::int64_t, std::string>> errors_;
  std::vector<Layer> layers_;
  std::vector<sql::Follower> followers_;  // written in the work's transaction
  std::chrono::steady_clock::time_point last_{};
  bool completed_ = false;
  bool cancelled_ = false;
};

// How long an idle worker waits before looking at the queue again (a job submitted
// through this process wakes it at once; one submitted elsewhere waits at most this).
constexpr auto kPoll = std::chrono::milliseconds(250);

}  // namespace

void Runner::State::run() {
  for (;;) {
    {
      std::unique_lock lock(mutex);
      if (stopping) return;
    }
    std::optional<queue::Claim> claim;
    try {
      claim = setup.platform->with([&](soci::session& s) {
        return queue::claim(s, setup.lane, known(), holder, budget().lease, budget().per_tenant);
      });
    } catch (const std::exception& e) {  // the platform database away: try again later
      log() << "fila " << setup.lane << ": " << e.what() << "\n";
    }
    if (!claim) {
      std::unique_lock lock(mutex);
      wake.wait_for(lock, kPoll, [&] { return stopping || nudged; });
      nudged = false;
      continue;
    }
    try {
      work(*claim);
    } catch (const std::exception& e) {  // a database away: the lease expires and the job is retried
      log() << "importacao " << claim->job << ": " << e.what() << "\n";
    }
  }
}

void Runner::State::work(const queue::Claim& claim) {
  std::optional<Tenant> tenant = setup.tenant(claim.tenant_id);
  if (!tenant) {  // the tenant is gone, and its jobs with it
    done(claim);
    return;
  }
  Item it{claim, 0, tenant->slug, "{}", tenant->db, true};
  {
    std::lock_guard lock(mutex);
    if (auto h = handlers.find(claim.handler); h != handlers.end()) it.announce = h->second.second;
  }
  // Claimed once too often: the instances that ran it died, or its work failed unexpectedly
  // every time.
  if (claim.attempt > budget().attempts) {
    it.db->with([&](soci::session& s) {
      sql::Final f;
      f.estado = "falhou";
      f.mensagem = "a tarefa foi interrompida " + std::to_string(budget().attempts) +
                   " vezes (o processo que a executava parou ou falhou); envie de novo";
      sql::finish(s, claim.job, 0, f);
      it.user = sql::creator_of(s, claim.job).value_or(0);
      if (it.user) publish(it, s);
    });
    done(claim);
    return;
  }
  std::list<Current>::iterator current;
  {
    std::lock_guard lock(mutex);
    current = running.insert(running.end(), Current{claim.id, claim.tenant_id, claim.job, false, false});
  }
  struct Leave {
    State* state;
    std::list<Current>::iterator at;
    ~Leave() {
      std::lock_guard lock(state->mutex);
      state->running.erase(at);
    }
  } leave{this, current};
  execute(it, *current);
}

void Runner::State::execute(Item& it, Current& current) {
  const queue::Claim& claim = it.claim;
  auto status = it.db->lease();
  auto started = sql::start(*status, claim.job, claim.attempt);
  if (!started) {  // ended meanwhile (cancelled while pendente, or committed by a process that died) or gone
    queue_followers(claim, sql::followers(*status, claim.job));
    done(claim);
    return;
  }
  it.user = started->user;
  it.parametros = started->parametros;
  Running ctx(it, *status, *this, current);
  if (started->cancel_asked) {  // asked while a dead instance ran it: nothing to run
    sql::finish(*status, claim.job, claim.attempt, ctx.final_row("cancelada", kCancelled));
    publish(it, *status);
    done(claim);
    return;
  }
  publish(it, *status);
  Handler handler;
  {
    std::lock_guard lock(mutex);
    handler = handlers.at(claim.handler).first;  // claim() takes only known handlers
  }
  std::optional<std::string> failure;
  bool unexpected = false;
  try {
    handler(ctx);
  } catch (const Interrupted& e) {
    bool stopped;
    {
      std::lock_guard lock(mutex);
      stopped = stopping && !current.lost;
    }
    if (stopped) {  // back to the queue, for another instance; this claim not counted
      sql::requeue(*status, claim.job, claim.attempt, "interrompida: o serviço parou; outra instância a retoma");
      setup.platform->with([&](soci::session& s) { queue::release(s, claim.id, holder); });
      publish(it, *status);
    } else {
      log() << "importacao " << claim.job << ": " << e.what() << "\n";
    }
    return;
  } catch (const Error& e) {
    failure = e.what();
  } catch (const std::exception& e) {
    log() << "importacao " << claim.job << " (tentativa " << claim.attempt << "): erro interno: " << e.what() << "\n";
    failure = "erro interno ao importar";
    unexpected = true;
  }
  bool cancelled = ctx.cancelled();
  {
    std::lock_guard lock(mutex);
    // Asked here while the work failed on its own: it is rolled back all the same, and the
    // user asked for exactly that.
    cancelled = cancelled || current.cancel;
  }
  if (failure && !cancelled && unexpected && claim.attempt < budget().attempts) {
    // Something passing (a lost connection, a full disk): another attempt, from the start.
    const std::string why = "tentativa " + std::to_string(claim.attempt) + " de " +
                            std::to_string(budget().attempts) + " falhou (" + *failure + "); a tarefa será retomada";
    sql::requeue(*status, claim.job, claim.attempt, why);
    setup.platform->with([&](soci::session& s) { queue::retry(s, claim.id, holder, why); });
    publish(it, *status);
    return;
  }
  if (failure && cancelled) {
    sql::finish(*status, claim.job, claim.attempt, ctx.final_row("cancelada", kCancelled));
  } else if (failure) {
    sql::finish(*status, claim.job, claim.attempt, ctx.final_row("falhou", failure));
  } else if (!ctx.completed()) {
    sql::finish(*status, claim.job, claim.attempt, ctx.final_row("concluida", std::nullopt));
  }
  publish(it, *status);
  // Before this job leaves the queue: with it still executando there, the tenant's cap
  // keeps its followers from being claimed by another worker ahead of it.
  if (!failure) queue_followers(claim, ctx.followers());
  done(claim);
}

// The followers take `claim`'s place in its tenant's line: next, ahead of the jobs queued
// after it.
void Runner::State::queue_followers(const queue::Claim& claim, const std::vector<sql::Follower>& jobs) {
  if (jobs.empty()) return;
  setup.platform->with([&](soci::session& s) {
    for (const auto& f : jobs) queue::add(s, claim.tenant_id, f.id, setup.lane, f.handler, std::nullopt, claim.id);
  });
  nudge();
}

void Runner::State::nudge() {
  {
    std::lock_guard lock(mutex);
    nudged = true;
  }
  wake.notify_all();
}

// Renews the leases of the jobs this runner holds, every third of a lease; a job whose
// lease was taken over (this process stalled past it) is told at its next progress().
void Runner::State::beat() {
  const auto every = std::max<std::chrono::milliseconds>(budget().lease / 3, std::chrono::milliseconds(200));
  std::unique_lock lock(mutex);
  while (!wake.wait_for(lock, every, [&] { return stopping; })) {
    std::vector<std::int64_t> ids;
    for (const Current& c : running) ids.push_back(c.claim);
    if (ids.empty()) continue;
    lock.unlock();
    std::optional<std::vector<std::int64_t>> held;
    try {
      held = setup.platform->with([&](soci::session& s) { return queue::renew(s, holder, ids, budget().lease); });
    } catch (const std::exception& e) {  // tried again at the next beat, within the lease
      log() << "fila " << setup.lane << ": prazo não renovado: " << e.what() << "\n";
    }
    lock.lock();
    if (!held) continue;
    for (Current& c : running)
      if (std::find(ids.begin(), ids.end(), c.claim) != ids.end() &&
          std::find(held->begin(), held->end(), c.claim) == held->end())
        c.lost = true;
  }
}

Runner::Runner(Setup setup) : state_(std::make_shared<State>()) {
  State& st = *state_;
  st.setup = std::move(setup);
  if (!st.setup.log) st.setup.log = &std::cerr;
  Budget& b = st.setup.budget;
  b.workers = std::max(1, b.workers);
  b.per_tenant = std::max(1, b.per_tenant);
  b.attempts = std::max(1, b.attempts);
  b.lease = std::max(b.lease, std::chrono::seconds(1));
  // Who holds a job, for an operator reading plataforma.tarefas: the lane, the machine and
  // the process, and a random part (a restarted process may get the same pid).
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  st.holder = st.setup.lane + "@" + host + ":" + std::to_string(::getpid()) + "-" + store::random_token().substr(0, 8);
  st.files = file_store::Store(st.setup.files_root);
  for (int i = 0; i < b.workers; ++i) st.workers.emplace_back([s = &st] { s->run(); });
  st.heartbeat = std::thread([s = &st] { s->beat(); });
}

Runner::~Runner() {
  {
    std::lock_guard lock(state_->mutex);
    state_->stopping = true;
  }
  state_->wake.notify_all();
  for (auto& w : state_->workers) w.join();
  state_->heartbeat.join();
}

void Runner::handle(const std::string& name, Handler work, bool announce) {
  std::lock_guard lock(state_->mutex);
  state_->handlers[name] = {std::move(work), announce};
}

Submitted Runner::submit(const service::Scope& scope, Job job) {
  struct Input {  // the staged input is the job's once queued; otherwise it goes
    const file_store::Store& files;
    std::optional<std::string> path;
    ~Input() {
      if (path) files.remove(*path);
    }
  } input{state_->files, job.entrada};
  if (job.handler.empty()) job.handler = job.tipo;
  {
    std::lock_guard lock(state_->mutex);
    if (state_->stopping) throw Error(errc::unavailable, "o serviço está parando; tente de novo");
    if (!state_->handlers.count(job.handler))
      throw std::logic_error("tarefa sem executor registrado: " + job.handler);
  }
  Submitted out = scope.db->with([&](soci::session& s) { return sql::insert(s, scope.user.user_id, job); });
  if (!out.novo) return out;
  try {
    state_->setup.platform->with([&](soci::session& s) {
      queue::add(s, scope.tenant.id, out.id, state_->setup.lane, job.handler, job.entrada);
    });
  } catch (...) {  // not queued: the job must not wait forever
    scope.db->with([&](soci::session& s) {
      sql::Final f;
      f.estado = "falhou";
      f.mensagem = "não foi possível enfileirar a tarefa; envie de novo";
      sql::finish(s, out.id, 0, f);
    });
    throw;
  }
  input.path.reset();
  state_->nudge();
  return out;
}

bool Runner::wait(const service::Caller& scope, std::int64_t id, std::chrono::milliseconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    auto now = status(scope, id);
    if (!now || (now->estado != "pendente" && now->estado != "executando")) return now.has_value();
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

std::optional<std::string> Runner::find(const service::Caller& scope, std::int64_t id, std::string_view tipo) {
  return scope.db->with([&](soci::session& s) { return sql::one(s, id, whose(scope), tipo); });
}

std::optional<Status> Runner::status(const service::Caller& scope, std::int64_t id) {
  return scope.db->with([&](soci::session& s) { return sql::status(s, id, whose(scope)); });
}

store::PageRows Runner::list(const service::Caller& scope, const std::vector<std::string>& tipos, const Page& page) {
  return scope.db->with([&](soci::session& s) { return sql::page(s, scope.user.user_id, tipos, page); });
}

void Runner::hide(const service::Caller& scope, std::int64_t id) {
  scope.db->with([&](soci::session& s) {
    auto estado = sql::state_of(s, id, scope.user.user_id);
    if (!estado) throw Error(errc::not_found, "importação " + std::to_string(id) + " não encontrada", "idImportacao");
    if (*estado == "pendente" || *estado == "executando")
      throw Error(errc::invalid_transition,
                  "a importação ainda não terminou (estado: " + *estado +
                      "): só se oculta uma importação concluída, que falhou ou cancelada",
                  "idImportacao");
    sql::hide(s, id);
  });
}

std::string Runner::cancel(const service::Caller& scope, std::int64_t id) {
  std::string estado = scope.db->with([&](soci::session& s) {
    if (auto now = sql::cancel(s, id, whose(scope))) return *now;
    auto was = sql::state_of(s, id, whose(scope));
    if (!was) throw Error(errc::not_found, "importação " + std::to_string(id) + " não encontrada", "idImportacao");
    throw Error(errc::invalid_transition,
                "a importação já terminou (estado: " + *was + "): só se cancela uma importação pendente ou em execução",
                "idImportacao");
  });
  if (estado == "cancelada") {  // was pendente: it leaves the queue, and its input goes
    auto entrada =
        state_->setup.platform->with([&](soci::session& s) { return queue::drop(s, scope.tenant.id, id); });
    if (entrada) state_->files.remove(*entrada);
  } else {
    std::lock_guard lock(state_->mutex);
    for (Current& c : state_->running)
      if (c.tenant_id == scope.tenant.id && c.id == id) c.cancel = true;  // this process runs it: its next progress() stops it
  }
  scope.db->with([&](soci::session& s) {
    // The event goes to its creator (announced jobs only: a preview's is never heard).
    auto creator = sql::creator_of(s, id).value_or(scope.user.user_id);
    auto tipo = sql::status(s, id, std::nullopt);
    if (tipo && tipo->tipo != "previa") state_->publish(scope.tenant.id, id, creator, s);
  });
  return estado;
}

std::string accepted_json(Runner& runner, const service::Caller& s, const Submitted& sub) {
  std::string estado = "pendente";
  if (!sub.novo) {  // the earlier job of this codigo, in its current state
    if (auto now = runner.status(s, sub.id)) estado = now->estado;
  }
  JsonWriter w;
  w.begin_object().key("idImportacao").value(sub.id).key("estado").value(estado).key("novo").value(sub.novo);
  return std::move(w.end_object()).str();
}

std::shared_ptr<Runner> runner(App& app, Lane lane) {
  // Keyed by App and held weakly: the routes' handlers own the runner, so it stops when the
  // App's server (with its route table) is destroyed, before the pools and the event bus.
  static std::mutex mutex;
  static std::map<std::pair<App*, Lane>, std::weak_ptr<Runner>> runners;
  std::lock_guard lock(mutex);
  auto& slot = runners[{&app, lane}];
  if (auto r = slot.lock()) return r;
  const JobBudget& b = app.options().jobs;
  Budget budget = lane == Lane::previews ? kPreviewBudget : Budget{b.workers, b.per_tenant, b.wall, b.cpu, b.lease, b.attempts};
  budget.lease = b.lease;
  budget.attempts = b.attempts;
  Setup setup;
  setup.platform = &app.platform();
  setup.tenant = [identity = &app.identity(), pools = &app.tenants()](std::int64_t id) -> std::optional<Tenant> {
    auto t = identity->tenant_by_id(id);
    if (!t) return std::nullopt;
    return Tenant{&pools->pool(*t), t->slug};
  };
  setup.files_root = app.options().files_dir;
  setup.lane = lane == Lane::previews ? "previas" : "importacoes";
  setup.log = app.options().http.log;
  setup.budget = budget;
  auto r = std::make_shared<Runner>(std::move(setup));
  slot = r;
  return r;
}

}  // namespace cadastre::platform::jobs
