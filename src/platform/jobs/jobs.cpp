// The job runner: a few worker threads, a queue taken in turns by tenant, the job's row
// kept current, each job held to its budget. See jobs.hpp.
#include "platform/jobs/jobs.hpp"

#include <soci/soci.h>
#include <time.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <iostream>
#include <list>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "cadastre/json.hpp"
#include "platform/app.hpp"
#include "platform/guard/accounts.hpp"
#include "platform/jobs/store.hpp"
#include "platform/layers/store_events.hpp"
#include "store/events.hpp"

namespace cadastre::platform::jobs {
namespace {

struct Item {
  std::int64_t id = 0, tenant_id = 0, user = 0;
  std::string slug, parametros;
  store::Pool* db = nullptr;
  Work work;
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

// A job a worker runs (a job id is unique within its tenant's pool only), and whether its
// cancellation was asked through this process (cancel()). A cancellation asked through
// another process reaches the job through its row (progress(), complete()).
struct Current {
  store::Pool* db = nullptr;
  std::int64_t id = 0, tenant_id = 0;
  bool cancel = false;
};

}  // namespace

struct Runner::State {
  store::Pool* platform = nullptr;  // the sessions a job's events go to (publish)
  std::ostream* log;
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<Item> queue;
  bool stopping = false;
  std::set<store::Pool*> recovered;  // tenants whose dead jobs were already marked
  Budget budget;
  std::list<Current> running;  // the jobs the workers hold
  // Turns: the queued job taken next is the oldest of the tenant served longest ago.
  std::map<std::int64_t, std::uint64_t> served;  // tenant → turn it was last served
  std::uint64_t turn = 0;
  std::vector<std::thread> workers;

  // The next job a worker may take (queue.end() when every queued job's tenant already
  // runs budget.per_tenant jobs). Under `mutex`.
  std::deque<Item>::iterator next() {
    auto best = queue.end();
    std::uint64_t best_turn = 0;
    for (auto it = queue.begin(); it != queue.end(); ++it) {
      int busy = 0;
      for (const Current& c : running) busy += c.tenant_id == it->tenant_id;
      if (busy >= budget.per_tenant) continue;
      std::uint64_t t = served.count(it->tenant_id) ? served[it->tenant_id] : 0;
      if (best == queue.end() || t < best_turn) best = it, best_turn = t;
    }
    return best;
  }

  // The job's JSON goes to its creator's open sessions only (the platform database, one
  // query): jobs are readable by their creator alone, and the JSON names the file, the
  // layers and the project. A failure to read them costs the event, never the job.
  void publish(const Item& it, soci::session& s) {
    if (!it.announce) return;
    auto json = sql::one(s, it.id, it.user);
    if (!json) return;
    JsonWriter w;
    w.begin_object().key("tipo").value("importacao").key("importacao").raw(*json).end_object();
    std::string text = std::move(w).str();
    std::vector<layers::Viewer> sessions;
    try {
      sessions = layers::open_sessions(*platform, it.tenant_id, it.user);
    } catch (const std::exception& e) {
      *log << "importacao " << it.id << ": evento não publicado: " << e.what() << "\n";
      return;
    }
    std::vector<std::int64_t> ids;
    for (const layers::Viewer& v : sessions) ids.push_back(v.session);
    try {
      store::publish_event(*platform, it.tenant_id, "importacao", text, ids);
    } catch (const std::exception& e) {
      *log << "importacao " << it.id << ": evento não publicado: " << e.what() << "\n";
    }
  }

  void run();
  void execute(Item& it, Current& current);
};

namespace {

class Running final : public Context {
 public:
  Running(Item& it, soci::session& status, Runner::State& state, Current& current)
      : it_(it), status_(status), state_(state), current_(current), cpu_start_(thread_cpu()) {}

  std::int64_t id() const override { return it_.id; }
  store::Pool& db() override { return *it_.db; }
  const std::string& tenant_slug() const override { return it_.slug; }
  std::int64_t user_id() const override { return it_.user; }
  const std::string& parametros() const override { return it_.parametros; }
  Counts& counts() override { return counts_; }
  void layer(Layer created) override { layers_.push_back(std::move(created)); }

