// Background jobs of the platform (imports of vector files, the cadastre's layers, GeoTIFFs,
// the ombudsman's requests, images' previews): a route checks what it can at once, stages
// the job's input in the file store, submits the job and answers 202 with its id.
//
// A durable queue shared by every instance (decision 0021). Each job is a row of
// projeto.importacoes in its tenant's database (tenant migrations 0024, 0029, 0034: its
// state pendente → executando → concluida | falhou | cancelada; pendente → cancelada,
// progress, counts, errors per feature, the layers it created) and, while open, a row of
// plataforma.tarefas (platform migration 0013): its place in the queue. Any instance's
// workers claim the oldest job they may run (FOR UPDATE SKIP LOCKED) under a lease
// (Budget::lease) that a heartbeat renews while it runs. No tenant runs more than
// Budget::per_tenant jobs of a lane at once, across all instances, so one municipality's
// imports cannot hold every worker. The work is not a closure of the submitting request: it
// is the handler registered under the job's tipo (Runner::handle, by every instance at
// start), rebuilt from the job's row (parametros) and its staged input (entrada), so any
// instance can run it.
//
// When the instance running a job dies (kill -9, a machine lost), its transaction dies with
// its connection and, once the lease expires, another instance claims the job and runs it
// again from the start: the one-transaction rule below means nothing half-written exists to
// undo. Each claim is an attempt (importacoes.tentativa); only the current attempt may
// write the job's final row, so an attempt whose lease was taken over cannot commit. A job
// claimed more than Budget::attempts times, or whose work failed unexpectedly that many
// times (anything but a cadastre::Error: a lost connection, a full disk), ends falhou with
// the reason; a cadastre::Error (the file's own fault, a budget exceeded, a cancellation)
// ends it at once. Each change of state or progress is published to the sockets of the
// creator's valid sessions (and no one else's) as {"tipo":"importacao", ...the job's JSON}.
//
// All or nothing: the work writes in ONE transaction of its own (on ctx.db()) and calls
// ctx.complete(session) just before committing it, so the job's final row commits with the
// data. An exception fails the job: its transaction rolls back (no layer, no row).
//
// Each job is held to a wall time and a CPU time (of its worker thread): past either, its
// next progress() or complete() throws and the job fails with the reason.
//
// Cancellation (cancel(), through any instance): a pendente job becomes cancelada at once
// and leaves the queue. An executando job is asked to stop (its row's cancelamento_pedido):
// its next progress() — or its complete(), so a work that never reports progress still
// cannot commit — throws, its transaction rolls back, and the job ends cancelada. When the
// App is destroyed (a rolling restart) the runner stops: a running job is interrupted at
// its next progress() and goes back to the queue for another instance, its attempt not
// counted.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "platform/paging.hpp"
#include "service/scope.hpp"
#include "store/sql.hpp"

namespace soci {
class session;
}

namespace cadastre::platform {
class App;
}

namespace cadastre::platform::jobs {

/// The counts every job reports (an import: features read, imported, repaired, refused).
struct Counts {
  std::int64_t lidas = 0, importadas = 0, reparadas = 0, recusadas = 0;
};

/// A layer a job created, for the job's answer (a DXF import creates one per geometry type).
struct Layer {
  std::int64_t id = 0;
  std::string nome, geometria;
  std::int64_t feicoes = 0;
};

/// The largest number of per-feature errors a job keeps (the rest are only counted).
inline constexpr std::size_t kMaxErrors = 100;

struct Job;

/// What the work of a job sees. Used on the worker thread only.
class Context {
 public:
  virtual ~Context() = default;
  virtual std::int64_t id() const = 0;
  /// The tenant's pool, its slug and the submitting user.
  virtual store::Pool& db() = 0;
  virtual const std::string& tenant_slug() const = 0;
  virtual std::int64_t tenant_id() const = 0;
  virtual std::int64_t user_id() const = 0;
  /// The parameters given at submit (JSON object text).
  virtual const std::string& parametros() const = 0;
  /// The job's input staged in the file store at submit (a path relative to its root), if
  /// any: the runner removes it when the job ends.
  virtual const std::optional<std::string>& entrada() const = 0;
  /// Progress: `done` of `total` units (total 0: unknown). Stored and published at most
  /// about once a second. Throws when the runner is stopping, the lease was lost or the
  /// job's cancellation was asked: let it propagate.
  virtual void progress(std::int64_t done, std::int64_t total) = 0;
  /// An error of one feature (1-based position in the file; 0: the whole file). The first
  /// kMaxErrors are kept.
  virtual void error(std::int64_t feature, std::string message) = 0;
  /// The counts, updated by the work as it goes.
  virtual Counts& counts() = 0;
  /// Records a layer the job created (shown once the job completes).
  virtual void layer(Layer created) = 0;
  /// Writes the job's final row (concluida, counts, errors, layers) on `s`, inside the
  /// work's own transaction, so it commits with the data. Call it last, before commit.
  /// Throws, as progress() does, when the job's cancellation was asked or this attempt
  /// is no longer the job's current one.
  virtual void complete(soci::session& s) = 0;
  /// A job to run after this one, on the same lane: its row is written on `s`, inside the
  /// work's own transaction, so it exists only if the work commits; it is queued once the
  /// work has returned. When the process dies between the commit and the queueing, the
  /// next claim of this job (which finds it ended) queues it (tenant migration 0038).
  virtual void follow(soci::session& s, Job job) = 0;
};

/// The work of one tipo of job, rebuilt from the Context (parametros, entrada).
using Handler = std::function<void(Context&)>;

/// The runner's workers and what one job may take (docs/operations.md, "Limits").
struct Budget {
  int workers = 2;      ///< worker threads of the process (--job-workers)
  int per_tenant = 1;   ///< jobs of one tenant running at once, all instances (--job-per-tenant)
  std::chrono::seconds wall{1800};  ///< a job's duration (--job-max-seconds)
  std::chrono::seconds cpu{900};    ///< a job's CPU time on its worker (--job-max-cpu-seconds)
  std::chrono::seconds lease{30};   ///< a claim's lease, renewed every third (--job-lease-seconds)
  int attempts = 3;                 ///< claims or unexpected failures before falhou (--job-attempts)
};

/// A job to submit.
struct Job {
  /// shp, kml, dxf, pvg, icad_lotes, icad_lotes_rurais, icad_edificacoes,
  /// icad_logradouros, ouv, tiff, previa, indices (a check constraint of the table).
  std::string tipo;
  /// The registered handler that runs it (Runner::handle); empty: the one named `tipo`.
  std::string handler;
  std::string parametros = "{}";      ///< JSON object: what the job was asked (no file bytes)
  std::optional<std::string> codigo;  ///< the client's idempotency key (see submit)
  std::optional<std::int64_t> projeto;
  /// The input staged in the file store (relative path), the job's from now on: removed
  /// when the job ends, or at once when the codigo names an earlier job.
  std::optional<std::string> entrada;
};

/// Where a job stands: its tipo, its estado, once it failed why, and the (first) layer it
/// created.
struct Status {
  std::string tipo, estado;
  std::optional<std::string> mensagem;
  std::optional<std::int64_t> camada;
};

struct Submitted {
  std::int64_t id = 0;
  bool novo = true;  ///< false: an earlier job of the same user, tipo and codigo
};

class Runner;

/// The answer to a submission (202): {"idImportacao", "estado", "novo"}, with the state of
/// the earlier job when the same codigo came again.
std::string accepted_json(Runner& runner, const service::Caller& scope, const Submitted& sub);

/// The tenant a claimed job belongs to: its pool and slug (nullopt: the tenant is gone).
struct Tenant {
  store::Pool* db = nullptr;
  std::string slug;
};
using TenantLookup = std::function<std::optional<Tenant>(std::int64_t tenant_id)>;

/// What a runner needs besides its budget.
struct Setup {
  store::Pool* platform = nullptr;  ///< plataforma.tarefas, and the sessions events go to
  TenantLookup tenant;              ///< a claimed job's tenant
  std::string files_root;           ///< the file store holding the jobs' inputs
  std::string lane = "importacoes";  ///< plataforma.tarefas.fila
  std::ostream* log = nullptr;      ///< unexpected failures' text (never to a client)
  Budget budget;
};

class Runner {
 public:
  explicit Runner(Setup setup);
  ~Runner();  ///< stops the workers (see the header's last paragraph)
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  /// Registers the work of `name` (a tipo, or a handler a Job names). `announce`: false for
  /// jobs whose events nobody follows (an image's preview). Register every handler before
  /// submitting; the workers claim only jobs whose handler they know.
  void handle(const std::string& name, Handler work, bool announce = true);