  void progress(std::int64_t done, std::int64_t total) override {
    {
      std::lock_guard lock(state_.mutex);
      if (state_.stopping) throw Error(errc::unavailable, "importação interrompida: o serviço está parando");
      if (current_.cancel) stop();
    }
    check_budget();
    auto now = std::chrono::steady_clock::now();
    if (now - last_ < kProgressEvery) return;
    last_ = now;
    double pct = total > 0 ? std::min(99.0, 100.0 * static_cast<double>(done) / static_cast<double>(total)) : 0.0;
    bool asked = false;
    try {
      asked = sql::progress(status_, it_.id, pct, counts_);
      state_.publish(it_, status_);
    } catch (const std::exception& e) {  // progress is a courtesy: the job goes on
      *state_.log << "importacao " << it_.id << ": progresso não gravado: " << e.what() << "\n";
    }
    if (asked) stop();  // asked through another process
  }

  void error(std::int64_t feature, std::string message) override {
    if (errors_.size() < kMaxErrors) errors_.emplace_back(feature, std::move(message));
  }

  void complete(soci::session& s) override {
    {
      std::lock_guard lock(state_.mutex);
      if (current_.cancel) stop();
    }
    check_budget();
    if (!sql::complete(s, it_.id, final_row("concluida", std::nullopt))) stop();
    completed_ = true;
  }

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

  // A job over its wall or CPU time fails with the reason (its transaction rolls back).
  void check_budget() const {
    using std::chrono::duration_cast;
    using std::chrono::seconds;
    const Budget& b = state_.budget;
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
  std::chrono::steady_clock::time_point last_{};
  bool completed_ = false;
  bool cancelled_ = false;
};

}  // namespace

void Runner::State::run() {
  for (;;) {
    Item it;
    std::list<Current>::iterator current;
    {
      std::unique_lock lock(mutex);
      wake.wait(lock, [&] { return stopping || next() != queue.end(); });
      if (stopping) return;
      auto chosen = next();
      it = std::move(*chosen);
      queue.erase(chosen);
      served[it.tenant_id] = ++turn;
      current = running.insert(running.end(), Current{it.db, it.id, it.tenant_id, false});
    }
    try {
      execute(it, *current);
    } catch (const std::exception& e) {  // no connection for the job's status: try once more to fail it
      *log << "importacao " << it.id << ": " << e.what() << "\n";
      try {
        it.db->with([&](soci::session& s) {
          sql::Final f;
          f.estado = "falhou";
          f.mensagem = "o banco de dados não respondeu; envie o arquivo de novo";
          sql::finish(s, it.id, f);
        });
      } catch (const std::exception&) {  // still down: recover() marks it once its holder is gone
      }
    }
    {
      std::lock_guard lock(mutex);
      running.erase(current);
    }
    wake.notify_all();  // a job of this tenant may now be taken
  }
}

void Runner::State::execute(Item& it, Current& current) {
  // The status connection is held for the whole job: its backend is the job's `pid`, alive
  // exactly as long as this process holds the job.
  auto status = it.db->lease();
  if (!sql::start(*status, it.id)) return;
  publish(it, *status);
  Running ctx(it, *status, *this, current);
  std::optional<std::string> failure;
  try {
    it.work(ctx);
  } catch (const Error& e) {
    failure = e.what();
  } catch (const std::exception& e) {
    *log << "importacao " << it.id << ": erro interno: " << e.what() << "\n";
    failure = "erro interno ao importar";
  }
  bool cancelled = ctx.cancelled();
  {
    std::lock_guard lock(mutex);
    // Asked here while the work failed on its own (or was stopping): it is rolled back all
    // the same, and the user asked for exactly that.
    cancelled = cancelled || current.cancel;
  }
  if (failure && cancelled) {
    sql::finish(*status, it.id, ctx.final_row("cancelada", kCancelled));
  } else if (failure) {
    sql::finish(*status, it.id, ctx.final_row("falhou", failure));
  } else if (!ctx.completed()) {
    sql::finish(*status, it.id, ctx.final_row("concluida", std::nullopt));
  }
  publish(it, *status);
}

Runner::Runner(store::Pool& platform, std::ostream* log, Budget budget) : state_(std::make_shared<State>()) {
  state_->platform = &platform;
  state_->log = log ? log : &std::cerr;
  state_->budget = budget;
  state_->budget.workers = std::max(1, budget.workers);
  state_->budget.per_tenant = std::max(1, budget.per_tenant);
  for (int i = 0; i < state_->budget.workers; ++i) state_->workers.emplace_back([s = state_.get()] { s->run(); });
}

Runner::~Runner() {
  {
    std::lock_guard lock(state_->mutex);
    state_->stopping = true;
  }
  state_->wake.notify_all();
  for (auto& w : state_->workers) w.join();
  // Queued jobs will not run in this process: say so now rather than at the next start.
  for (auto& it : state_->queue) {
    try {
      it.db->with([&](soci::session& s) { sql::abandon(s, it.id, "interrompida: o serviço parou antes de executá-la"); });
    } catch (const std::exception& e) {
      *state_->log << "importacao " << it.id << ": " << e.what() << "\n";
    }
  }
}

Submitted Runner::submit(const service::Scope& scope, Job job, Work work) {
  bool first_touch;
  {
    std::lock_guard lock(state_->mutex);
    if (state_->stopping) throw Error(errc::unavailable, "o serviço está parando; tente de novo");
    first_touch = state_->recovered.insert(scope.db).second;
  }
  Submitted out = scope.db->with([&](soci::session& s) {
    if (first_touch) sql::recover(s);
    return sql::insert(s, scope.user.user_id, job);
  });
  if (!out.novo) return out;
  {
    std::lock_guard lock(state_->mutex);
    state_->queue.push_back(Item{out.id, scope.tenant.id, scope.user.user_id, scope.tenant.slug, job.parametros,
                                 scope.db, std::move(work), job.announce});
  }
  state_->wake.notify_one();
  return out;
}

std::optional<std::string> Runner::find(const service::Caller& scope, std::int64_t id, std::string_view tipo) {
  return scope.db->with([&](soci::session& s) { return sql::one(s, id, whose(scope), tipo); });
}

std::optional<Status> Runner::status(const service::Caller& scope, std::int64_t id) {
  return scope.db->with([&](soci::session& s) { return sql::status(s, id, whose(scope)); });
}

store::PageRows Runner::list(const service::Caller& scope, const std::vector<std::string>& tipos, const Page& page) {
  bool first_touch;
  {
    std::lock_guard lock(state_->mutex);
    first_touch = state_->recovered.insert(scope.db).second;
  }
  return scope.db->with([&](soci::session& s) {
    if (first_touch) sql::recover(s);
    return sql::page(s, scope.user.user_id, tipos, page);
  });
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
  std::optional<Item> dropped;  // its work (and what it owns, a staged file) goes outside the lock
  {
    std::lock_guard lock(state_->mutex);
    if (estado == "cancelada") {  // was pendente: take it out of the queue, if it is in this process's
      auto& q = state_->queue;
      for (auto i = q.begin(); i != q.end(); ++i)
        if (i->db == scope.db && i->id == id) {
          dropped = std::move(*i);
          q.erase(i);
          break;
        }
    } else {
      for (Current& c : state_->running)
        if (c.db == scope.db && c.id == id) c.cancel = true;  // this process runs it: its next progress() stops it
    }
  }
  Item shown;
  shown.id = id, shown.tenant_id = scope.tenant.id;
  scope.db->with([&](soci::session& s) {
    shown.user = sql::creator_of(s, id).value_or(scope.user.user_id);  // the event goes to its creator
    state_->publish(shown, s);
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
  const Budget budget = lane == Lane::previews ? kPreviewBudget : Budget{b.workers, b.per_tenant, b.wall, b.cpu};
  auto r = std::make_shared<Runner>(app.platform(), app.options().http.log, budget);
  slot = r;
  return r;
}

}  // namespace cadastre::platform::jobs