  /// Records the job (pendente) and queues it. When the caller already has a job of this
  /// tipo with this codigo, nothing is queued and that job's id is returned (novo = false):
  /// a client that retries an upload gets the first job back.
  Submitted submit(const service::Scope& scope, Job job);

  /// Waits up to `timeout` for the job to end (concluida, falhou, cancelada); whether it did.
  bool wait(const service::Caller& scope, std::int64_t id, std::chrono::milliseconds timeout);

  /// The job's JSON ({"idImportacao","tipo","estado","progresso","contagens","erros",
  /// "camadas","idCamada","idProjeto","codigo","parametros","oculta","cancelamentoPedido",
  /// "criadoPor","criadoEm","atualizadoEm","mensagem"}) when it is the caller's (any job
  /// of the tenant for a tenant administrator) and, when `tipo` is given, of that tipo;
  /// nullopt otherwise.
  std::optional<std::string> find(const service::Caller& scope, std::int64_t id, std::string_view tipo = {});
  /// The job's estado and failure message, under find()'s rule.
  std::optional<Status> status(const service::Caller& scope, std::int64_t id);
  /// One page of the caller's jobs not hidden (tipos empty: every type), ordered by
  /// page.order_by ("id", "criadoEm", "estado", "tipo"; page_params()/parse_page()):
  /// answer it with page_json(rows, page).
  store::PageRows list(const service::Caller& scope, const std::vector<std::string>& tipos, const Page& page);
  /// Hides a finished job (concluida, falhou, cancelada) of the caller from list(): 404
  /// unknown, 409 still pendente or executando.
  void hide(const service::Caller& scope, std::int64_t id);
  /// Cancels a job of the caller, or any job of the tenant when the caller is its
  /// administrator (see the header): returns its state afterwards, cancelada (was pendente)
  /// or executando (asked to stop; "cancelamentoPedido" true in its JSON, and asking again
  /// changes nothing). 404 when it is not the caller's (another user's, another tenant's,
  /// unknown); 409 transicao_invalida naming the state when it has ended
  /// (concluida, falhou, cancelada). Publishes the job's new JSON.
  std::string cancel(const service::Caller& scope, std::int64_t id);

  struct State;  ///< the workers and the heartbeat (jobs.cpp)

 private:
  std::shared_ptr<State> state_;
};

/// The runners of an App, each with its own workers and budget: imports (vector files,
/// the cadastre's layers, GeoTIFFs: AppOptions::jobs) and previews (an image's preview,
/// files/thumbnail.hpp: one worker, a minute of wall time), so a photo's preview never
/// waits behind a municipality's long import.
enum class Lane { imports, previews };
/// The budget of the previews lane (its lease and attempts are the App's).
inline const Budget kPreviewBudget{.workers = 1, .per_tenant = 1, .wall = std::chrono::seconds(60),
                                   .cpu = std::chrono::seconds(30), .lease = std::chrono::seconds(30),
                                   .attempts = 3};

/// The App's runner of `lane` (created on first use; shared by the routes that submit to
/// it, which register their handlers on it). Keep the shared_ptr in your route handlers'
/// captures: the runner lives as long as the routes of its App, and stops when the App's
/// server (and its route table) is destroyed.
std::shared_ptr<Runner> runner(App& app, Lane lane = Lane::imports);

}  // namespace cadastre::platform::jobs
